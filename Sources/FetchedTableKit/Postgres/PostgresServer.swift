import CLIKit
import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore

/// A PostgreSQL server `fetchedtable` is connected to, for what needs no copy of a
/// table: its table list with row counts, a table named by `--table`, the options
/// checked against that table's columns, and `--track`/`untrack`'s history triggers.
///
/// Every failure is a ``FetchedTableError`` with the `sysexits.h` status a script
/// tells apart: 69 the server cannot be reached (libpq's message), 77 it refused the
/// credentials or a privilege, 64 an unknown table or column (naming those there are).
/// No message carries a password.
///
///     let server = try PostgresServer.connect(options.postgres!)
///     let table = try server.soleTable(options.table, command: "fetchedtable list")
struct PostgresServer {
    /// What the command line named.
    let target: PostgresTarget
    /// The connection (used from the thread that made it).
    let connection: PostgresConnection

    /// The `application_name` every connection gives (`pg_stat_activity` shows it).
    static let applicationName = "fetchedtable"

    /// Seconds to wait for a connection when neither the URL (`connect_timeout`) nor
    /// `PGCONNECT_TIMEOUT` says.
    static let defaultConnectTimeout = 10.0

    /// Connects to `target`'s server; a URL with a password is warned about first (one line on stderr).
    ///
    /// - Throws: ``FetchedTableError`` 69 (cannot connect) or 77 (authentication refused), with libpq's message.
    static func connect(
        _ target: PostgresTarget,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: (String) -> Void = { writeStandardError("\(ProgramName.current): \($0)\n") }
    ) throws(FetchedTableError) -> PostgresServer {
        if let warning = target.passwordWarning { warn(warning) }
        let saysTimeout =
            (target.connectionString ?? "").contains("connect_timeout") || environment["PGCONNECT_TIMEOUT"] != nil
        do {
            let connection = try PostgresConnection(
                target.connectionString,
                applicationName: applicationName,
                timeout: saysTimeout ? nil : defaultConnectTimeout
            )
            connection.noticeHandler = PostgresNoticeLog.shared.record
            return PostgresServer(target: target, connection: connection)
        } catch {
            throw refusal(error, target: target)
        }
    }

    /// A PostgreSQL error as the user reads it, on one line, with its status.
    static func refusal(_ error: PostgresError, target: PostgresTarget) -> FetchedTableError {
        var refusal = statusAndSentence(error, target: target)
        refusal.message = oneLine(refusal.message)
        return refusal
    }

    /// libpq's lines ("… failed: No such file or directory", "\tIs the server running…?") joined with "; ".
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    private static func statusAndSentence(_ error: PostgresError, target: PostgresTarget) -> FetchedTableError {
        let place = target.label
        switch error {
        case .cannotConnect(let message):
            return FetchedTableError(
                "cannot connect to \(place): \(target.redacted(message))",
                status: ExitStatus.unavailable
            )
        case .authenticationRefused(let message):
            return FetchedTableError(
                "\(place) refused the credentials: \(target.redacted(message))",
                status: ExitStatus.noPermission
            )
        case .connectionLost(let message):
            return FetchedTableError(
                "lost the connection to \(place): \(target.redacted(message))",
                status: ExitStatus.unavailable
            )
        case .timedOut(let seconds, _):
            return FetchedTableError(
                "\(place) did not answer within \(seconds) s",
                status: ExitStatus.unavailable
            )
        case .statementFailed(let sqlState, let message, _):
            let status = sqlState == "42501" ? ExitStatus.noPermission : ExitStatus.ioError
            return FetchedTableError("\(place): \(target.redacted(message))", status: status)
        }
    }

    /// Runs `body` with the connection, a PostgreSQL error made the user's sentence.
    func run<T>(_ body: (PostgresConnection) throws -> T) throws(FetchedTableError) -> T {
        do {
            return try body(connection)
        } catch let error as PostgresError {
            throw PostgresServer.refusal(error, target: target)
        } catch let error as FetchedTableError {
            throw error
        } catch {
            throw FetchedTableError("\(target.label): \(FetchedTableError.reason(error))", status: ExitStatus.ioError)
        }
    }

    // MARK: Tables

    /// The tables and views of the search path, in its order (``Catalog/tables(on:)``).
    func tables() throws(FetchedTableError) -> [TableDescription] {
        try run { try Catalog.tables(on: $0) }
    }

    /// The table or view `name` (as listed, `schema.name`, or SQL's spelling), or a usage
    /// error naming the ones there are.
    func table(named name: String) throws(FetchedTableError) -> TableDescription {
        if let table = try run({ try Catalog.table(named: name, on: $0) }) { return table }
        let tables = try tables()
        throw .usage("--table: no table \"\(name)\" in \(target.label); \(PostgresServer.tableListPhrase(tables))")
    }

    /// The table to open without a table list: `--table`, or the only one (as ``TableDatabase/soleTable(_:command:)``).
    ///
    /// - Throws: 64 for an unknown `--table`, or several tables and no `--table` when `command`
    ///   (who asks) cannot show the table list; 65 for a database with none.
    func soleTable(_ name: String?, command: String) throws(FetchedTableError) -> TableDescription? {
        if let name { return try table(named: name) }
        let tables = try tables()
        if tables.isEmpty { throw .data("\(target.label): there are no tables in the search path") }
        if tables.count == 1 { return tables[0] }
        if command.isEmpty { return nil }
        throw .usage(
            "\(target.label) has \(tables.count) tables; choose one with --table "
                + "(\(PostgresServer.tableListPhrase(tables)))"
        )
    }

    /// "its tables: events, orders, recent (view)" or "it has no tables", as the SQLite face says it.
    static func tableListPhrase(_ tables: [TableDescription]) -> String {
        tables.isEmpty
            ? "it has no tables"
            : "its tables: "
                + tables.map { table in
                    let kind = kindName(table.kind)
                    return kind == "table" ? table.displayName : "\(table.displayName) (\(kind))"
                }.joined(separator: ", ")
    }

    /// "table", "view", "materialized view", "partitioned table", "foreign table".
    static func kindName(_ kind: TableDescription.Kind) -> String {
        switch kind {
        case .table: "table"
        case .partitionedTable: "partitioned table"
        case .view: "view"
        case .materializedView: "materialized view"
        case .foreignTable: "foreign table"
        }
    }

    /// The table list's line detail: "12 rows", "~1.2M rows", "view · ~40 rows".
    static func detail(of table: TableDescription) -> String {
        let kind = kindName(table.kind)
        let count = rowCountText(table.rowCount)
        return kind == "table" ? count : "\(kind) · \(count)"
    }

    /// "1 row", "12 rows" counted; "~1.2M rows", "~340k rows" estimated by the planner; "locked by
    /// another session" when a count would wait for that session's lock.
    static func rowCountText(_ count: RowCount) -> String {
        switch count {
        case .exact(let value): TableBrowser.rowCountText(value)
        case .estimated(let value): "~\(abbreviated(value)) row\(value == 1 ? "" : "s")"
        case .locked: "locked by another session"
        }
    }

    /// 999, 1.2k, 34k, 1.2M, 12M, 1.5G: at most two significant digits below ten, whole above.
    static func abbreviated(_ value: Int) -> String {
        let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        for (size, unit) in units where Double(value) >= size * 0.9995 {
            let scaled = Double(value) / size
            if scaled < 9.95 {
                let tenths = (scaled * 10).rounded() / 10
                let text = tenths == tenths.rounded() ? String(Int(tenths)) : String(format: "%.1f", tenths)
                return text + unit
            }
            return String(Int(scaled.rounded())) + unit
        }
        return String(max(0, value))
    }

    // MARK: Columns

    /// The columns of `table` as the browser types them (numbers, dates, times, booleans, bytes; the rest text).
    static func columns(of table: TableDescription) -> [TableColumn] {
        table.columns.map { TableColumn(name: $0.name, type: attributeType(of: $0.baseTypeOID)) }
    }

    /// The attribute type a PostgreSQL type is shown and sorted as. `numeric` is text: exact, as the server writes it.
    static func attributeType(of typeOID: UInt32) -> AttributeType {
        switch typeOID {
        case TypeOID.int8, TypeOID.int2, TypeOID.int4, TypeOID.oid: .integer
        case TypeOID.float4, TypeOID.float8: .real
        case TypeOID.bool: .bool
        case TypeOID.date: .date
        case TypeOID.timestamp, TypeOID.timestamptz: .dateTime
        case TypeOID.bytea: .blob
        default: .text
        }
    }

    /// `options` checked against `table`'s columns (64 naming the option and the columns there are).
    static func query(for table: TableDescription, options: TableOptions) throws(FetchedTableError) -> TableQuery {
        let columns = columns(of: table)
        let idKey = table.primaryKey.count == 1 ? table.primaryKey[0] : "id"
        return try TableQuery(options: options, table: table.displayName, columns: columns, idKey: idKey)
    }

    /// Why rows of `table` cannot be changed in this session (nil: they can): a view, no
    /// primary key, `--read-only`.
    func readOnlyReason(of table: TableDescription, options: TableOptions) -> String? {
        if options.readOnly { return "opened with --read-only" }
        if table.kind != .table && table.kind != .partitionedTable {
            return "\(table.displayName) is a \(PostgresServer.kindName(table.kind)), not a table"
        }
        if table.primaryKey.isEmpty {
            return "\(table.displayName) has no primary key, so a row cannot be named to change it"
        }
        return nil
    }

    /// Why the role may not delete, edit, add rows of `table` (each nil when it may), from
    /// `has_table_privilege`; a delete also when its undo could not be done
    /// (``PostgresReplica/undoRefusal(of:on:)``).
    func writeRefusals(of table: TableDescription) throws(FetchedTableError) -> PostgresWriteRefusals {
        let privileges = try run { try Catalog.privileges(of: table.name, on: $0) }
        let name = table.displayName
        return PostgresWriteRefusals(
            delete: privileges.delete
                ? try run { try PostgresReplica.undoRefusal(of: table, on: $0) }
                : "the role may not delete from \(name) (no DELETE privilege)",
            update: privileges.update ? nil : "the role may not update \(name) (no UPDATE privilege)",
            insert: privileges.insert ? nil : "the role may not insert into \(name) (no INSERT privilege)"
        )
    }

    /// The `DEFAULT` of each column of `table` that has one, as the server writes it
    /// (`nextval('items_id_seq'::regclass)`, `now()`); generated columns' expressions left out.
    func columnDefaults(of table: TableDescription) throws(FetchedTableError) -> [String: String] {
        let result = try run { connection in
            try connection.query(
                """
                SELECT a.attname, pg_get_expr(d.adbin, d.adrelid)
                FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
                WHERE d.adrelid = $1::regclass AND a.attgenerated = ''
                """,
                [table.name.quoted]
            )
        }
        var defaults: [String: String] = [:]
        for row in 0..<result.rowCount {
            if let name = result.text(row: row, column: 0), let expression = result.text(row: row, column: 1) {
                defaults[name] = expression
            }
        }
        return defaults
    }
}
