import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// What a replica file records of itself, in its table `pgreplica_state`
/// (`name TEXT PRIMARY KEY, value TEXT`), so that a later session can take the file
/// over instead of copying the table again (``ReplicaAdoption``):
///
/// - `identity`: what the rows are a copy of — the server table's oid, its kind,
///   columns (name and type) and key, the time zone `timestamptz` values were copied
///   in, and the file's tracking names; a file whose identity is not the table's
///   today cannot be trusted and is copied again;
/// - `snapshot`, `read_at`: the server position the rows stand at (the copy's
///   snapshot, then each applied batch's);
/// - `history`: the change history's installation that position was taken under
///   (``ChangeFeedPosition/installation``: the history's oid and its triggers'), empty
///   when there was none (then only a refetch catches up). A history dropped and made
///   again (`untrack`, then `--track`), or its triggers made again, is another
///   installation: what was committed in between is in neither.
///
/// The position is written in the SQLite transaction that applies the rows it
/// stands for, so the file never says more than it holds.
struct ReplicaState: Equatable {
    static let table = "pgreplica_state"

    var identity: String
    /// Where the rows stand, with the installation it was read under (`history`).
    var position: ChangeFeedPosition

    /// Creates the state table in a new replica file.
    static func createTable(in database: Database) throws {
        try database.execute("CREATE TABLE \(table) (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    }

    /// Writes every field (inside the caller's transaction).
    func write(to database: Database) throws {
        try ReplicaState.write(["identity": identity], to: database)
        try ReplicaState.write(position, to: database)
    }

    /// Writes the identity alone (inside the caller's transaction): ``ReplicaDurability``,
    /// once the copy is on disk.
    static func write(identity: String, to database: Database) throws {
        try write(["identity": identity], to: database)
    }

    /// Writes where the rows stand and the installation it was read under (inside the
    /// transaction that applied them).
    static func write(_ position: ChangeFeedPosition, to database: Database) throws {
        try write(
            ["snapshot": position.snapshot, "read_at": position.readAt, "history": position.installation],
            to: database
        )
    }

    /// The state of the file, nil when it has none (or not all of it).
    static func read(from database: Database) throws -> ReplicaState? {
        let exists = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            [.text(table)]
        )
        guard exists.int64 == 1 else { return nil }
        var values: [String: String] = [:]
        try database.forEachRow("SELECT name, value FROM \(table)") { row in
            values[row.text(at: 0)] = row.text(at: 1)
        }
        guard let identity = values["identity"], let snapshot = values["snapshot"], let readAt = values["read_at"],
            let history = values["history"]
        else { return nil }
        return ReplicaState(
            identity: identity,
            position: ChangeFeedPosition(snapshot: snapshot, readAt: readAt, installation: history)
        )
    }

    private static func write(_ values: [String: String], to database: Database) throws {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            try database.run(
                "INSERT INTO \(table)(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                [.text(name), .text(value)]
            )
        }
    }

    // MARK: The server's side

    /// The position of `shape`'s table now (inside a snapshot transaction: of that snapshot),
    /// under its change history's installation when it has one.
    static func position(of shape: ReplicaShape, on connection: PostgresConnection) throws -> ChangeFeedPosition {
        if let feed = shape.feed { return try feed.currentPosition(on: connection) }
        return try ChangeFeed.position(on: connection)
    }

    /// The identity of `shape`'s table on the server today, copied in `timeZone` under `tracking`.
    static func identity(
        of shape: ReplicaShape,
        timeZone: String?,
        tracking: TrackingNames,
        on connection: PostgresConnection
    ) throws -> String {
        let oid = try connection.query("SELECT $1::regclass::oid::text", [shape.source.quoted]).text(row: 0, column: 0)
        let columns = shape.columns.map { "\($0.name) \($0.postgresType)" }.joined(separator: ", ")
        // How values and their order are kept: a file made before NaN was text and order columns existed is copied again.
        let orders = shape.ordered.map {
            "\(shape.columns[$0].orderColumn ?? "") \(shape.columns[$0].order.map(String.init(describing:)) ?? "")"
        }
        .joined(separator: ", ")
        return [
            "oid \(oid ?? "")", "kind \(shape.description.kind)", "columns \(columns)", "storage 2 order \(orders)",
            "key \(shape.keyColumns.joined(separator: ", "))", "time zone \(timeZone ?? "")",
            "tracking \(tracking.historyTable) \(tracking.triggerPrefix)",
        ].joined(separator: "; ")
    }
}
