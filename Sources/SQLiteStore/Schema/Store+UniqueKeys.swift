extension Store {
    /// Whether the file enforces a unique key of the model: it has the key's unique index.
    ///
    /// A store created from the model always does. A file that a newer model version
    /// gave a new unique key may not: when its rows already broke the key, the store
    /// opened it with a plain index instead (see ``Migration``).
    ///
    ///     let enforced = try store.enforcesUniqueKey(["book"], of: "BookDetails")
    package func enforcesUniqueKey(_ key: [String], of entityName: String) throws -> Bool {
        guard let entity = model.entity(named: entityName) else { throw StoreError.unknownEntity(entityName) }
        let columns = key.compactMap { entity.columnName(forKey: $0) }
        guard columns.count == key.count, !columns.isEmpty else {
            throw StoreError.unknownKeyPath(key.joined(separator: ","), entity: entityName)
        }
        let name = SchemaBuilder.uniqueIndexName(table: entity.tableName, columns: columns)
        let found = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? AND tbl_name = ?",
            [.text(name), .text(entity.tableName)]
        )
        guard found.int64 == 1 else { return false }
        // The index is unique, over every row (not partial: a WHERE clause leaves rows out of the key),
        // on exactly these columns (not a plain index someone gave the name).
        let unique = try database.scalar(
            "SELECT \"unique\" AND NOT partial FROM pragma_index_list(?) WHERE name = ?",
            [.text(entity.tableName), .text(name)]
        )
        let indexed = try database.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)])
            .compactMap { $0.first?.string }
        return unique.int64 == 1 && indexed == columns
    }

    /// The model as this file enforces it: a unique key on a to-one relationship's
    /// foreign key (`details.info`) that the file holds only as a plain index
    /// (its rows broke the key when it was added) is left out.
    ///
    /// ``SQLSource`` reads such a key as "at most one related row": with it, the
    /// join through the relationship's other side is a plain join; without it, the
    /// join must pick the lowest-id row among several.
    func modelWithEnforcedToOneKeys() throws -> Model {
        var adjusted = model
        for (index, entity) in model.entities.enumerated() {
            for key in entity.uniqueKeys
            where key.count == 1 && entity.relationship(named: key[0])?.storesForeignKey == true {
                if try !enforcesUniqueKey(key, of: entity.name) {
                    adjusted.entities[index].uniqueKeys.removeAll { $0 == key }
                }
            }
        }
        return adjusted
    }
}
