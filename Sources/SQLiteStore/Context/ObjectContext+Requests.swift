extension ObjectContext {
    /// The objects a request selects, in its order: the SQL a fetched results controller runs for
    /// the same request (its predicate and sorts over key paths, then the object ID ascending,
    /// its limit and offset), as saved — unsaved inserts are not included. A request without sort
    /// descriptors gives the objects in ID order. ``fetch(_:where:_:orderBy:limit:)`` is the
    /// escape hatch for what a predicate cannot say.
    ///
    ///     var request = FetchRequest(entity: "Book", predicate: try FetchPredicate("language == %@", .text("en")))
    ///     request.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
    ///     let books = try context.fetch(request)
    ///
    /// - Throws: ``StoreError/unknownEntity(_:)``, ``StoreError/unknownKeyPath(_:entity:)`` for a
    ///   key path the entity does not have, or SQLite's error.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let query = try RequestQuery(request, model: model)
        var ids: [ObjectID] = []
        try database.forEachRow(query.idsSQL, query.arguments) { row in
            ids.append(ObjectID(entity: request.entityName, rowID: row.int64(at: 0)))
        }
        return try objects(with: ids)
    }

    /// The number of objects ``fetch(_:)-(FetchRequest)`` gives for `request`, with one
    /// `SELECT count(*)`: as saved, within its limit and offset.
    ///
    ///     let english = try context.count(FetchRequest(entity: "Book", predicate: try FetchPredicate("language == 'en'")))
    public func count(_ request: FetchRequest) throws -> Int {
        let query = try RequestQuery(request, model: model)
        return Int(try database.scalar(query.countSQL, query.arguments).int64 ?? 0)
    }
}

/// A request compiled to SQL over its entity's table and the joins its key paths need.
struct RequestQuery {
    /// `SELECT t0.id FROM … WHERE … ORDER BY …, t0.id ASC LIMIT … OFFSET …`.
    let idsSQL: String
    /// `SELECT count(*)` of the same rows.
    let countSQL: String
    /// The predicate's bound values.
    let arguments: [StoreValue]

    init(_ request: FetchRequest, model: Model) throws {
        guard let entity = model.entity(named: request.entityName) else {
            throw StoreError.unknownEntity(request.entityName)
        }
        let sorts = request.sortDescriptors.map { $0.resolvingSortsLast(in: model, root: entity) }
        let source = try model.sqlSource(
            root: entity.name,
            keyPaths: sorts.map(\.keyPath) + (request.predicate?.keyPaths ?? [])
        )
        let predicate = try request.predicate.map { try $0.sql(in: source) }
        let id = source.idExpression
        var selected = "SELECT \(id) FROM \(source.from)"
        if let predicate { selected += " WHERE " + predicate.sql }
        let expressions = try sorts.map { try source.expression(forKeyPath: $0.keyPath) }
        let limit = FetchSort.limitClause(limit: request.fetchLimit, offset: request.fetchOffset)
        idsSQL = selected + " ORDER BY " + FetchSort.orderBy(sorts: sorts, expressions: expressions, id: id) + limit
        countSQL = limit.isEmpty ? "SELECT count(*) FROM (\(selected))" : "SELECT count(*) FROM (\(idsSQL))"
        arguments = predicate?.arguments ?? []
    }
}
