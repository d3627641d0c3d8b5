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
/// - the **capture function** `<history>_capture()` (PL/pgSQL, `SECURITY
///   DEFINER`, so writers need no right on the history table);
/// - four **statement-level triggers** on the table: `AFTER INSERT`,
///   `UPDATE`, `DELETE` with transition tables (`REFERENCING NEW TABLE AS …
///   OLD TABLE AS …`) — a 100,000-row UPDATE is one statement's work, one
///   set-based INSERT into the history — and `AFTER TRUNCATE`.
///
/// ``uninstall(on:)`` removes the triggers and the table's history, and the
/// history table and function once no table uses them: the schema is as
/// before.
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
    public var tableLabel: String { table.quoted }

    // MARK: Installing

    /// Creates the history table (unless another tracked table made it), the
    /// capture function and the table's triggers, in one transaction.
    /// Needs the right to create tables in the schema and to create triggers
    /// on the table (its owner). Running it again replaces the triggers.
    public func install(on connection: PostgresConnection) throws {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        try connection.transaction {
            try connection.execute(sql.createHistory)
            try connection.execute(sql.createCaptureFunction)
            try connection.execute(sql.dropTriggers)
            try connection.execute(sql.createTriggers)
        }
    }

    /// Removes the table's triggers and history, and the history table and
    /// capture function when no other table's triggers use them.
    public func uninstall(on connection: PostgresConnection) throws {
        let sql = ChangeFeedSQL(feed: self, connection: connection)
        try connection.transaction {
            try connection.execute(sql.dropTriggers)
            guard try isHistoryPresent(on: connection) else { return }
            try connection.query("DELETE FROM \(historyTable.quoted) WHERE table_name = $1", [tableLabel])
            let users = try connection.query(
                "SELECT count(*) FROM pg_trigger WHERE tgfoid = to_regprocedure($1)",
                [sql.captureFunctionSignature]
            )
            if users.int64(row: 0, column: 0) == 0 {
                try connection.execute(sql.dropHistory)
            }
        }
    }

    /// Whether the table's triggers are in place.
    public func isInstalled(on connection: PostgresConnection) throws -> Bool {
        let result = try connection.query(
            "SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgname = ANY ($2::text[])",
            [
                table.quoted,
                "{"
                    + ChangeFeedSQL.triggerSuffixes.map { "\"\(configuration.historyTable)_\($0)\"" }
                    .joined(separator: ",") + "}",
            ]
        )
        return result.int64(row: 0, column: 0) == Int64(ChangeFeedSQL.triggerSuffixes.count)
    }

    // MARK: Reading

    /// The position of "now": reading after it returns what commits later.
    public func currentPosition(on connection: PostgresConnection) throws -> ChangeFeedPosition {
        try Self.position(on: connection)
    }

    /// The position of "now" on `connection`, whether or not a feed is installed: inside a
    /// snapshot transaction, the position of that snapshot (a copy read in it is current up to there).
    package static func position(on connection: PostgresConnection) throws -> ChangeFeedPosition {
        let row = try connection.query("SELECT pg_current_snapshot()::text, now()::text")
        return ChangeFeedPosition(
            snapshot: row.text(row: 0, column: 0) ?? "",
            readAt: row.text(row: 0, column: 1) ?? ""
        )
    }

    /// The changes of the transactions that committed after `position`, in
    /// sequence order, and the position to read after next.
    public func read(after position: ChangeFeedPosition, on connection: PostgresConnection) throws -> ChangeBatch {
        let result = try connection.query(
            """
            WITH here AS (SELECT pg_current_snapshot() AS snapshot, now() AS read_at)
            SELECT here.snapshot::text, here.read_at::text,
                   here.read_at - $3::timestamptz > make_interval(secs => $4::float8),
                   h.sequence, h.operation, h.key, h.changed_at
            FROM here
            LEFT JOIN \(historyTable.quoted) h
              ON h.table_name = $2
             AND h.transaction_id >= pg_snapshot_xmin($1::pg_snapshot)
             AND pg_visible_in_snapshot(h.transaction_id, here.snapshot)
             AND NOT pg_visible_in_snapshot(h.transaction_id, $1::pg_snapshot)
            ORDER BY h.sequence
            """,
            [position.snapshot, tableLabel, position.readAt, "\(configuration.retention)"]
        )
        var changes: [Change] = []
        changes.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            guard let sequence = result.int64(row: row, column: 3) else { continue }
            let key: [String]
            if case .array(let values) = result[row, 5] { key = values.map(\.displayText) } else { key = [] }
            changes.append(
                Change(
                    sequence: sequence,
                    operation: Change.Operation(rawValue: result.text(row: row, column: 4) ?? "") ?? .update,
                    key: key,
                    time: result.text(row: row, column: 6) ?? ""
                )
            )
        }
        let next = ChangeFeedPosition(
            snapshot: result.text(row: 0, column: 0) ?? "",
            readAt: result.text(row: 0, column: 1) ?? ""
        )
        let tooOld = result.text(row: 0, column: 2) == "t"
        return ChangeBatch(
            changes: changes,
            position: next,
            needsRefetch: tooOld || changes.contains { $0.operation == .truncate }
        )
    }

    /// Deletes history older than the retention (of every table in this
    /// history table) and returns how many rows went. Cheap to call often:
    /// the BRIN index on `changed_at` finds the old end.
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
