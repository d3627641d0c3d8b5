import BaseDirectories
import Foundation
import SQLiteStore

/// The replica file's side of a replica, through SQLiteStore: its schema,
/// the bulk append of the copy, and the changes a follower or a write
/// applies — each row compared with what the file holds, so that only rows
/// that differ are written (and recorded by the file's tracking triggers).
///
/// A table whose server key is one integer column keeps it as its
/// `INTEGER PRIMARY KEY`; any other table numbers its rows by `rowid` and
/// keeps each row's key in the key table `pgreplica_keys`
/// (`row_id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE`). A table
/// without a key is keyed by each row's content and occurrence.
final class ReplicaStore {
    static let keyTable = "pgreplica_keys"
    /// History entries of the file's tracking table kept; a browser further behind reads a reset.
    static let historyLimit = 50_000

    let database: Database
    let shape: ReplicaShape
    /// The file's tracking table and triggers (``PostgresReplica/localTracking``).
    let tracking: TrackingNames
    private let table: String
    private let rowID: String
    private let columnList: String
    private let selectSQL: String
    private let selectManySQL: String
    private let updateSQL: String
    private let insertSQL: String
    private let insertWithRowIDSQL: String

    /// Opens the replica at `path`, whose tracking triggers have the names `tracking`;
    /// `building` opens a new file for the copy (no journal: a failed copy is thrown away).
    init(path: String, shape: ReplicaShape, tracking: TrackingNames, building: Bool = false) throws {
        // This user's alone (``ReplicaLocation``): made so before SQLite opens it, or tightened.
        if building { try PrivateFiles.createFile(path) } else { try PrivateFiles.tighten(database: path) }
        var options = Database.Options()
        options.walMode = !building
        database = try Database(path: path, options: options)
        if building {
            try database.execute("PRAGMA journal_mode = OFF")
            try database.execute("PRAGMA synchronous = OFF")
        }
        self.shape = shape
        self.tracking = tracking
        table = Database.quote(identifier: shape.tableName)
        let names = Set(shape.storedColumnNames)
        rowID = shape.integerKey ?? (["rowid", "_rowid_", "oid"].first { !names.contains($0) } ?? "rowid")
        columnList = shape.storedColumnNames.map { Database.quote(identifier: $0) }.joined(separator: ", ")
        let quotedRowID = Database.quote(identifier: rowID)
        let assignments = shape.storedColumnNames.map { Database.quote(identifier: $0) + " = ?" }.joined(
            separator: ", "
        )
        let marks = Array(repeating: "?", count: shape.storedWidth).joined(separator: ", ")
        selectSQL = "SELECT \(columnList) FROM \(table) WHERE \(quotedRowID) = ?"
        selectManySQL =
            "SELECT \(quotedRowID), \(columnList) FROM \(table) WHERE \(quotedRowID) IN (SELECT value FROM json_each(?))"
        updateSQL = "UPDATE \(table) SET \(assignments) WHERE \(quotedRowID) = ?"
        insertSQL = "INSERT INTO \(table)(\(columnList)) VALUES (\(marks))"
        insertWithRowIDSQL = "INSERT INTO \(table)(\(quotedRowID), \(columnList)) VALUES (?, \(marks))"
    }

    var usesKeyTable: Bool { shape.integerKey == nil }

    // MARK: Schema

    /// Creates the table (and the key table when rows are not named by their key), and the
    /// file's ``ReplicaState`` table.
    func createSchema() throws {
        try ReplicaState.createTable(in: database)
        let definitions = zip(shape.storedColumnNames, shape.storedColumnTypes).map { name, type -> String in
            var definition = Database.quote(identifier: name) + " " + type
            if name == shape.integerKey { definition += " PRIMARY KEY" }
            return definition
        }
        try database.execute("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
        if usesKeyTable {
            try database.execute(
                "CREATE TABLE \(ReplicaStore.keyTable) (row_id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)"
            )
        }
    }

    /// Installs SQLiteStore's tracking triggers on the table, so a browser
    /// following the file reads each applied batch as the rows it changed — without
    /// syncing the file (the copy syncs it once, in the background: ``ReplicaDurability``).
    static func installTracking(path: String, tableName: String, tracking: TrackingNames) throws {
        let catalog = try DatabaseCatalog(path: path, tracking: tracking)
        guard let table = catalog.table(named: tableName) else { return }
        let model = Model(version: 1, applicationID: 0, entities: [table.entity(named: tableName)])
        let store = try Store(foreignDatabaseAt: path, model: model, readOnly: false, tracking: tracking)
        try store.database.execute("PRAGMA synchronous = OFF")
        try store.installTracking(forTables: [tableName])
    }

    /// Switches the new file at `path` to WAL, so that a browser reads while the follower
    /// writes — without syncing it (as ``installTracking(path:tableName:tracking:)``).
    static func enterWAL(path: String) throws {
        var options = Database.Options()
        options.walMode = false
        let database = try Database(path: path, options: options)
        try database.execute("PRAGMA synchronous = OFF")
        _ = try database.scalar("PRAGMA journal_mode = WAL")
    }

    // MARK: Copy

    /// Appends `rows` to the new table (inside the caller's transaction).
    final class Appender {
        private let store: ReplicaStore
        private let many: Statement
        private let one: Statement
        private let keyInsert: Statement?
        /// Rows per multi-row `INSERT`.
        let perStatement: Int
        private var occurrences: [String: Int] = [:]
        private(set) var count = 0

        init(store: ReplicaStore) throws {
            self.store = store
            let width = store.shape.storedWidth
            perStatement = max(1, min(64, 999 / max(width, 1)))
            let row = "(" + Array(repeating: "?", count: width).joined(separator: ",") + ")"
            let insert = "INSERT INTO \(store.table)(\(store.columnList)) VALUES "
            many = try store.database.uncachedStatement(
                insert + Array(repeating: row, count: perStatement).joined(separator: ",")
            )
            one = try store.database.uncachedStatement(insert + row)
            keyInsert =
                store.usesKeyTable
                ? try store.database.uncachedStatement(
                    "INSERT INTO \(ReplicaStore.keyTable)(row_id, key) VALUES (?, ?)"
                )
                : nil
        }

        /// Writes the rows of `batch` (data rows of `COPY (SELECT selectList …) TO STDOUT`),
        /// ``perStatement`` to an `INSERT`.
        func write(_ batch: CopyBatch) throws {
            let rows = batch.rows
            guard rows > 0, let decoder = batch.decoder else { return }
            guard !store.usesKeyTable else {
                // Rows named through the key table: the general path, which also writes their keys.
                try append((0..<rows).map(decoder.serverRow))
                return
            }
            var row = 0
            while row < rows {
                let isMany = rows - row >= perStatement
                let range = row..<row + (isMany ? perStatement : 1)
                try decoder.insert(rows: range, with: isMany ? many : one)
                row = range.upperBound
            }
            count += rows
        }

        func append(_ rows: [ServerRow]) throws {
            var start = 0
            while start < rows.count {
                let useMany = rows.count - start >= perStatement
                let end = useMany ? start + perStatement : start + 1
                let statement = useMany ? many : one
                var parameter: Int32 = 1
                for row in rows[start..<end] {
                    for value in row.values {
                        try statement.bind(value, at: parameter)
                        parameter += 1
                    }
                }
                _ = try statement.step()
                statement.reset()
                if let keyInsert {
                    let last = store.database.lastInsertRowID
                    for (offset, row) in rows[start..<end].enumerated() {
                        try keyInsert.bind(.integer(last - Int64(end - start - 1 - offset)), at: 1)
                        try keyInsert.bind(.text(store.keyString(row, occurrences: &occurrences)), at: 2)
                        _ = try keyInsert.step()
                        keyInsert.reset()
                    }
                }
                count += end - start
                start = end
            }
        }
    }

    // MARK: Changes

    /// Counts of what ``apply(_:deleting:preferredRowIDs:)`` changed.
    struct Counts {
        var inserted = 0
        var updated = 0
        var deleted = 0
    }

    /// Writes `rows` where they differ from the file (inserting those it
    /// lacks), and deletes the rows named by `deleting` (keys as
    /// ``keyString(_:occurrences:)`` makes them). Call inside a transaction.
    /// Returns the row ids written, for a refetch's diff.
    @discardableResult
    func apply(
        _ rows: [ServerRow],
        deleting: [String] = [],
        counts: inout Counts,
        occurrences: inout [String: Int],
        preferredRowIDs: [String: Int64] = [:]
    ) throws -> [Int64] {
        var written: [Int64] = []
        written.reserveCapacity(rows.count)
        let heldRows = try currentRows(ofIntegerKeys: rows)
        for row in rows {
            let key = keyString(row, occurrences: &occurrences)
            var existing: Int64?
            var held: [StoreValue] = []
            if shape.integerKey != nil, let id = Int64(key) {
                held = heldRows[id] ?? []
                existing = held.isEmpty ? nil : id
            } else if let id = try self.rowID(forKey: key) {
                existing = id
                held = try current(id)
            }
            if let existing {
                written.append(existing)
                if held != row.values {
                    try update(existing, row.values)
                    counts.updated += 1
                }
            } else {
                written.append(try insert(row.values, key: key, rowID: preferredRowIDs[key]))
                counts.inserted += 1
            }
        }
        for key in deleting {
            if let existing = try self.rowID(forKey: key) {
                try delete(existing)
                counts.deleted += 1
            }
        }
        return written
    }

    /// Deletes every row whose id is not in `kept` (the end of a refetch's diff).
    func deleteRows(notIn kept: Set<Int64>, counts: inout Counts) throws {
        var gone: [Int64] = []
        try database.forEachRow("SELECT \(quotedRowID) FROM \(table)") { row in
            let id = row.int64(at: 0)
            if !kept.contains(id) { gone.append(id) }
        }
        for id in gone { try delete(id) }
        counts.deleted += gone.count
    }

    /// Keeps the newest ``historyLimit`` entries of the file's tracking table.
    func pruneHistory() throws {
        let history = Database.quote(identifier: tracking.historyTable)
        try database.run(
            "DELETE FROM \(history) WHERE seq <= (SELECT max(seq) FROM \(history)) - ?",
            [.integer(Int64(ReplicaStore.historyLimit))]
        )
    }

    /// The key of the row with id `id`: its key's texts (nil when there is no such row).
    func key(ofRowID id: Int64) throws -> [String]? {
        if shape.integerKey != nil {
            let found = try database.scalar("SELECT count(*) FROM \(table) WHERE \(quotedRowID) = ?", [.integer(id)])
            return found.int64 == 1 ? [String(id)] : nil
        }
        let key = try database.scalar("SELECT key FROM \(ReplicaStore.keyTable) WHERE row_id = ?", [.integer(id)])
        return key.string.map(ReplicaKey.decode)
    }

    /// The key table's (or the integer key's) name for a row: see ``ReplicaStore``.
    func keyString(_ row: ServerRow, occurrences: inout [String: Int]) -> String {
        if !row.key.isEmpty { return ReplicaKey.encode(row.key) }
        let content = ReplicaKey.encode(row.values.map(ReplicaStore.contentText))
        let occurrence = occurrences[content, default: 0]
        occurrences[content] = occurrence + 1
        return content + "\u{1F}#\(occurrence)"
    }

    // MARK: Steps

    private var quotedRowID: String { Database.quote(identifier: rowID) }

    func rowID(forKey key: String) throws -> Int64? {
        if shape.integerKey != nil {
            guard let id = Int64(key) else { return nil }
            let found = try database.scalar("SELECT count(*) FROM \(table) WHERE \(quotedRowID) = ?", [.integer(id)])
            return found.int64 == 1 ? id : nil
        }
        return try database.scalar("SELECT row_id FROM \(ReplicaStore.keyTable) WHERE key = ?", [.text(key)]).int64
    }

    /// The rows the file holds for the integer keys of `rows`, by id, in one
    /// query (`json_each` over the ids); empty for a table without an integer key.
    private func currentRows(ofIntegerKeys rows: [ServerRow]) throws -> [Int64: [StoreValue]] {
        guard shape.integerKey != nil else { return [:] }
        let ids = rows.compactMap { $0.key.first.flatMap { Int64($0) } }
        guard !ids.isEmpty else { return [:] }
        var held: [Int64: [StoreValue]] = [:]
        held.reserveCapacity(ids.count)
        let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
        try database.forEachRow(selectManySQL, [.text(json)]) { row in
            var values = row.row()
            let id = values.removeFirst().int64 ?? 0
            held[id] = values
        }
        return held
    }

    /// The row `id` holds (empty when there is none).
    private func current(_ id: Int64) throws -> [StoreValue] {
        try database.query(selectSQL, [.integer(id)]).first ?? []
    }

    private func update(_ id: Int64, _ values: [StoreValue]) throws {
        try database.run(updateSQL, values + [.integer(id)])
    }

    private func insert(_ values: [StoreValue], key: String, rowID preferred: Int64?) throws -> Int64 {
        if !usesKeyTable {
            try database.run(insertSQL, values)
            return database.lastInsertRowID
        }
        try database.run(insertWithRowIDSQL, [preferred.map(StoreValue.integer) ?? .null] + values)
        let id = database.lastInsertRowID
        try database.run("INSERT INTO \(ReplicaStore.keyTable)(row_id, key) VALUES (?, ?)", [.integer(id), .text(key)])
        return id
    }

    private func delete(_ id: Int64) throws {
        try database.run("DELETE FROM \(table) WHERE \(quotedRowID) = ?", [.integer(id)])
        if usesKeyTable {
            try database.run("DELETE FROM \(ReplicaStore.keyTable) WHERE row_id = ?", [.integer(id)])
        }
    }

    private static func contentText(_ value: StoreValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): "i\(number)"
        case .real(let number): "r\(number)"
        case .text(let text): "t" + text
        case .blob(let bytes): "b\(bytes)"
        }
    }
}
