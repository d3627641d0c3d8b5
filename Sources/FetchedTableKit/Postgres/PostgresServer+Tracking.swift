import CLIKit
import PostgreSQLChangeFeed
import PostgreSQLClient

extension PostgresServer {
    /// The change feed of `table`: its primary key's columns name the rows changed.
    static func changeFeed(of table: TableDescription) -> ChangeFeed {
        ChangeFeed(table: table.name, keyColumns: table.primaryKey, configuration: TableFileNames.changeFeed)
    }

    /// `--track`: the `fetchedtable_history` table and `table`'s statement-level triggers (on
    /// each partition of a partitioned table too), installed unless they are there already —
    /// then a role that could not install them reads them (the history shows each role the
    /// rows of the tables it may read). A history an earlier fetchedtable installed is
    /// upgraded in place when this role owns it. Returns the one-line notices to show: an
    /// upgrade made, or one only the history's owner can make.
    ///
    /// - Throws: 64 for a view or a table without a primary key; 77 naming the privilege the role
    ///   lacks (CREATE on the schema, TRIGGER on the table), the role that owns the history
    ///   when it is another's, or the `GRANT` to ask for — before anything is changed.
    @discardableResult
    func installTracking(on table: TableDescription) throws(FetchedTableError) -> [String] {
        if table.kind == .view { return try installTracking(onTablesOf: table) }
        try checkTrackable(table)
        let feed = PostgresServer.changeFeed(of: table)
        let found = try run { try feed.installation(on: $0) }
        let role = try currentRole()
        let history = "\(feed.historyTable.schema).\(feed.historyTable.name)"
        if found.isInstalled && !found.isOutdated {
            guard found.canRead else { throw PostgresServer.cannotRead(feed, role: role, owner: found.owner) }
            return []
        }
        if let owner = found.owner, owner != role {
            guard found.isInstalled else {
                throw FetchedTableError(
                    "--track: \(history) belongs to the role \(owner), so the role \(role) may not add "
                        + "\(table.displayName) to it (its owner's functions would run when the table is written): "
                        + "\(owner) can run --track on \(table.displayName); without --track, changes are seen by polling",
                    status: ExitStatus.noPermission
                )
            }
            guard found.canRead else { throw PostgresServer.cannotRead(feed, role: role, owner: owner) }
            return [
                "--track: \(history) was installed by an earlier fetchedtable, whose capture function any role "
                    + "could call to run SQL as \(owner); \(owner) should run --track once to upgrade it"
            ]
        }
        if let missing = try missingTrackingPrivileges(on: table, historyExists: found.owner != nil) {
            throw FetchedTableError(
                "--track: the role \(missing.role) may not install the history triggers on \(table.displayName): "
                    + "it lacks \(missing.privileges.joined(separator: " and ")) (the table's owner can run --track "
                    + "once for everyone; without --track, changes are seen by polling)",
                status: ExitStatus.noPermission
            )
        }
        // The install's DROP TRIGGER IF EXISTS would print a NOTICE per trigger on stderr.
        let result = try run { connection in
            try connection.execute("SET client_min_messages = warning")
            do {
                return try feed.install(on: connection)
            } catch let refusal as ChangeFeedError {
                throw FetchedTableError("--track: \(refusal)", status: ExitStatus.noPermission)
            }
        }
        guard case .upgraded(let tables) = result else { return [] }
        let others = tables.isEmpty ? "" : "; the triggers of \(tables.count) more tracked tables were made again"
        return [
            "--track: upgraded \(history), installed by an earlier fetchedtable (its capture function ran as its "
                + "owner and any role could call it): it now runs as the writing role, and only its owner may "
                + "execute it\(others)"
        ]
    }

    /// `--track` on a view: on each table it reads that has a primary key (the others are followed
    /// by their change counters); a notification of any of them makes the view's copy read again.
    ///
    /// - Throws: 64 when it reads no such table; as for a table otherwise.
    private func installTracking(onTablesOf view: TableDescription) throws(FetchedTableError) -> [String] {
        let tables = try tables(readBy: view)
        let trackable = tables.filter { ($0.kind == .table || $0.kind == .partitionedTable) && !$0.primaryKey.isEmpty }
        guard !trackable.isEmpty else {
            throw .usage(
                "--track: the view \(view.displayName) reads no table with a primary key "
                    + "(\(tables.map(\.displayName).joined(separator: ", "))), so no change can be recorded; "
                    + "without --track it is followed by its tables' change counters"
            )
        }
        var notices: [String] = []
        for table in trackable { notices += try installTracking(on: table) }
        return notices
    }

    /// The tables `view` reads (``Catalog/sourceTables(of:on:)``), described.
    private func tables(readBy view: TableDescription) throws(FetchedTableError) -> [TableDescription] {
        try run { connection in
            try Catalog.sourceTables(of: view.name, on: connection).compactMap {
                try Catalog.table(named: $0.quoted, on: connection)
            }
        }
    }

    /// `--track` applies to a table (or a partitioned table) with a primary key.
    private func checkTrackable(_ table: TableDescription) throws(FetchedTableError) {
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
    }

    /// 77: the role cannot read the history another role installed, and what to do.
    private static func cannotRead(_ feed: ChangeFeed, role: String, owner: String?) -> FetchedTableError {
        let owner = owner ?? "its owner"
        return FetchedTableError(
            "--track: the role \(role) may not read \(feed.historyTable.schema).\(feed.historyTable.name): "
                + "\(owner) can run --track once to upgrade it (then every role reads the changes of the tables "
                + "it may read), or run GRANT SELECT ON \(feed.historyTable.quoted) TO \(SQLIdentifier.quote(role))",
            status: ExitStatus.noPermission
        )
    }

    /// The connected role's name.
    private func currentRole() throws(FetchedTableError) -> String {
        try run { try $0.query("SELECT current_user::text").text(row: 0, column: 0) ?? "?" }
    }

    /// The role's name and the privileges `--track` needs that it lacks (nil: none lacking):
    /// TRIGGER on the table, and CREATE on the schema unless the history is there already.
    func missingTrackingPrivileges(
        on table: TableDescription,
        historyExists: Bool = false
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
        if !historyExists && row[0, 1] != .boolean(true) { missing.append("CREATE on schema \(table.name.schema)") }
        if row[0, 2] != .boolean(true) { missing.append("TRIGGER on \(table.displayName)") }
        return missing.isEmpty ? nil : (row.text(row: 0, column: 0) ?? "?", missing)
    }

    /// `untrack`: removes `table`'s triggers and history rows, and the history table and its
    /// functions once no table uses them (also when some of them were dropped already). A table
    /// without them is left as it is. Sessions following the table are woken, copy it again and
    /// follow it by polling from then on: they do not install the history again.
    /// A view's: its tables' (``installTracking(on:)``). Returns the tables untracked.
    @discardableResult
    func removeTracking(on table: TableDescription) throws(FetchedTableError) -> [TableDescription] {
        guard table.kind == .view else {
            try removeTracking(onTable: table)
            return [table]
        }
        let tables = try tables(readBy: table).filter { $0.kind == .table || $0.kind == .partitionedTable }
        for base in tables { try removeTracking(onTable: base) }
        return tables
    }

    private func removeTracking(onTable table: TableDescription) throws(FetchedTableError) {
        let feed = PostgresServer.changeFeed(of: table)
        do {
            try connection.execute("SET client_min_messages = warning")
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
