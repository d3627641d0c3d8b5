import Foundation

/// Creating, loading, fetching: the part of ``ObjectContext`` that creates objects, loads them by id and fetches them.
extension ObjectContext {
    /// Creates a new object of `entity`, saved (and given its permanent ID) by the next ``save()``.
    /// Attributes start at their defaults. An unknown entity name makes the next save throw.
    public func insert(into entity: String) -> ManagedObject {
        let description = model.entity(named: entity) ?? Entity(entity, attributes: [])
        if model.entity(named: entity) == nil { recordError(.unknownEntity(entity)) }
        let object = ManagedObject(
            entity: description,
            id: ObjectID(entity: entity, rowID: nextTemporaryRowID),
            context: self
        )
        nextTemporaryRowID -= 1
        object.isInserted = true
        object.links = Array(repeating: .none, count: description.relationships.count)
        object.committedLinks = object.links
        object.changedKeys = Set(description.attributes.filter { $0.defaultValue != nil }.map(\.name))
        if model.entity(named: entity) != nil { register(object) }
        dirty[ObjectIdentifier(object)] = object
        return object
    }

    /// The object for `id`: the registered one, or loaded from its row; nil when the row is gone.
    public func object(with id: ObjectID) throws -> ManagedObject? {
        if let object = registered(id) { return object }
        if id.isTemporary { return nil }
        guard let entity = model.entity(named: id.entity) else { throw StoreError.unknownEntity(id.entity) }
        var result: ManagedObject?
        let select =
            entity.numbersRowsByPosition
            ? selectSQL(entity, from: entity.sqlTable(throughID: id.rowID)) : selectSQL(entity)
        try database.forEachRow(select + " WHERE t0.\(entity.sqlIDColumn) = ?", [.integer(id.rowID)]) {
            row in
            result = materialize(entity, row)
        }
        return result
    }

    /// Loads many objects with one query per entity (per 500 ids); same order, missing rows skipped.
    public func objects(with ids: [ObjectID]) throws -> [ManagedObject] {
        var held: [ObjectID: ManagedObject] = [:]
        var missing: [String: [Int64]] = [:]
        for id in ids {
            if let object = registered(id) {
                held[id] = object
            } else if !id.isTemporary {
                missing[id.entity, default: []].append(id.rowID)
            }
        }
        for (name, rowIDs) in missing {
            guard let entity = model.entity(named: name) else { throw StoreError.unknownEntity(name) }
            for object in try load(entity, rowIDs: rowIDs) { held[object.objectID] = object }
        }
        return ids.compactMap { held[$0] }
    }

    /// Objects of an entity from SQL: `sqlCondition` and `orderBy` use column names
    /// (the table's alias is `t0`). Unsaved inserts are not included.
    ///
    ///     let books = try context.fetch("Book", where: "language = ?", [.text("en")], orderBy: "name COLLATE NOCASE")
    public func fetch(
        _ entity: String,
        where sqlCondition: String? = nil,
        _ arguments: [StoreValue] = [],
        orderBy: String? = nil,
        limit: Int? = nil
    ) throws -> [ManagedObject] {
        guard let description = model.entity(named: entity) else { throw StoreError.unknownEntity(entity) }
        var sql = selectSQL(description)
        if let sqlCondition { sql += " WHERE (\(sqlCondition))" }
        if let orderBy { sql += " ORDER BY \(orderBy)" }
        if let limit { sql += " LIMIT \(limit)" }
        var result: [ManagedObject] = []
        try database.forEachRow(sql, arguments) { row in result.append(materialize(description, row)) }
        return result
    }

    /// `SELECT t0.id, t0.<columns> FROM <table> AS t0` (identifiers quoted as they must be)
    /// The number of rows of an entity, of those that match `sqlCondition` when given
    /// (column names; the table's alias is `t0`), as saved: unsaved inserts and deletes
    /// are not counted. One `SELECT count(*)`.
    ///
    ///     let english = try context.count("Book", where: "language = ?", [.text("en")])
    public func count(_ entity: String, where sqlCondition: String? = nil, _ arguments: [StoreValue] = []) throws -> Int
    {
        guard let description = model.entity(named: entity) else { throw StoreError.unknownEntity(entity) }
        var sql = "SELECT count(*) FROM \(description.sqlTable) AS t0"
        if let sqlCondition { sql += " WHERE (\(sqlCondition))" }
        return Int(try database.scalar(sql, arguments).int64 ?? 0)
    }

    func selectSQL(_ entity: Entity) -> String {
        if let sql = selectColumns[entity.name] { return sql }
        let sql = selectSQL(entity, from: entity.sqlTable)
        selectColumns[entity.name] = sql
        return sql
    }

    /// `SELECT` every column of `entity` `FROM source AS t0`.
    func selectSQL(_ entity: Entity, from source: String) -> String {
        "SELECT " + entity.columnNames.map { "t0." + SQLIdentifier.quoted($0) }.joined(separator: ", ")
            + " FROM \(source) AS t0"
    }

    /// Loads rows by id (chunked), refreshing registered objects; returns the objects found.
    func load(_ entity: Entity, rowIDs: [Int64]) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(rowIDs.count)
        try forEachRow(of: entity, rowIDs: rowIDs) { row in result.append(materialize(entity, row)) }
        return result
    }

    /// Calls `body` with each row of `entity` among `rowIDs` (chunked), every column selected.
    func forEachRow(of entity: Entity, rowIDs: [Int64], _ body: (Statement) -> Void) throws {
        for (placeholders, arguments) in ObjectContext.inListChunks(rowIDs) {
            var select = selectSQL(entity)
            if entity.numbersRowsByPosition, let last = arguments.compactMap(\.int64).max() {
                select = selectSQL(entity, from: entity.sqlTable(throughID: last))
            }
            try database.forEachRow(select + " WHERE t0.\(entity.sqlIDColumn) IN (\(placeholders))", arguments, body)
        }
    }

    /// The registered object for the row (refreshed from it), or a new registered one.
    func materialize(_ entity: Entity, _ row: Statement) -> ManagedObject {
        let id = ObjectID(entity: entity.name, rowID: row.int64(at: 0))
        if let object = registered(id) {
            refresh(object) { row.value(at: $0) }
            return object
        }
        let object = ManagedObject(entity: entity, id: id, context: self)
        refresh(object) { row.value(at: $0) }
        register(object)
        return object
    }

    /// Sets the committed state from a row (`column(n)`: the value of the select's column n);
    /// unsaved changes of the object are kept.
    func refresh(_ object: ManagedObject, column value: (Int32) -> StoreValue) {
        let entity = object.entity
        var column: Int32 = 1
        for i in entity.attributes.indices {
            let value = value(column)
            object.committedValues[i] = value
            if !object.changedKeys.contains(entity.attributes[i].name) { object.values[i] = value }
            column += 1
        }
        for i in entity.foreignKeyRelationships {
            let rel = entity.relationships[i]
            let key = value(column)
            let link: ManagedObject.Link =
                key.isNull ? .none : .object(ObjectID(entity: rel.destination, rowID: key.int64 ?? 0))
            object.committedLinks[i] = link
            if !object.changedKeys.contains(rel.name) { object.links[i] = link }
            column += 1
        }
        for (i, rel) in entity.relationships.enumerated()
        where !rel.storesForeignKey && !object.changedKeys.contains(rel.name) {
            object.links[i] = .unknown
            object.committedLinks[i] = .unknown
        }
    }

    /// Finds the committed partner of a relationship in the store.
    func lookUpLink(of object: ManagedObject, relationship i: Int) throws -> ManagedObject.Link {
        if object.objectID.isTemporary { return .none }
        let rel = object.entity.relationships[i]
        guard let destination = model.entity(named: rel.destination) else { return .none }
        let value: StoreValue
        if rel.storesForeignKey {
            value = try database.scalar(
                "SELECT \(SQLIdentifier.quoted(rel.columnName)) FROM \(object.entity.sqlTable) WHERE \(object.entity.sqlIDColumn) = ?",
                [.integer(object.objectID.rowID)]
            )
        } else {
            guard let inverse = destination.relationship(named: rel.inverse) else { return .none }
            let id = destination.sqlIDColumn
            value = try database.scalar(
                "SELECT \(id) FROM \(destination.sqlTable) WHERE \(SQLIdentifier.quoted(inverse.columnName)) = ? ORDER BY \(id) LIMIT 1",
                [.integer(object.objectID.rowID)]
            )
        }
        guard let rowID = value.int64 else { return .none }
        return .object(ObjectID(entity: destination.name, rowID: rowID))
    }
}
