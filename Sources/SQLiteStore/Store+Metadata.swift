/// A small key-value table beside the model's tables, for what an app keeps
/// about the store itself rather than about its objects (e.g. the `ETag` of
/// the list it was last updated from).
///
/// The table, `store_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)`, also
/// holds the store's identity (`store_id`, written at creation); a store made
/// before it gets the table on the first write. It has no history triggers:
/// metadata changes are not object changes.
///
///     try store.setMetadata(["update.etag": "\"abc\"", "update.lastModified": nil])  // nil removes a key
///     let etag = try store.metadata(forKey: "update.etag")                          // "\"abc\""
extension Store {
    /// The table's name (people open the file with `sqlite3`).
    package static let metadataTable = SchemaBuilder.metadataTable

    /// The value stored under `key`, or nil when there is none (or no table yet).
    package func metadata(forKey key: String) throws -> String? {
        guard try hasMetadataTable() else { return nil }
        return try database.scalar("SELECT value FROM \(Store.metadataTable) WHERE key = ?", [.text(key)]).string
    }

    /// Sets (or, for nil, removes) each key's value, in one transaction (a savepoint inside another).
    package func setMetadata(_ values: [String: String?]) throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        try database.transaction {
            try database.execute(
                "CREATE TABLE IF NOT EXISTS \(Store.metadataTable) (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                if let value {
                    try database.run(
                        "INSERT INTO \(Store.metadataTable)(key, value) VALUES (?, ?) "
                            + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        [.text(key), .text(value)]
                    )
                } else {
                    try database.run("DELETE FROM \(Store.metadataTable) WHERE key = ?", [.text(key)])
                }
            }
        }
    }

    private func hasMetadataTable() throws -> Bool {
        try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            [.text(Store.metadataTable)]
        ).int64 == 1
    }
}
