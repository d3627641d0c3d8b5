import CLIKit
import FetchedResults
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore

/// `--query`: one read-only SELECT of a SQLite file or a PostgreSQL server
/// (``PostgresLiveQuery``), its result kept as a table that the
/// browser, `list` and `watch` open like any other (``TableDatabase/querySource``), and
/// kept current as the tables it reads change (``follow()``).
///
/// The result lives in a file of a private temporary folder, removed when the source goes.
/// Its own columns — the row id and the row's place in the query's order — are not shown;
/// the rows are in the query's order unless `--sort` asks for another.
///
///     let source = try QuerySource.open(options)
///     source.follow()   // another connection's commit to a table it reads runs it again
package final class QuerySource {
    /// The query as run: a SQLite file's (``LiveQuery``) or a server's (``PostgresLiveQuery``).
    package let live: any LiveQuerying
    /// The folder of the result's file.
    private let folder: String
    /// What the query is called on screen where its result's own table name (`query_result`)
    /// would show — the status line, the title bar, the detail view, messages: the `:` line's tab
    /// title (":1 SELECT …"), else the query's first words (``title(of:limit:)``).
    package var title: String

    /// The result table's columns that are the table's own, not the query's.
    var hiddenColumns: Set<String> { [live.result.rowIDColumn, live.result.orderColumn, live.result.placeColumn] }
    /// The column that orders the rows as the query does.
    var orderColumn: String { live.result.orderColumn }

    private init(live: any LiveQuerying, folder: String) {
        self.live = live
        self.folder = folder
        title = QuerySource.title(of: live.sql)
    }

    /// "SELECT s.subject, count(*) …": the query's words on one line, at most `limit` characters.
    static func title(of sql: String, limit: Int = 40) -> String {
        let words = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return words.count <= limit ? words : String(words.prefix(max(limit - 1, 0))) + "…"
    }

    /// Whether `error` is a run's end by ``LiveQuerying/cancelRun()`` (SQLite's interrupt, a server's cancel).
    static func isCancellation(_ error: Error) -> Bool {
        (error as? SQLiteError)?.isInterrupted == true || error is PostgresLiveQuery.RunCancelled
    }

    deinit {
        live.stop()
        live.result.removeFile()
        rmdir(folder)
    }

    /// Checks and runs `options.query` over `options.file` (`@FILE`: the SQL in FILE).
    ///
    /// - Throws: ``FetchedTableError``: 64 for a statement that is not one read-only SELECT (naming
    ///   why, SQLite's message and position for one it cannot prepare), a parameter without a value,
    ///   an unknown `--key` column; 65 for a `--key` two rows share (naming them); 66 for a missing
    ///   file or `@FILE`; 74 when the result cannot be written.
    ///
    /// - Parameter databasePath: the SQLite file queried, when not `options.file` itself (a CSV
    ///   file's cache).
    package static func open(
        _ options: TableOptions,
        databasePath: String? = nil
    ) throws(FetchedTableError) -> QuerySource {
        let source =
            options.postgres != nil
            ? try preparePostgres(options) : try prepare(options, databasePath: databasePath)
        try source.load(options: options)
        return source
    }

    /// Checks `options.query` over the SQLite file `options.file` and makes its result's file;
    /// nothing is run yet (``load(options:progress:)``).
    ///
    /// - Parameter databasePath: the SQLite file queried, when not `options.file` itself (a CSV
    ///   file's cache).
    /// - Throws: ``FetchedTableError`` as ``open(_:databasePath:)``, but for what only a run finds.
    package static func prepare(
        _ options: TableOptions,
        databasePath: String? = nil
    ) throws(FetchedTableError) -> QuerySource {
        guard let given = options.query else { throw .usage("--query: no query") }
        let sql = try text(of: given)
        guard FileManager.default.fileExists(atPath: options.file) else {
            throw .noInput("\(options.file): no such file")
        }
        do {
            return try prepare(
                sql: sql,
                file: databasePath ?? options.file,
                parameters: options.parameters,
                key: options.key
            )
        } catch let error as FetchedTableError {
            throw error
        } catch {
            throw refusal(error, options: options)
        }
    }

    /// Checks `sql` over the SQLite file `file` and makes its result's file (the browser's `:`
    /// line: the errors as thrown, a ``QueryRefusal`` with its position).
    package static func prepare(
        sql: String,
        file: String,
        parameters: [String: String] = [:],
        key: [String]? = nil
    ) throws -> QuerySource {
        let folder = try makeFolder()
        do {
            let live = try LiveQuery(
                databasePath: file,
                sql: sql,
                parameters: parameters.mapValues(parameterValue),
                key: key,
                resultPath: folder + "/result.sqlite",
                tracking: TableFileNames.tracking,
                resultTracking: TableFileNames.tracking
            )
            return QuerySource(live: live, folder: folder)
        } catch {
            rmdir(folder)
            throw error
        }
    }

    /// Runs the query the first time (on the calling thread; ``LiveQuerying/cancelRun()`` from
    /// another stops it), `progress` told the rows read so far.
    package func load(options: TableOptions, progress: ((Int) -> Void)? = nil) throws(FetchedTableError) {
        do {
            try live.load(progress: progress)
        } catch {
            throw QuerySource.refusal(error, options: options)
        }
    }

    /// A SQLite query's first run for a list's first fetch, in the query's order without a read of
    /// the table: its rows' ids ascending, each one's place its row id
    /// (``LiveQuery/firstRunRowCount``). Nil for a server's query, and once followed (``follow(_:)``).
    var firstRunRows: PresortedRows? {
        guard let live = live as? LiveQuery, let count = live.firstRunRowCount else { return nil }
        return PresortedRows(keyPath: orderColumn, ascendingWithIDs: (0..<Int64(count)).map { $0 + 1 })
    }

    /// The SQLite file a SQLite query reads (nil: a server's).
    package var databasePath: String? { (live as? LiveQuery)?.databasePath }

    /// What the file queried is: a SQLite database, or a CSV or JSON file whose cache is queried
    /// (``TableDatabase/queryDatabasePath(_:)``).
    package var fileKind = TableFileKind.sqlite

    /// Why the file queried may not be written whatever the query: its rows are a CSV or JSON
    /// file's cache's (nil for a SQLite database).
    var fileRefusal: String? { fileKind.cacheWriteRefusal }

    /// `d`, `e` and `a` on the result: the table its rows are rows of, open for writing (nil until
    /// ``openWrites(refusal:)`` opened it).
    private(set) var writes: QueryWrites?

    /// Opens the table the result's rows are rows of for `d`, `e` and `a` — only a SQLite query's
    /// result whose rows are one table's, by its key (``QuerySourceTable``, and not grouped,
    /// distinct, combined or windowed: ``QuerySourceTable/changeRefusal``) — or says why not.
    ///
    /// - Parameter refusal: why the file may not be written whatever the query (`--read-only`, a
    ///   CSV file's cache), nil when it may.
    /// - Returns: why the rows cannot be changed (the browser's read-only reason), nil when they can.
    func openWrites(refusal: String?) -> String? {
        guard let live = live as? LiveQuery else { return openServerWrites(refusal: refusal) }
        guard let mapping = live.sourceTable else {
            return QuerySource.notOneTablesRows(live)
        }
        if let reason = mapping.changeRefusal { return reason }
        if let refusal { return refusal }
        if !TableDatabase.isWritable(live.databasePath) { return "\(live.databasePath) is not writable" }
        do {
            writes = try QueryWrites(
                file: live.databasePath,
                sql: live.sql,
                mapping: mapping,
                columns: live.columns
            )
            return nil
        } catch {
            return "\(mapping.table) cannot be written: \(error.message)"
        }
    }

    /// Why the rows of `live` are not one table's rows to change, in its own words ("its rows come
    /// from a join of orders and customers"): said after "Delete is disabled: " on an 80-column
    /// status line, the tab already saying that the rows are a query's.
    static func notOneTablesRows(_ live: any LiveQuerying) -> String {
        live.sourceTableRefusal ?? "the rows are a query's result (\(live.identityDescription))"
    }

    /// `d`, `e` and `a` on a PostgreSQL query's result: its rows' table on the server, open for
    /// writing (``PostgresQueryWrites``) — or why not, as ``openWrites(refusal:)``.
    private func openServerWrites(refusal: String?) -> String? {
        guard let mapping = live.sourceTable else {
            return QuerySource.notOneTablesRows(live)
        }
        if let reason = mapping.changeRefusal { return reason }
        if let refusal { return refusal }
        guard let target = postgresTarget else { return "the rows are a query's result of a server" }
        do {
            let writes = try PostgresQueryWrites(target: target, sql: live.sql, mapping: mapping, columns: live.columns)
            if let reason = writes.table.kind == .table || writes.table.kind == .partitionedTable
                ? nil : "\(mapping.table) is not a table"
            {
                return reason
            }
            serverWrites = writes
            return nil
        } catch {
            return "\(mapping.table) cannot be written: \(error.message)"
        }
    }

    /// `d`, `e` and `a` on a PostgreSQL query's result (nil until ``openWrites(refusal:)`` opened it).
    private(set) var serverWrites: PostgresQueryWrites?
    /// The server a PostgreSQL query's result comes from.
    var postgresTarget: PostgresTarget?

    /// `--query` of a server: checked there (``PostgresLiveQuery``) on a connection of its own, its
    /// result's file made; nothing is run yet (``load(options:progress:)``).
    ///
    /// - Throws: ``FetchedTableError``: 64 a query refused before it is sent or by the server (its
    ///   message and position), a write, a parameter without a value; 69/77 the server cannot be
    ///   reached or refuses the credentials. (65, a `--key` two rows share, comes with the run.)
    static func preparePostgres(_ options: TableOptions) throws(FetchedTableError) -> QuerySource {
        guard let target = options.postgres else { throw .usage("not a PostgreSQL URL: \(options.file)") }
        guard let given = options.query else { throw .usage("--query: no query") }
        let sql = try text(of: given)
        do {
            return try prepare(
                sql: sql,
                server: target,
                parameters: options.parameters,
                key: options.key,
                statementTimeout: options.statementTimeout,
                warn: { writeStandardError("\(ProgramName.current): \($0)\n") }
            )
        } catch let error as FetchedTableError {
            throw error
        } catch {
            throw refusal(error, options: options)
        }
    }

    /// Checks `sql` on `target`'s server, on a connection of its own that its runs use, and makes its
    /// result's file (the browser's `:` line: the errors as thrown, a ``QueryRefusal`` with the
    /// server's position); nothing is run yet. `warn` gets the URL's password warning.
    ///
    /// - Throws: ``FetchedTableError`` (the server cannot be reached), ``QueryRefusal``,
    ///   ``PostgresError``, ``QueryResultError``.
    package static func prepare(
        sql: String,
        server target: PostgresTarget,
        parameters: [String: String] = [:],
        key: [String]? = nil,
        statementTimeout: Double? = nil,
        warn: (String) -> Void = { _ in }
    ) throws -> QuerySource {
        let server = try PostgresServer.connect(target, warn: warn)
        let folder = try makeFolder()
        do {
            let live = try PostgresLiveQuery(
                connection: server.connection,
                sql: sql,
                parameters: parameters,
                key: key,
                resultPath: folder + "/result.sqlite",
                resultTracking: TableFileNames.tracking,
                changeFeed: TableFileNames.changeFeed,
                statementTimeout: statementTimeout ?? PostgresLiveQuery.defaultStatementTimeout
            )
            let source = QuerySource(live: live, folder: folder)
            source.postgresTarget = target
            return source
        } catch {
            rmdir(folder)
            throw error
        }
    }

    /// Runs the query again whenever another connection commits a change to a table it reads
    /// (a server's: when a tracked table notifies, else on a poll; on a thread of its own; the result's file then changes, and its readers see it as any
    /// other program's writes). A run that fails leaves the result as it was, `report` told why.
    /// `refreshed` gets each run's ``refreshedText(_:timeZone:)``.
    package func follow(
        _ report: @escaping @Sendable (String) -> Void = { _ in },
        refreshed: (@Sendable (QueryRefresh) -> Void)? = nil
    ) {
        live.follow { event in
            switch event {
            case .failed(let message): report("the query's re-run failed: \(message)")
            case .refreshed(let refresh): refreshed?(refresh)
            default: break
            }
        }
    }

    /// `--query`'s SQL: as given, or the contents of FILE for `@FILE`.
    static func text(of given: String) throws(FetchedTableError) -> String {
        guard given.hasPrefix("@") else { return given }
        let path = String(given.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("--query: cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A `--param` value: an integer or a real when it is written as SQL writes one (`3`, `-2.5`,
    /// `1e3`), else text — a code with leading zeros (`007`), a sign (`+5`), hex (`0x10`), spaces
    /// or more digits than an integer holds stay the text they are, so that it still equals a text column holding it (SQLite would compare
    /// the integer 7 with `'007'` as `'7'`).
    ///
    ///     QuerySource.parameterValue("42")    // .integer(42)
    ///     QuerySource.parameterValue("007")   // .text("007")
    ///     QuerySource.parameterValue("x")     // .text("x")
    static func parameterValue(_ text: String) -> StoreValue {
        guard isWrittenAsANumber(text) else { return .text(text) }
        if let integer = Int64(text) { return .integer(integer) }
        // Digits beyond an integer's range stay text rather than become a rounded real.
        let isReal = text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if isReal, let real = Double(text), real.isFinite { return .real(real) }
        return .text(text)
    }

    /// Whether `text` is a number as SQL writes it: `-`, digits without a leading zero (but `0`
    /// itself), an optional fraction and exponent (`-0.5`, `12.`, `.5`, `6e-3`).
    private static func isWrittenAsANumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        if whole.count > 1, whole.first == UInt8(ascii: "0") { return false }
        bytes = bytes.dropFirst(whole.count)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }

    /// A private folder for the result's file.
    private static func makeFolder() throws(FetchedTableError) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/fetchedtable-query-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw FetchedTableError(
                "--query: cannot make a folder for its result in \(base): \(String(cString: strerror(errno)))",
                status: ExitStatus.cantCreate
            )
        }
        return String(cString: made)
    }

    /// What a refused or failed query says, with its status.
    static func refusal(_ error: Error, options: TableOptions) -> FetchedTableError {
        switch error {
        case let refusal as QueryRefusal:
            let place = refusal.offset.map { " (at character \($0 + 1) of the query)" } ?? ""
            return .usage("--query refused: \(refusal.message)\(place)")
        case QueryResultError.duplicateKey(let columns, let values):
            let pairs = zip(columns, values).map { "\($0) = \($1)" }.joined(separator: ", ")
            return .data("--key \(columns.joined(separator: ", ")) is not unique: two rows have \(pairs)")
        case QueryResultError.unknownKeyColumn(let name, let columns):
            return .usage(
                "--key: no column \"\(name)\" in the query's result; its columns: \(columns.joined(separator: ", "))"
            )
        case let error as SQLiteError:
            return .data("\(options.file): the query failed: \(error.message)")
        case let error as PostgresError:
            return PostgresServer.refusal(error, target: options.postgres ?? PostgresTarget(connectionString: nil))
        default:
            return TableDatabase.refusal(error, path: options.file)
        }
    }
}
