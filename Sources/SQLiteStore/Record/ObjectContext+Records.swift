extension ObjectContext {
    /// Inserts a record as a new object of its entity (saved by the next `save()`).
    ///
    ///     let object = context.insert(Student(name: "Ada", number: 7, subject: "Maths"))
    ///     try context.save()
    ///     object.objectID.isTemporary   // false
    @discardableResult
    public func insert<Record: StoreRecord>(_ record: Record) -> ManagedObject {
        let object = insert(into: Record.entityName)
        var container = RecordContainer(object: object)
        record.encode(to: &container)
        return object
    }

    /// Writes a record's values into an existing object of its entity (saved by the next `save()`).
    ///
    ///     var ada = try object.record(as: Student.self)
    ///     ada.subject = "Physics"
    ///     try context.update(object, with: ada)
    ///     try context.save()
    ///
    /// - Throws: ``StoreError/invalidObject(_:)`` when the object is of another entity.
    public func update<Record: StoreRecord>(_ object: ManagedObject, with record: Record) throws {
        try object.checkEntity(of: Record.self)
        var container = RecordContainer(object: object)
        record.encode(to: &container)
    }

    /// The records of an entity from SQL, as ``fetch(_:where:_:orderBy:limit:)`` gives objects.
    ///
    ///     let maths = try context.fetchRecords(Student.self, where: "subject = ?", [.text("Maths")], orderBy: "number")
    public func fetchRecords<Record: StoreRecord>(
        _ type: Record.Type,
        where sqlCondition: String? = nil,
        _ arguments: [StoreValue] = [],
        orderBy: String? = nil,
        limit: Int? = nil
    ) throws -> [Record] {
        try fetch(Record.entityName, where: sqlCondition, arguments, orderBy: orderBy, limit: limit)
            .map { try Record(row: RecordRow(object: $0)) }
    }
}

extension ManagedObject {
    /// The object read as a record of its entity.
    ///
    ///     let ada = try object.record(as: Student.self)
    ///
    /// - Throws: ``StoreError/invalidObject(_:)`` when the object is of another entity; what
    ///   the record's `init(row:)` throws (an unknown key, a value of the wrong kind).
    public func record<Record: StoreRecord>(as type: Record.Type = Record.self) throws -> Record {
        try checkEntity(of: Record.self)
        return try Record(row: RecordRow(object: self))
    }

    func checkEntity<Record: StoreRecord>(of type: Record.Type) throws {
        guard entity.name == Record.entityName else {
            throw StoreError.invalidObject(
                "\(objectID) is a \(entity.name), not a \(Record.entityName) (\(Record.self))"
            )
        }
    }
}
