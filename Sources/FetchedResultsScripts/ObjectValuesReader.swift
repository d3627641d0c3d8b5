import FetchedResults
import SQLiteStore

/// Reads key paths of an entity's objects, as ``ResultsListWriter`` prints them and ``ViewExport``
/// saves them: one query per batch of ids, the rows in the order of the ids asked for.
///
/// The query is made from the model alone, so it runs on any connection to the store's file:
/// the store's own (``read(_:)``), or one of another thread (``read(_:on:)``).
struct ObjectValuesReader {
    let store: Store?
    /// `SELECT <id>, <key paths> FROM … WHERE <id> IN (SELECT value FROM json_each(?))`
    let sql: String
    /// The attribute type of each key path.
    let types: [AttributeType]

    /// The reader of `keyPaths` of the entity `controller` fetches, from the controller's store.
    ///
    /// - Throws: `StoreError.unknownKeyPath` for a key path the entity lacks.
    init(controller: FetchedResultsController, keyPaths: [String]) throws {
        let store = controller.context.store
        try self.init(model: store.model, entity: controller.fetchRequest.entityName, keyPaths: keyPaths, store: store)
    }

    /// The reader of `keyPaths` of `entity` in `model`, for ``read(_:on:)`` (and ``read(_:)`` from `store`).
    ///
    /// - Throws: `StoreError.unknownKeyPath` for a key path the entity lacks.
    init(model: Model, entity: String, keyPaths: [String], store: Store? = nil) throws {
        self.store = store
        let source = try model.sqlSource(root: entity, keyPaths: keyPaths)
        let expressions = try [source.idExpression] + keyPaths.map { try source.expression(forKeyPath: $0) }
        types = try keyPaths.map { try source.type(forKeyPath: $0) }
        sql =
            "SELECT \(expressions.joined(separator: ", ")) FROM \(source.from)"
            + " WHERE \(source.idExpression) IN (SELECT value FROM json_each(?))"
    }

    /// The values of `ids`' key paths from the controller's store, in the order of `ids`; ids no
    /// longer stored are left out.
    func read(_ ids: [Int64]) throws -> [(id: Int64, values: [StoreValue])] {
        guard let store else { return [] }
        return try read(ids, on: store.database)
    }

    /// The values of `ids`' key paths read on `database`, in the order of `ids`; ids no longer
    /// stored are left out.
    func read(_ ids: [Int64], on database: Database) throws -> [(id: Int64, values: [StoreValue])] {
        let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let count = Int32(types.count)
        var byID: [Int64: [StoreValue]] = [:]
        byID.reserveCapacity(ids.count)
        try database.forEachRow(sql, [.text(json)]) { row in
            byID[row.int64(at: 0)] = (0..<count).map { row.value(at: $0 + 1) }
        }
        return ids.compactMap { id in byID[id].map { (id: id, values: $0) } }
    }
}
