import PostgreSQLClient

/// The change feed of one table: an outbox of changed primary keys that
/// statement-level triggers append to, a `NOTIFY` that wakes readers, and
/// reads that return exactly the changes committed since the last one.
///
/// ``install(on:)`` makes, in one transaction:
/// - the **history table** (shared by every tracked table of its schema;
///   `changefeed_history` by default, ``ChangeFeedConfiguration``) —
///   `sequence bigint` (identity, primary key), `table_name text` (the
///   tracked table's quoted name), `operation text` (`INSERT`, `UPDATE`,
///   `DELETE`, `TRUNCATE`), `key text[]` (the primary key's values),
///   `changed_at timestamptz`, `transaction_id xid8` (the writing
///   transaction), with a B-tree index on `transaction_id` and a BRIN index
///   on `changed_at`;
/// - the **registry** `<history>_tables` (`relid oid`, `label text`): the tables
///   (and partitions) whose changes are recorded, and the label they are
///   recorded under — written by its owner only;
/// - the **capture function** `<history>_capture()` (PL/pgSQL, `SECURITY
///   INVOKER`: it runs as the role writing the table, and no role may execute
///   it or make a trigger with it but its owner), and the **guard**
///   `<history>_tracks(oid)` the triggers' `WHEN` calls, through which
///   PostgreSQL records that the triggers depend on the history;
/// - four **statement-level triggers** on the table (and on each partition of
///   a partitioned one): `AFTER INSERT`, `UPDATE`, `DELETE` with transition
///   tables (`REFERENCING NEW TABLE AS … OLD TABLE AS …`) — a 100,000-row
///   UPDATE is one statement's work, one set-based INSERT into the history —
///   and `AFTER TRUNCATE`.
///
/// Who may do what: every role may add history rows (their `table_name`,
/// `operation` and `key`), but row-level security lets it add them only under the
/// label of a registered table it may write, or that its transaction wrote, and
/// read only the rows of tables it may read. So a writer needs no grant, a reader
/// needs none beyond `SELECT` on its table, and no role gains a right.
///
/// ``uninstall(on:)`` removes the triggers and the table's history, and the
/// history table, registry and functions once no table uses them: the schema
/// is as before.
///
/// Reading follows the commits, not the sequence: sequence numbers are
/// taken when a statement runs, and transactions commit in another order,
/// so "every sequence after the last one seen" would miss a transaction
/// that took a lower number and committed later. A position is a
/// transaction snapshot instead (PgQ's method): a read returns the history
/// rows of exactly the transactions that committed between the position's
/// snapshot and the read's own.
///
///     let feed = ChangeFeed(table: TableName(schema: "public", name: "events"), keyColumns: ["id"])
///     try feed.install(on: connection)
///     try connection.listen(feed.configuration.channel)
///     var position = try feed.currentPosition(on: connection)
///     // … fetch the table …
///     while true {
///         _ = try connection.waitForNotifications(timeout: 1)
///         let batch = try feed.read(after: position, on: connection)
///         if batch.needsRefetch { /* refetch */ } else { /* re-read batch.changes' keys */ }
///         position = batch.position
///     }
///
/// Take the first position before the initial fetch (or in the same
/// `REPEATABLE READ` transaction): a change read again is harmless, one
/// missed is not.
public struct ChangeFeed: Hashable, Sendable {
    /// The tracked table.
    public let table: TableName
    /// Its primary key's columns, in key order.
    public let keyColumns: [String]
    /// The names and retention.
    public let configuration: ChangeFeedConfiguration

    /// The feed of `table`, whose rows are identified by `keyColumns`.
    public init(table: TableName, keyColumns: [String], configuration: ChangeFeedConfiguration = .init()) {
        self.table = table
        self.keyColumns = keyColumns
        self.configuration = configuration
    }

    /// The history table's schema-qualified name.
    public var historyTable: TableName {
        TableName(schema: configuration.schema ?? table.schema, name: configuration.historyTable)
    }

    /// The tracked table's label in the history and in notifications: its quoted name.
    package var tableLabel: String { table.quoted }

    /// The SQL of a key column's text as the history records it: the type's output function
    /// (`format('%s', …)`), never a cast to `text`, which another role may have defined (and
    /// which for `boolean`, `inet` and `char(n)` differs from the output). A reader that
    /// matches history keys to rows reads its rows' keys with it.
    package static func keyText(of quotedColumn: String) -> String { "pg_catalog.format('%s', \(quotedColumn))" }

    // MARK: Installing

    /// Makes what is missing of the history table, its registry and functions, registers
    /// the table (and its partitions) and makes its triggers, in one transaction; sets
    /// the privileges (``ChangeFeed``). Needs the right to create tables in the schema
    /// (unless the history is there) and to create triggers on the table. A feed already
    /// in place is left as it is (``ChangeFeedInstallResult/alreadyInstalled``); one an
    /// earlier version installed is upgraded in place (``ChangeFeedInstallResult/upgraded(tables:)``).
    ///
    /// - Throws: ``ChangeFeedError/ownedByAnotherRole(object:owner:)`` when the history, the
    ///   registry or a function exists and belongs to another role (nothing is changed);
    ///   `PostgresError` when the server refuses.
    @discardableResult
    public func install(on connection: PostgresConnection) throws -> ChangeFeedInstallResult {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        return try connection.transaction {
            try lock(sql, on: connection)
            let objects = try connection.query(ChangeFeedSQL.objects, sql.objectParameters)
            let role = objects.text(row: 0, column: 4) ?? ""
            let names = [sql.historyName, sql.registryName, sql.captureName, sql.guardName]
            for (index, name) in names.enumerated() {
                if let owner = objects.text(row: 0, column: index), owner != role {
                    throw ChangeFeedError.ownedByAnotherRole(object: name, owner: owner)
                }
            }
            let hasHistory = objects.text(row: 0, column: 0) != nil
            let hasRegistry = objects.text(row: 0, column: 1) != nil
            let outdated = hasHistory && (!hasRegistry || objects.text(row: 0, column: 5) == "t")
            if !hasHistory { try connection.execute(sql.createHistory) }
            if !hasRegistry { try connection.execute(sql.createRegistry) }
            try connection.execute(sql.createGuardFunction)
            try connection.execute(sql.createCaptureFunction)
            try connection.execute(sql.privileges)
            // An earlier version's triggers on other tables: registered, and made again with the guard.
            var upgraded: [String] = []
            let others = try connection.query(ChangeFeedSQL.outdatedRelations, [sql.captureFunctionSignature])
            for row in 0..<others.rowCount {
                guard let oid = others.text(row: row, column: 0), let name = others.text(row: row, column: 1),
                    name != tableLabel
                else { continue }
                try connection.query(sql.register, [oid, name])
                try connection.execute(sql.dropTriggers(on: name) + ";\n" + sql.createTriggers(on: name))
                upgraded.append(name)
            }
            let state = try feedState(sql, on: connection)
            let relations = try connection.query(ChangeFeedSQL.relationNames, [table.quoted])
            for row in 0..<relations.rowCount {
                try connection.query(sql.register, [relations.text(row: row, column: 0), tableLabel])
            }
            let isInPlace = state.installation != nil && state.current
            if !isInPlace {
                for row in 0..<relations.rowCount {
                    let name = relations.text(row: row, column: 1) ?? table.quoted
                    try connection.execute(sql.dropTriggers(on: name) + ";\n" + sql.createTriggers(on: name))
                }
            }
            if outdated { return .upgraded(tables: upgraded.sorted()) }
            return isInPlace ? .alreadyInstalled : .installed
        }
    }

    /// Removes the table's triggers (and its partitions'), registration and history, and the
    /// history table, registry and functions when no other table's triggers use them — also
    /// when some of them are gone already. Readers that listen are woken: their next read
    /// finds the feed gone (``ChangeBatch/needsRefetch``, an empty installation).
    public func uninstall(on connection: PostgresConnection) throws {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        try connection.transaction {
            try lock(sql, on: connection)
            let relations = try connection.query(ChangeFeedSQL.relationNames, [table.quoted])
            for row in 0..<relations.rowCount {
                try connection.execute(sql.dropTriggers(on: relations.text(row: row, column: 1) ?? table.quoted))
            }
            let present = try connection.query(
                "SELECT to_regclass($1) IS NOT NULL, to_regclass($2) IS NOT NULL",
                [sql.history, sql.registry]
            )
            if present.text(row: 0, column: 1) == "t" {
                try connection.query(
                    "DELETE FROM \(sql.registry) WHERE relid IN (\(ChangeFeedSQL.relations)) OR label = $2",
                    [table.quoted, tableLabel]
                )
            }
            if present.text(row: 0, column: 0) == "t" {
                try connection.query("DELETE FROM \(historyTable.quoted) WHERE table_name = $1", [tableLabel])
            }
            let users = try connection.query(
                "SELECT count(*) FROM pg_trigger WHERE tgfoid = to_regprocedure($1)",
                [sql.captureFunctionSignature]
            )
            if users.int64(row: 0, column: 0) == 0 {
                try connection.execute(sql.dropAll)
            }
            try connection.query("SELECT pg_notify($1, $2)", [configuration.channel, tableLabel])
        }
    }

    /// Whether the table's triggers are all in place and enabled (on each partition too).
    public func isInstalled(on connection: PostgresConnection) throws -> Bool {
        try installation(on: connection).isInstalled
    }

    /// What the table's feed is on the server now: installed or not, by an earlier
    /// version or this one, whose history, and whether the role may read it.
    public func installation(on connection: PostgresConnection) throws -> ChangeFeedInstallation {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        let state = try feedState(sql, on: connection)
        let facts = try connection.query(
            """
            SELECT (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = to_regclass($1)),
                   coalesce(has_table_privilege(to_regclass($1), 'SELECT'), false),
                   to_regclass($2) IS NULL
                   OR coalesce((SELECT prosecdef FROM pg_proc WHERE oid = to_regprocedure($3)), false)
            """,
            [sql.history, sql.registry, sql.captureFunctionSignature]
        )
        let owner = facts.text(row: 0, column: 0)
        return ChangeFeedInstallation(
            installation: state.installation ?? "",
            isIncomplete: state.installation == nil && state.present,
            isOutdated: owner != nil
                && (facts.text(row: 0, column: 2) == "t" || (state.installation != nil && !state.current)),
            owner: owner,
            canRead: facts.text(row: 0, column: 1) == "t"
        )
    }

    /// The table's triggers: the installation they make (nil: not all in place and
    /// enabled), whether this version made them, and whether any of them is there.
    private func feedState(
        _ sql: ChangeFeedSQL,
        on connection: PostgresConnection
    ) throws -> (installation: String?, current: Bool, present: Bool) {
        let result = try connection.query(
            "WITH \(ChangeFeedSQL.feedState) SELECT installation, current, present FROM feed",
            sql.feedStateParameters
        )
        return (
            result.text(row: 0, column: 0), result.text(row: 0, column: 1) == "t", result.text(row: 0, column: 2) == "t"
        )
    }

    /// Serializes installs and uninstalls of one history (two sessions tracking at once).
    private func lock(_ sql: ChangeFeedSQL, on connection: PostgresConnection) throws {
        try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [sql.history])
    }

    // MARK: Reading

    /// The position of "now", under the feed's installation now: reading after it returns
    /// what commits later.
    public func currentPosition(on connection: PostgresConnection) throws -> ChangeFeedPosition {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        let row = try connection.query(
            "WITH \(ChangeFeedSQL.feedState) SELECT pg_current_snapshot()::text, now()::text, installation FROM feed",
            sql.feedStateParameters
        )
        return ChangeFeedPosition(
            snapshot: row.text(row: 0, column: 0) ?? "",
            readAt: row.text(row: 0, column: 1) ?? "",
            installation: row.text(row: 0, column: 2) ?? ""
        )
    }

    /// The position of "now" on `connection`, whether or not a feed is installed (without an
    /// installation): inside a snapshot transaction, the position of that snapshot (a copy
    /// read in it is current up to there).
    package static func position(on connection: PostgresConnection) throws -> ChangeFeedPosition {
        let row = try connection.query("SELECT pg_current_snapshot()::text, now()::text")
        return ChangeFeedPosition(
            snapshot: row.text(row: 0, column: 0) ?? "",
            readAt: row.text(row: 0, column: 1) ?? ""
        )
    }

    /// The changes of the transactions that committed after `position`, in
    /// sequence order, and the position to read after next. The read also checks the
    /// feed's installation, in the same snapshot: under another than `position`'s (the
    /// triggers removed, or made again) it says ``ChangeBatch/needsRefetch``.
    public func read(after position: ChangeFeedPosition, on connection: PostgresConnection) throws -> ChangeBatch {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        let result: QueryResult
        do {
            result = try connection.query(
                readSQL,
                sql.feedStateParameters + [
                    position.snapshot, tableLabel, position.readAt, "\(configuration.retention)",
                ]
            )
        } catch {
            // The history is gone (the last table untracked, or dropped): nothing is recorded.
            guard error.sqlState == "42P01", try !isHistoryPresent(on: connection) else { throw error }
            return ChangeBatch(changes: [], position: try Self.position(on: connection), needsRefetch: true)
        }
        var changes: [Change] = []
        changes.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            guard let sequence = result.int64(row: row, column: 4) else { continue }
            let key: [String]
            if case .array(let values) = result[row, 6] { key = values.map(\.displayText) } else { key = [] }
            changes.append(
                Change(
                    sequence: sequence,
                    operation: Change.Operation(rawValue: result.text(row: row, column: 5) ?? "") ?? .update,
                    key: key,
                    time: result.text(row: row, column: 7) ?? ""
                )
            )
        }
        let next = ChangeFeedPosition(
            snapshot: result.text(row: 0, column: 0) ?? "",
            readAt: result.text(row: 0, column: 1) ?? "",
            installation: result.text(row: 0, column: 3) ?? ""
        )
        let tooOld = result.text(row: 0, column: 2) == "t"
        let interrupted = next.installation.isEmpty || next.installation != position.installation
        return ChangeBatch(
            changes: changes,
            position: next,
            needsRefetch: tooOld || interrupted || changes.contains { $0.operation == .truncate }
        )
    }

    /// The read: the feed's state (``ChangeFeedSQL/feedState``, `$1`…`$4`), the snapshot and time
    /// of now, and the history rows committed after `$5` (a snapshot) for the label `$6`;
    /// whether `$7` (the last read's time) is older than `$8` seconds of retention.
    private var readSQL: String {
        """
        WITH \(ChangeFeedSQL.feedState),
        here AS (SELECT pg_current_snapshot() AS snapshot, now() AS read_at)
        SELECT here.snapshot::text, here.read_at::text,
               here.read_at - $7::timestamptz > make_interval(secs => $8::float8),
               feed.installation,
               h.sequence, h.operation, h.key, h.changed_at
        FROM here CROSS JOIN feed
        LEFT JOIN \(historyTable.quoted) h
          ON h.table_name = $6
         AND h.transaction_id >= pg_snapshot_xmin($5::pg_snapshot)
         AND pg_visible_in_snapshot(h.transaction_id, here.snapshot)
         AND NOT pg_visible_in_snapshot(h.transaction_id, $5::pg_snapshot)
        ORDER BY h.sequence
        """
    }

    /// Deletes history older than the retention (of every table in this
    /// history table) and returns how many rows went. Cheap to call often:
    /// the BRIN index on `changed_at` finds the old end. Only the history's owner
    /// may delete from it: another role's call is refused (`PostgresError`, 42501).
    @discardableResult
    public func prune(on connection: PostgresConnection) throws -> Int {
        guard try isHistoryPresent(on: connection) else { return 0 }
        let result = try connection.query(
            "DELETE FROM \(historyTable.quoted) WHERE changed_at < now() - make_interval(secs => $1::float8)",
            ["\(configuration.retention)"]
        )
        return result.affectedRowCount ?? 0
    }

    private func isHistoryPresent(on connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL", [historyTable.quoted]).rows[0] == [.boolean(true)]
    }
}
