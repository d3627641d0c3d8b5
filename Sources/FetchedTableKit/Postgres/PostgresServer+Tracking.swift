import CLIKit
import PostgreSQLChangeFeed
import PostgreSQLClient

extension PostgresServer {
    /// The change feed of `table`: its primary key's columns name the rows changed.
    static func changeFeed(of table: TableDescription) -> ChangeFeed {
        ChangeFeed(table: table.name, keyColumns: table.primaryKey, configuration: TableFileNames.changeFeed)
    }

    /// `--track`: the `fetchedtable_history` table and `table`'s statement-level triggers,
    /// installed unless they are there already (then a role that could not install them uses them).
    ///
    /// - Throws: 64 for a view or a table without a primary key; 77 naming the privilege the role
    ///   lacks (CREATE on the schema, TRIGGER on the table) before anything is changed.
    func installTracking(on table: TableDescription) throws(FetchedTableError) {
        guard table.kind == .table || table.kind == .partitionedTable else {
            throw .usage(
                "--track: \(table.displayName) is a \(PostgresServer.kindName(table.kind)); "
                    + "only a table's changes can be recorded"
            )
        }
        guard !table.primaryKey.isEmpty else {
            throw .usage(
                "--track: \(table.displayName) has no primary key, so a changed row cannot be named in the history"
            )
        }
        let feed = PostgresServer.changeFeed(of: table)
        if try run({ try feed.isInstalled(on: $0) }) { return }
        if let missing = try missingTrackingPrivileges(on: table) {
            throw FetchedTableError(
                "--track: the role \(missing.role) may not install the history triggers on \(table.displayName): "
                    + "it lacks \(missing.privileges.joined(separator: " and ")) (the table's owner can run --track "
                    + "once for everyone; without --track, changes are seen by polling)",
                status: ExitStatus.noPermission
            )
        }
        // The install's DROP TRIGGER IF EXISTS would print a NOTICE per trigger on stderr.
        try run { connection in
            try connection.execute("SET client_min_messages = warning")
            try feed.install(on: connection)
        }
    }

    /// The role's name and the privileges `--track` needs that it lacks (nil: none lacking).
    func missingTrackingPrivileges(
        on table: TableDescription
    ) throws(FetchedTableError) -> (
        role: String, privileges: [String]
    )? {
        let row = try run { connection in
            try connection.query(
                """
                SELECT current_user::text, has_schema_privilege($1, 'CREATE'),
                       has_table_privilege($2::regclass, 'TRIGGER')
                """,
                [table.name.schema, table.name.quoted]
            )
        }
        var missing: [String] = []
        if row[0, 1] != .boolean(true) { missing.append("CREATE on schema \(table.name.schema)") }
        if row[0, 2] != .boolean(true) { missing.append("TRIGGER on \(table.displayName)") }
        return missing.isEmpty ? nil : (row.text(row: 0, column: 0) ?? "?", missing)
    }

    /// `untrack`: removes `table`'s triggers and history rows, and the history table and its
    /// function once no table uses them. A table without them is left as it is.
    func removeTracking(on table: TableDescription) throws(FetchedTableError) {
        let feed = PostgresServer.changeFeed(of: table)
        do {
            try feed.uninstall(on: connection)
        } catch let error as PostgresError where error.sqlState == "42501" {
            throw FetchedTableError(
                "untrack: the role may not remove the history triggers on \(table.displayName) "
                    + "(\(target.redacted(error.description))); the table's owner can",
                status: ExitStatus.noPermission
            )
        } catch let error as PostgresError {
            throw PostgresServer.refusal(error, target: target)
        } catch {
            throw FetchedTableError("\(target.label): \(FetchedTableError.reason(error))", status: ExitStatus.ioError)
        }
    }
}
