import SQLiteStore

/// Writes one checked row of an ``EntityImporter``: looked up by its key,
/// inserted when new, updated only in the columns that differ, not written
/// when identical.
///
///     let writer = try EntityUpsertWriter(database: db, table: "student", key: "number", attributes: ["name", "number"])
///     let outcome = try writer.apply([.text("Ada"), .integer(1)])  // .added
struct EntityUpsertWriter {
    enum Outcome { case added, updated, unchanged }

    private let database: Database
    private let table: String
    private let attributes: [String]
    private let keyIndex: Int
    private let lookup: Statement
    private let insert: Statement

    init(database: Database, table: String, key: String, attributes: [String]) throws {
        self.database = database
        self.table = Database.quote(identifier: table)
        self.attributes = attributes
        keyIndex = attributes.firstIndex(of: key)!
        let columns = attributes.map(Database.quote(identifier:)).joined(separator: ", ")
        lookup = try database.uncachedStatement(
            "SELECT rowid, \(columns) FROM \(self.table) WHERE \(Database.quote(identifier: key)) = ?"
        )
        insert = try database.uncachedStatement(
            "INSERT INTO \(self.table)(\(columns)) VALUES (\(attributes.map { _ in "?" }.joined(separator: ", ")))"
        )
    }

    func apply(_ values: [StoreValue]) throws -> Outcome {
        try lookup.bind(values[keyIndex], at: 1)
        guard try lookup.step() else {
            lookup.reset()
            try insert.bind(values)
            _ = try insert.step()
            insert.reset()
            return .added
        }
        let rowID = lookup.int64(at: 0)
        var changed: [(String, StoreValue)] = []
        for (offset, attribute) in attributes.enumerated() where lookup.value(at: Int32(offset + 1)) != values[offset] {
            changed.append((attribute, values[offset]))
        }
        lookup.reset()
        guard !changed.isEmpty else { return .unchanged }
        let assignments = changed.map { "\(Database.quote(identifier: $0.0)) = ?" }.joined(separator: ", ")
        try database.run("UPDATE \(table) SET \(assignments) WHERE rowid = ?", changed.map(\.1) + [.integer(rowID)])
        return .updated
    }
}
