import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore
import Synchronization

/// A query of a PostgreSQL server as a live source: its result kept in a ``QueryResultTable``
/// (a SQLite file of its own), run again when a table it reads changes, and brought up to date
/// by the difference — as ``LiveQuery`` does for a SQLite file, so that whatever reads the
/// result reads both the same.
///
/// - **One read-only statement.** The text is checked before anything is sent (``QueryText``:
///   one statement whose first word is `SELECT`, `WITH`, `VALUES`, `TABLE` or `(`), then prepared
///   by the server (the extended protocol refuses several statements) and each run is made in a
///   `READ ONLY` transaction that is rolled back, with `statement_timeout` set to
///   ``statementTimeout``. Its `:name` parameters are sent as `$1`, `$2`… with their values
///   bound, never spliced.
/// - **Identity.** `key` when given (checked unique every run); else the primary key of the one
///   table the query reads when the result returns it as plain columns (libpq's `PQftable`);
///   else the whole row.
/// - **Live.** The tables it reads come from `EXPLAIN (VERBOSE, FORMAT JSON)`. When each of them
///   has the change feed's triggers (`--track`), their `NOTIFY` runs the query again; otherwise
///   it is run on a poll every ``minimumPollInterval`` seconds, doubled after each poll that
///   changed nothing, up to ``maximumPollInterval``, and back to the minimum after a change.
///   Runs never overlap: notifications that arrive during a run make one more run.
/// - **First run.** A query without parameters is streamed (``PostgresCopyRows``: `COPY (query)
///   TO STDOUT`, received on one thread while the result is written on another), as a replica's
///   copy is; one with parameters (COPY takes none) is fetched whole, then written. Its rows are
///   only written (`key` checked unique as they come): the index a re-run is compared with is
///   read back from the result's table by the follower after its first wait (a table's key is
///   checked then: when it repeats, the rows are told apart by content from then on), so that
///   it does not compete with the first screen.
/// - **Cancel.** ``cancelRun()`` sends `PQcancel` for the run in progress; one that comes before
///   ``load(progress:)`` starts ends the load at once, as cancelled.
package final class PostgresLiveQuery: LiveQuerying, @unchecked Sendable {
    package let sql: String
    package let columns: [QueryColumn]
    package let readTables: [String]
    package let result: QueryResultTable
    package var sourceTable: QuerySourceTable? { mapping.table }
    package var sourceTableRefusal: String? { mapping.refusal }
    /// Seconds a run may take on the server before it is cancelled (`statement_timeout`).
    package let statementTimeout: Double
    /// The first poll's interval, in seconds, when a table the query reads is not tracked.
    package var minimumPollInterval = 2.0
    /// The longest interval between two polls, in seconds.
    package var maximumPollInterval = 60.0
    /// Whether every table the query reads notifies its changes (no poll is needed).
    package let isNotified: Bool

    /// The default of ``statementTimeout``: 60 seconds.
    package static let defaultStatementTimeout = 60.0

    private let connection: PostgresConnection
    /// The type of each result column, as the server described it.
    private let typeOIDs: [UInt32]
    private let canceller: QueryCanceller?
    private let text: QueryText
    private let values: [String?]
    /// Each notified table's label (its quoted name, the notification's payload) and the name shown.
    private let labels: [String: String]
    /// ``sourceTable``, ``sourceTableRefusal`` and the key given.
    private let mapping: QuerySourceMapping
    private let stopped = Atomic<Bool>(false)
    /// ``cancelRun()`` asked (until a run takes the request), and whether a run's statements are on the server.
    private let cancelling = Mutex<(requested: Bool, onServer: Bool)>((false, false))
    private let refreshRequested = Atomic<Bool>(false)
    private let finished = DispatchGroup()
    private var thread: Thread?

    /// Checks `sql`, asks the server for its columns and the tables it reads, and makes the
    /// result's file at `resultPath`; nothing is run yet.
    ///
    /// - Parameters:
    ///   - connection: a connection of the query's own (used by its thread from now on).
    ///   - sql: one read-only query, with `:name` parameters.
    ///   - parameters: a value for each parameter, by name, in PostgreSQL's text form.
    ///   - key: the result's columns that tell rows apart (nil: the table's key, or the content).
    ///   - resultPath: the file the result table is made in.
    ///   - resultTracking: the names of the result file's history table and triggers.
    ///   - changeFeed: the change feed's names (its channel is listened on for tracked tables).
    ///   - statementTimeout: seconds a run may take on the server.
    /// - Throws: ``QueryRefusal`` (not one read-only query, a parameter without a value, the
    ///   server's refusal with its position), ``QueryResultError``, ``PostgresError`` (the
    ///   connection), ``StoreError``.
    package init(
        connection: PostgresConnection,
        sql: String,
        parameters: [String: String] = [:],
        key: [String]? = nil,
        resultPath: String,
        resultTracking: TrackingNames = QueryResultTable.defaultTracking,
        changeFeed: ChangeFeedConfiguration = .init(),
        statementTimeout: Double = PostgresLiveQuery.defaultStatementTimeout
    ) throws {
        self.connection = connection
        self.sql = sql
        self.statementTimeout = statementTimeout
        let text = try PostgresLiveQuery.check(sql)
        self.text = text
        values = try PostgresLiveQuery.values(for: text, parameters)
        canceller = connection.makeCanceller()
        let described: [QueryResult.Column]
        let relations: [TableName]
        do {
            described = try connection.describe(text.sql)
            guard !described.isEmpty else {
                throw QueryRefusal(.returnsNoRows, "it returns no rows: a query source is one SELECT")
            }
            relations = try PostgresLiveQuery.readRelations(text.sql, values, on: connection, timeout: statementTimeout)
        } catch let error as PostgresError {
            throw PostgresLiveQuery.refusal(error, position: connection.lastErrorPosition)
        }
        typeOIDs = described.map(\.typeOID)
        let names = QueryColumn.uniqueNames(described.map(\.name))
        var columns = zip(names, described).map { name, column in
            QueryColumn(name: name, declaredType: PostgresResultRows.declaredType(of: column.typeOID))
        }
        readTables = relations.map(PostgresLiveQuery.displayName)
        // The tables that notify their changes.
        var labels: [String: String] = [:]
        for relation in relations {
            let feed = ChangeFeed(table: relation, keyColumns: [], configuration: changeFeed)
            if (try? feed.installation(on: connection))?.isInstalled == true {
                labels[feed.tableLabel] = PostgresLiveQuery.displayName(relation)
            }
        }
        self.labels = labels
        isNotified = !relations.isEmpty && labels.count == relations.count
        if !labels.isEmpty { try connection.listen(changeFeed.channel) }
        // How the rows are told apart.
        var found = try PostgresLiveQuery.mappedTable(
            relations,
            sql: text.sql,
            described: described,
            names: names,
            on: connection
        )
        if case .success(var table) = found {
            // The result's plain columns of the table (what `e` may write), and its shape's refusal.
            let plain = try PostgresLiveQuery.tableColumns(relations[0], described: described, on: connection)
            for index in columns.indices {
                if let name = plain[index] {
                    columns[index].sourceTable = table.table
                    columns[index].sourceColumn = name
                }
            }
            table.changeRefusal = QuerySourceTable.shapeRefusal(sql: text.sql)
            found = .success(table)
        }
        let mapping = QuerySourceMapping(found, reason: \.reason, key: key)
        self.mapping = mapping
        self.columns = columns
        result = try QueryResultTable(
            path: resultPath,
            columns: columns,
            identity: mapping.identity,
            tracking: resultTracking
        )
    }

    deinit {
        stopped.store(true, ordering: .relaxed)
    }

    package var identityDescription: String { mapping.describe(result.identity) }

    package func load(progress: ((Int) -> Void)?) throws {
        if values.isEmpty, try loadByCopy(progress: progress) { return }
        let rows = try run()
        try result.fallingBackToContent(for: mapping) {
            try result.load(PostgresResultRows(rows), checksKey: mapping.givenKey != nil, progress: progress)
        } again: {
            try result.load(PostgresResultRows(rows), progress: progress)
        }
    }

    package func follow(_ report: @escaping @Sendable (LiveQuery.Event) -> Void) {
        precondition(thread == nil, "a live query is followed once")
        finished.enter()
        let finished = self.finished
        let thread = Thread { [weak self] in
            defer { finished.leave() }
            var interval = self?.minimumPollInterval ?? 2
            var nextPoll = Date().addingTimeInterval(interval)
            var prepared = false
            while let self, !self.stopped.load(ordering: .relaxed) {
                let polls = !self.isNotified
                let wait = polls ? min(max(nextPoll.timeIntervalSinceNow, 0), 0.25) : 0.25
                let changed: [String]
                do {
                    changed = try self.changedTables(waiting: wait)
                    if !prepared {
                        // After the first wait (not competing with the first screen): the first run's index.
                        prepared = true
                        self.result.readBackIndex(for: self.mapping)
                    }
                } catch {
                    report(.failed("\(error)"))
                    Thread.sleep(forTimeInterval: interval)
                    try? self.connection.reset(timeout: 10)
                    continue
                }
                let forced = self.refreshRequested.exchange(false, ordering: .relaxed)
                let pollDue = polls && Date() >= nextPoll
                guard !changed.isEmpty || forced || pollDue, !self.stopped.load(ordering: .relaxed) else { continue }
                let event = self.runAgain(tables: changed, report: report)
                if case .refreshed(let refresh) = event, changed.isEmpty, !forced, refresh.change.isEmpty {
                    interval = min(interval * 2, self.maximumPollInterval)
                } else {
                    interval = self.minimumPollInterval
                }
                nextPoll = Date().addingTimeInterval(interval)
                if let event { report(event) }
            }
        }
        thread.stackSize = 1 << 22
        self.thread = thread
        thread.start()
    }

    package func cancelRun() {
        let onServer = cancelling.withLock { state in
            state.requested = true
            return state.onServer
        }
        // PQcancel waits for the server's answer: never on the caller's thread. Before a run, the
        // request alone stops it (the server ignores a cancel while it waits for a statement).
        if onServer, let canceller { DispatchQueue.global(qos: .userInitiated).async { canceller.cancel() } }
    }

    package func refresh() {
        refreshRequested.store(true, ordering: .relaxed)
    }

    package func stop() {
        guard thread != nil, !stopped.exchange(true, ordering: .relaxed) else { return }
        if let canceller { DispatchQueue.global(qos: .userInitiated).async { canceller.cancel() } }
        finished.wait()
    }

    // MARK: Steps

    /// One run and its difference written to the result, on the calling thread: what the
    /// follower does on a change or a poll. `tables` are the tables whose change caused it
    /// (empty: a poll, or asked for). Nil when the follower was stopped meanwhile.
    @discardableResult
    package func runAgain(
        tables: [String],
        report: @escaping @Sendable (LiveQuery.Event) -> Void = { _ in }
    ) -> LiveQuery.Event? {
        cancelling.withLock { $0.requested = false }  // a request between runs stops none
        let started = Date()
        report(.running(rows: 0, tables: tables))
        do {
            let rows = try run()
            let progress: (Int) -> Void = { report(.running(rows: $0, tables: tables)) }
            let change = try result.fallingBackToContent(for: mapping) {
                try result.update(from: PostgresResultRows(rows), progress: progress)
            }
            return .refreshed(
                QueryRefresh(date: Date(), tables: tables, change: change, seconds: Date().timeIntervalSince(started))
            )
        } catch is RunCancelled {
            return stopped.load(ordering: .relaxed) ? nil : .cancelled
        } catch let refusal as QueryRefusal {
            return .failed(refusal.message)
        } catch {
            return .failed("\(error)")
        }
    }

    /// The tables named by the notifications that arrive within `seconds` (none: empty).
    private func changedTables(waiting seconds: Double) throws -> [String] {
        guard !labels.isEmpty else {
            if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            return []
        }
        var arrived = try connection.waitForNotifications(timeout: seconds)
        arrived += try connection.notifications()
        var tables: [String] = []
        for notification in arrived {
            if let table = labels[notification.payload], !tables.contains(table) { tables.append(table) }
        }
        return tables
    }

    /// One run of the query: in a `READ ONLY` transaction, with the statement timeout, rolled back.
    /// A ``cancelRun()`` before it stops it before anything is sent; one during it, by `PQcancel`
    /// (or, when that came while the server waited between two statements, once it ends).
    ///
    /// - Throws: ``RunCancelled`` when ``cancelRun()`` stopped it; ``QueryRefusal`` with the
    ///   server's message and position; ``PostgresError`` when the connection failed.
    private func run() throws -> QueryResult {
        try beginRun()
        let milliseconds = Int((statementTimeout * 1000).rounded())
        let outcome: Result<QueryResult, PostgresError>
        do {
            try connection.execute("BEGIN READ ONLY; SET LOCAL statement_timeout = \(milliseconds)")
            defer { if connection.isConnected { _ = try? connection.execute("ROLLBACK") } }
            outcome = .success(try connection.query(text.sql, values))
        } catch {
            outcome = .failure(error)
        }
        if endRun() { throw RunCancelled() }
        do {
            return try outcome.get()
        } catch {
            throw PostgresLiveQuery.refusal(error, position: connection.lastErrorPosition)
        }
    }

    /// Marks a run's statements as on their way to the server (``cancelRun()`` then sends
    /// `PQcancel`), or throws ``RunCancelled`` when a cancel was asked for before it.
    private func beginRun() throws {
        let cancelledBefore = cancelling.withLock { state in
            if state.requested {
                state.requested = false
                return true
            }
            state.onServer = true
            return false
        }
        if cancelledBefore { throw RunCancelled() }
    }

    /// Marks the run's statements as done; whether a cancel was asked for during it.
    private func endRun() -> Bool {
        cancelling.withLock { state in
            defer { state = (false, false) }
            return state.requested
        }
    }

    /// The first run streamed into the result (``PostgresCopyRows``: `COPY (query) TO STDOUT` in the
    /// run's `READ ONLY` transaction, received on another thread while the rows before are written),
    /// for a query without parameters (COPY takes none). False, nothing written, when the server
    /// refused the COPY (or the table's key repeats in the rows): the query is then run as a query.
    ///
    /// - Throws: as ``load(progress:)``: ``RunCancelled``, the statement timeout's refusal, a repeated
    ///   `key`, the connection's failure.
    private func loadByCopy(progress: ((Int) -> Void)?) throws -> Bool {
        var sql = Substring(text.sql)
        while let last = sql.last, last == ";" || last.isWhitespace { sql = sql.dropLast() }
        let milliseconds = Int((statementTimeout * 1000).rounded())
        try beginRun()
        let outcome: Result<Bool, any Error>
        do {
            try connection.execute("BEGIN READ ONLY; SET LOCAL statement_timeout = \(milliseconds)")
            defer { if connection.isConnected { _ = try? connection.execute("ROLLBACK") } }
            let rows = PostgresCopyRows(typeOIDs: typeOIDs)
            rows.start("COPY (\(sql)\n) TO STDOUT", on: connection)
            defer { rows.finish() }
            do {
                try result.load(rows, checksKey: mapping.givenKey != nil, progress: progress)
                outcome = .success(true)
            } catch QueryResultError.duplicateKey where mapping.fallsBackToContent {
                outcome = .success(false)
            }
        } catch {
            outcome = .failure(error)
        }
        if endRun() { throw RunCancelled() }
        switch outcome {
        case .success(let copied):
            return copied
        case .failure(let error as PostgresError):
            guard case .statementFailed = error, error.sqlState != "57014" else {
                throw PostgresLiveQuery.refusal(error, position: connection.lastErrorPosition)
            }
            return false
        case .failure(let error):
            throw error
        }
    }

    /// A run stopped by ``cancelRun()``.
    package struct RunCancelled: Error, CustomStringConvertible {
        package var description: String { "the query was cancelled" }
    }

    // MARK: Checks

    /// The words a query source may start with.
    static let queryWords: Set<String> = ["SELECT", "WITH", "VALUES", "TABLE", "("]
    /// The words of statements that write.
    static let writingWords: Set<String> = [
        "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE", "COPY",
        "CALL", "DO", "VACUUM", "ANALYZE", "CLUSTER", "REINDEX", "COMMENT", "LOCK", "REFRESH", "IMPORT", "SECURITY",
        "REASSIGN",
    ]

    /// `sql` read, or why it is no query source, before anything is sent.
    static func check(_ sql: String) throws(QueryRefusal) -> QueryText {
        let text = QueryText(sql)
        guard let word = text.firstWord else { throw QueryRefusal(.empty, "there is no statement") }
        if let offset = text.secondStatementOffset {
            throw QueryRefusal(
                .severalStatements,
                "it holds more than one statement; a query source is one",
                offset: offset
            )
        }
        if writingWords.contains(word) {
            throw QueryRefusal(.writes, "it writes (\(word)): a query source only reads", offset: 0)
        }
        guard queryWords.contains(word) else {
            throw QueryRefusal(.returnsNoRows, "\(word) is no query: a query source is one SELECT", offset: 0)
        }
        if let offset = text.positionalParameterOffset {
            let positional = "$" + sql.dropFirst(offset + 1).prefix(while: \.isNumber)
            throw QueryRefusal(
                .parameters,
                "the parameter \(positional) has no name: name it (:name) and give its value by that name",
                offset: offset
            )
        }
        return text
    }

    /// The values of `text`'s parameters in `$n` order, or why not.
    static func values(for text: QueryText, _ parameters: [String: String]) throws(QueryRefusal) -> [String?] {
        for name in parameters.keys.sorted() where !text.parameterNames.contains(name) {
            throw QueryRefusal(.parameters, "--param \(name): the query has no parameter :\(name)")
        }
        return try text.parameterNames.map { name throws(QueryRefusal) in
            guard let value = parameters[name] else {
                throw QueryRefusal(.parameters, "the parameter :\(name) has no value (--param \(name)=VALUE)")
            }
            return value
        }
    }

    /// A server's error as a refusal: its message and position; a write refused by the
    /// `READ ONLY` transaction (SQLSTATE 25006) as `.writes`. Connection errors stay as they are.
    static func refusal(_ error: PostgresError, position: Int?) -> Error {
        guard case .statementFailed(let sqlState, let message, _) = error else { return error }
        if sqlState == "25006" { return QueryRefusal(.writes, "it writes: \(message)", offset: position) }
        return QueryRefusal(.invalid, message, offset: position)
    }

    /// The tables `sql` reads (views read through), from its plan.
    static func readRelations(
        _ sql: String,
        _ values: [String?],
        on connection: PostgresConnection,
        timeout: Double
    ) throws -> [TableName] {
        let milliseconds = Int((timeout * 1000).rounded())
        try connection.execute("BEGIN READ ONLY; SET LOCAL statement_timeout = \(milliseconds)")
        defer { if connection.isConnected { _ = try? connection.execute("ROLLBACK") } }
        let plan = try connection.query("EXPLAIN (VERBOSE, FORMAT JSON) " + sql, values)
        guard let json = plan.text(row: 0, column: 0),
            let tree = try? JSONSerialization.jsonObject(with: Data(json.utf8))
        else { return [] }
        var found: [TableName] = []
        func visit(_ node: Any) {
            if let list = node as? [Any] { list.forEach(visit) }
            guard let object = node as? [String: Any] else { return }
            if let name = object["Relation Name"] as? String, let schema = object["Schema"] as? String {
                let table = TableName(schema: schema, name: name)
                if !found.contains(table) { found.append(table) }
            }
            for value in object.values { visit(value) }
        }
        visit(tree)
        return found
    }

    /// The one table the rows are rows of, by its primary key, or why not.
    static func mappedTable(
        _ relations: [TableName],
        sql: String,
        described: [QueryResult.Column],
        names: [String],
        on connection: PostgresConnection
    ) throws -> Result<QuerySourceTable, Unmapped> {
        guard let table = relations.first else { return .failure(Unmapped("the query reads no table")) }
        guard relations.count == 1 else {
            return .failure(
                Unmapped(QuerySourceTable.severalTablesRefusal(sql: sql, tables: relations.map(displayName)))
            )
        }
        let key = try connection.query(
            """
            SELECT c.oid::bigint, a.attnum::int, a.attname::text
            FROM pg_class c JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
            WHERE c.oid = to_regclass($1)
            """,
            [table.quoted]
        )
        guard key.rowCount > 0 else { return .failure(Unmapped("\(displayName(table)) has no primary key")) }
        var columns: [QuerySourceTable.KeyColumn] = []
        for row in 0..<key.rowCount {
            let oid = UInt32(key.int64(row: row, column: 0) ?? 0)
            let number = Int(key.int64(row: row, column: 1) ?? 0)
            guard let position = described.firstIndex(where: { $0.tableOID == oid && $0.tableColumn == number }) else {
                let all = (0..<key.rowCount).compactMap { key.text(row: $0, column: 2) }.joined(separator: ", ")
                let name = displayName(table)
                let owner = name.hasSuffix("s") ? "\(name)'" : "\(name)'s"
                return .failure(Unmapped("it does not return \(owner) key (\(all)): add it to the SELECT"))
            }
            columns.append(.init(result: names[position], table: key.text(row: row, column: 2) ?? ""))
        }
        return .success(QuerySourceTable(table: displayName(table), keyColumns: columns))
    }

    /// The table's column each of `described` is a plain reference to, by the result's position.
    static func tableColumns(
        _ table: TableName,
        described: [QueryResult.Column],
        on connection: PostgresConnection
    ) throws -> [Int: String] {
        let attributes = try connection.query(
            "SELECT attrelid::bigint, attnum::int, attname::text FROM pg_attribute"
                + " WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped",
            [table.quoted]
        )
        var plain: [Int: String] = [:]
        for row in 0..<attributes.rowCount {
            let oid = UInt32(attributes.int64(row: row, column: 0) ?? 0)
            let number = Int(attributes.int64(row: row, column: 1) ?? 0)
            for (position, column) in described.enumerated()
            where column.tableOID == oid && column.tableColumn == number {
                plain[position] = attributes.text(row: row, column: 2)
            }
        }
        return plain
    }

    /// Why a result's rows are no rows of one table.
    struct Unmapped: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `orders` for a table of `public`, else `schema.orders`.
    static func displayName(_ table: TableName) -> String {
        table.schema == "public" ? table.name : table.description
    }
}
