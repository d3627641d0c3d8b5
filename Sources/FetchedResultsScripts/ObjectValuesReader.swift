import FetchedResults
import SQLiteStore

/// Reads key paths of a controller's objects from its store, as ``ResultsListWriter`` prints them:
/// one query per batch of ids, the rows in the order of the ids asked for.
struct ObjectValuesReader {
    let store: Store
    /// `SELECT <id>, <key paths> FROM … WHERE <id> IN (SELECT value FROM json_each(?))`
    let sql: String
    /// The attribute type of each key path.
    let types: [AttributeType]

    /// The reader of `keyPaths` of the entity `controller` fetches.
    ///
    /// - Throws: `StoreError.unknownKeyPath` for a key path the entity lacks.
    init(controller: FetchedResultsController, keyPaths: [String]) throws {
        store = controller.context.store
        let source = try store.model.sqlSource(root: controller.fetchRequest.entityName, keyPaths: keyPaths)
        let expressions = try [source.idExpression] + keyPaths.map { try source.expression(forKeyPath: $0) }
        types = try keyPaths.map { try source.type(forKeyPath: $0) }
        sql =
            "SELECT \(expressions.joined(separator: ", ")) FROM \(source.from)"
            + " WHERE \(source.idExpression) IN (SELECT value FROM json_each(?))"
    }

    /// The values of `ids`' key paths, in the order of `ids`; ids no longer stored are left out.
    func read(_ ids: [Int64]) throws -> [(id: Int64, values: [StoreValue])] {
        let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let count = Int32(types.count)
        var byID: [Int64: [StoreValue]] = [:]
        byID.reserveCapacity(ids.count)
        try store.database.forEachRow(sql, [.text(json)]) { row in
            byID[row.int64(at: 0)] = (0..<count).map { row.value(at: $0 + 1) }
        }
        return ids.compactMap { id in byID[id].map { (id: id, values: $0) } }
    }
}
