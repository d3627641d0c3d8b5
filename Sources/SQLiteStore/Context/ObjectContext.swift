import Foundation

/// A scratchpad of objects over a ``Store``: the `NSManagedObjectContext` analogue.
///
/// The context keeps one ``ManagedObject`` per row (identity map), tracks
/// inserts, attribute changes and deletes until ``save()`` writes them in one
/// transaction, and then publishes a ``ChangeSet`` to its observers. Saves can
/// be undone and redone. Writes by other processes (or other connections) are
/// picked up by ``processExternalChanges()``, called from the run loop.
///
/// A context is used from one thread (it is not `Sendable`). The identity
/// map holds objects weakly unless they have unsaved changes: an object you
/// keep is the one you get again; one nobody keeps is reloaded when next asked for.
///
///     let context = ObjectContext(store: store)
///     context.addObserver { changes in print(changes) }
///     let book = context.insert(into: "Book")
///     book["name"] = .text("Dune")
///     try context.save()                    // publishes inserted: [Book/1]
///     context.delete(book)
///     try context.save()                    // deleted (and cascaded details)
///     try context.undo()                    // the row returns with the same id
public final class ObjectContext {
    /// The store the context reads from and saves to.
    public let store: Store
    var database: Database { store.database }
    var model: Model { store.model }

    private var registry: [ObjectID: WeakObject] = [:]
    private var registryPurgeThreshold = 4096
    /// Objects with unsaved changes, held strongly until save or rollback.
    var dirty: [ObjectIdentifier: ManagedObject] = [:]
    private var nextTemporaryRowID: Int64 = -1
    private var pendingErrors: [StoreError] = []
    private var observers: [(token: ObserverToken, body: (ChangeSet) -> Void)] = []
    private var nextObserverID = 0
    /// Each undoable save (or undo, on the redo stack): every row it changed, cascades and
    /// triggers included, and the name it was saved with.
    struct UndoEntry {
        var name: String?
        var log: RowChangeLog
    }
    var undoStack: [UndoEntry] = []
    var redoStack: [UndoEntry] = []
    var historyReader: HistoryReader?
    private var selectColumns: [String: String] = [:]

    /// How many saves can be undone.
    public var undoLimit = 100

    /// A context over `store`; its history position starts at the store's current end.
    public init(store: Store) {
        self.store = store
        self.historyReader = try? HistoryReader(store: store)
    }

    // MARK: Identity map

    func registered(_ id: ObjectID) -> ManagedObject? { registry[id]?.object }

    func register(_ object: ManagedObject) {
        registry[object.objectID] = WeakObject(object: object)
        if registry.count > registryPurgeThreshold {
            registry = registry.filter { $0.value.object != nil }
            registryPurgeThreshold = max(4096, registry.count * 2)
        }
    }

    func unregister(_ object: ManagedObject) {
        if registry[object.objectID]?.object === object { registry.removeValue(forKey: object.objectID) }
    }

    /// Number of live objects in the identity map (for tests and diagnostics).
    package var registeredObjectCount: Int { registry.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) } }

    func noteChange(_ object: ManagedObject) {
        if object.hasChanges {
            beginEditing(object)
        } else {
            object.editBase = nil
            dirty.removeValue(forKey: ObjectIdentifier(object))
        }
    }

    /// Holds `object` until save or rollback; at its first change, notes the state it was read
    /// in, which the save checks the row against (``SaveConflict``).
    private func beginEditing(_ object: ManagedObject) {
        if object.editBase == nil, !object.isInserted {
            object.editBase = (object.committedValues, object.committedLinks)
        }
        dirty[ObjectIdentifier(object)] = object
    }

    func recordError(_ error: StoreError) {
        pendingErrors.append(error)
    }

    // MARK: Creating, loading, fetching

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

    private func selectSQL(_ entity: Entity) -> String {
        if let sql = selectColumns[entity.name] { return sql }
        let sql = selectSQL(entity, from: entity.sqlTable)
        selectColumns[entity.name] = sql
        return sql
    }

    /// `SELECT` every column of `entity` `FROM source AS t0`.
    private func selectSQL(_ entity: Entity, from source: String) -> String {
        "SELECT " + entity.columnNames.map { "t0." + SQLIdentifier.quoted($0) }.joined(separator: ", ")
            + " FROM \(source) AS t0"
    }

    /// Loads rows by id (chunked), refreshing registered objects; returns the objects found.
    private func load(_ entity: Entity, rowIDs: [Int64]) throws -> [ManagedObject] {
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
    private func materialize(_ entity: Entity, _ row: Statement) -> ManagedObject {
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

    // MARK: Changing

    /// Marks an object deleted; ``save()`` applies the delete rules (cascade, nullify) and removes the row.
    public func delete(_ object: ManagedObject) {
        guard object.context === self else {
            recordError(.invalidObject("\(object.objectID) belongs to another context"))
            return
        }
        guard !object.isDeleted else { return }
        object.isDeleted = true
        beginEditing(object)
    }

    /// True when there are unsaved inserts, updates or deletes.
    public var hasChanges: Bool {
        !pendingErrors.isEmpty || dirty.values.contains { $0.hasChanges }
    }

    /// Discards all unsaved changes: values return to their saved state, unsaved inserts are dropped.
    public func rollback() {
        for object in dirty.values {
            if object.isInserted {
                unregister(object)
                object.isInserted = false
                object.isDeleted = true
            } else {
                object.values = object.committedValues
                object.links = object.committedLinks
                object.isDeleted = false
            }
            object.changedKeys = []
            object.editBase = nil
        }
        dirty.removeAll()
        pendingErrors.removeAll()
    }

    /// Cascades and nullifies from the objects marked deleted (loading partners as needed).
    private func applyDeleteRules() throws {
        var queue = dirty.values.filter(\.isDeleted)
        var seen = Set(queue.map(ObjectIdentifier.init))
        while let object = queue.popLast() {
            for (i, rel) in object.entity.relationships.enumerated() {
                guard let partner = try object.relatedThrowing(i), !partner.isDeleted,
                    let j = partner.entity.relationshipIndex[rel.inverse]
                else { continue }
                switch rel.deleteRule {
                case .cascade:
                    delete(partner)
                    if seen.insert(ObjectIdentifier(partner)).inserted { queue.append(partner) }
                case .nullify:
                    if partner.links[j].id == object.objectID || partner.links[j] == .unknown {
                        partner.setLink(.none, at: j)
                    }
                }
            }
        }
    }

    /// Orders inserts so that an object comes after the new objects its foreign keys point to.
    private func insertionOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
        var state: [ObjectIdentifier: Bool] = [:]  // false = visiting, true = done
        var result: [ManagedObject] = []
        func visit(_ object: ManagedObject) {
            state[ObjectIdentifier(object)] = false
            for i in object.entity.foreignKeyRelationships {
                if let id = object.links[i].id, id.isTemporary, let target = registered(id), target.isInserted,
                    !target.isDeleted,
                    state[ObjectIdentifier(target)] == nil
                {
                    visit(target)
                }
            }
            state[ObjectIdentifier(object)] = true
            result.append(object)
        }
        for object in objects.sorted(by: { $0.objectID.rowID > $1.objectID.rowID })
        where state[ObjectIdentifier(object)] == nil {
            visit(object)
        }
        return result
    }

    // MARK: Saving

    /// Writes all changes in one transaction, then publishes a ``ChangeSet``
    /// with permanent IDs. Throws (and keeps the changes) on a validation or
    /// SQLite error; a key set that the model does not know throws here.
    public func save() throws {
        try save(actionName: nil)
    }

    /// ``save()``, naming the save for its undo: ``undoActionName`` is `actionName`
    /// until the save is undone, and ``undo()`` returns it, so that a screen says what
    /// it undid ("Undone: Deleted “Dune”") from the context itself.
    ///
    ///     context.delete(book)
    ///     try context.save(actionName: "Deleted “Dune”")
    ///     context.undoActionName                  // "Deleted “Dune”"
    ///     let undone = try context.undo()         // undone?.name == "Deleted “Dune”"
    public func save(actionName: String?) throws {
        try throwPendingError()
        guard hasChanges else { return }
        guard !store.isReadOnly else { throw StoreError.readOnly(path: store.path) }
        try applyDeleteRules()
        let objects = Array(dirty.values)
        try checkRequiredAttributes(of: objects)
        let inserts = insertionOrder(objects.filter { $0.isInserted && !$0.isDeleted })
        let updates = objects.filter { !$0.isInserted && !$0.isDeleted && !$0.changedKeys.isEmpty }.sorted {
            $0.objectID < $1.objectID
        }
        let deletes = objects.filter { $0.isDeleted && !$0.isInserted }.sorted { $0.objectID < $1.objectID }
        let (log, propagated, range) = try writeTransaction(inserts: inserts, updates: updates, deletes: deletes)
        // Written: from here on nothing reads the file or throws, so that the context never
        // reports a failure for a save that happened. Inside a caller's transaction it is the
        // caller's commit that decides: until then nothing is published, and a rollback puts
        // the context back as it was before the save (``restore(_:)``).
        let before = memory(of: objects, ownWrite: range)
        let renamed = assignPermanentIDs(to: inserts)
        var changes = commit(objects, renamed: renamed)
        dirty.removeAll()
        for (id, keys) in propagated { changes.addUpdate(id, keys: keys) }
        changes.writtenRows = WrittenRows(log, model: model)
        pushUndo(log, actionName: actionName)
        publishWhenCommitted(changes, restoringOtherwise: before)
    }

    /// A value set earlier that the model refused (an unknown key, a value of the wrong
    /// kind) fails this save, once.
    private func throwPendingError() throws {
        guard let error = pendingErrors.first else { return }
        pendingErrors.removeAll()
        throw error
    }

    /// Every object that stays has a value for each of its required attributes.
    private func checkRequiredAttributes(of objects: [ManagedObject]) throws {
        for object in objects where !object.isDeleted {
            for (i, a) in object.entity.attributes.enumerated() where !a.isOptional && object.values[i].isNull {
                throw StoreError.validation(entity: object.entity.name, key: a.name, reason: "is required")
            }
        }
    }

    /// Writes the save in one transaction (foreign keys checked at its end), recording
    /// every row it changes for undo; notes the history entries it wrote as this
    /// context's own, so that ``processExternalChanges()`` does not report them again.
    /// Returns the log and the updates the save's changes propagate to through to-one
    /// relationships, read before the commit: after it, the save reads nothing.
    private func writeTransaction(
        inserts: [ManagedObject],
        updates: [ManagedObject],
        deletes: [ManagedObject]
    ) throws -> (RowChangeLog, [ObjectID: Set<String>], ClosedRange<Int64>?) {
        let counterBefore = store.localChangeCounter
        let (range, log, propagated) = try database.transaction {
            () throws -> (ClosedRange<Int64>?, RowChangeLog, [ObjectID: Set<String>]) in
            let start = try store.historyPosition()
            try database.execute("PRAGMA defer_foreign_keys = ON")
            try runWillWriteHook(.save)
            let (_, log) = try database.recordingChanges(excluding: unloggedTables) { recorder in
                try write(inserts: inserts, updates: updates, deletes: deletes, recorder: recorder)
            }
            try runDidWriteHook(.save)
            var updated: [ObjectID: Set<String>] = [:]
            for object in updates { updated[object.objectID] = withDerivedKeys(object.changedKeys, of: object.entity) }
            let propagated = try toOnePropagation(of: updated, trustingLinks: true)
            try store.pruneHistory()
            let end = try store.historyPosition()
            return (end > start ? (start + 1)...end : nil, log, propagated)
        }
        store.localChangeCounter &+= 1
        historyReader?.noteOwnWrite(range, counterBefore: counterBefore)
        return (log, propagated, range)
    }

    /// The history tables of this project's stores and of a foreign database's tracking: they
    /// are written by triggers again whenever rows change, so an undo leaves them to those.
    var unloggedTables: Set<String> { [SchemaBuilder.historyTable, store.trackingNames.historyTable] }

    /// Row ids the inserts of the save being written were given (temporary id → row id).
    private var permanent: [ObjectID: Int64] = [:]

    /// The link's row id as it is written: a new object's permanent one, nil for a deleted one.
    private func resolve(_ id: ObjectID) -> Int64? {
        if let target = registered(id), target.isDeleted { return nil }
        return id.isTemporary ? permanent[id] : id.rowID
    }

    /// The SQL of one save: inserts (in dependency order), updates, deletes. An update or a
    /// delete of a row another writer changed since it was read throws ``StoreError/conflict(_:)``
    /// before anything is written. A delete that finds its row gone — not removed by this
    /// save's own cascades — throws ``StoreError/alreadyDeleted(table:rowID:)``: another
    /// process deleted it first.
    private func write(
        inserts: [ManagedObject],
        updates: [ManagedObject],
        deletes: [ManagedObject],
        recorder: PreupdateRecorder
    ) throws {
        permanent = [:]
        try checkConflicts(updates + deletes)
        let unresolved = try insertRows(of: inserts)
        try linkInsertedRows(unresolved)
        for object in updates { try updateRow(of: object) }
        for object in deletes { try deleteRow(of: object, recorder: recorder) }
    }

    /// Inserts each new object's row, noting its row id; returns those whose foreign keys
    /// point at a new object not inserted yet (a cycle between new objects).
    private func insertRows(of inserts: [ManagedObject]) throws -> [ManagedObject] {
        var unresolved: [ManagedObject] = []
        for object in inserts {
            let entity = object.entity
            let row = object.columnValues(committed: false, resolve: resolve)
            let pointsAtUnsaved = entity.foreignKeyRelationships.contains { i in
                guard let id = object.links[i].id, id.isTemporary, permanent[id] == nil else { return false }
                return registered(id).map { !$0.isDeleted } ?? false
            }
            let columns = Array(entity.columnNames.dropFirst())
            let sql =
                columns.isEmpty
                ? "INSERT INTO \(entity.sqlTable) DEFAULT VALUES"
                : "INSERT INTO \(entity.sqlTable)(\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            try database.run(sql, row)
            permanent[object.objectID] = database.lastInsertRowID
            if pointsAtUnsaved { unresolved.append(object) }
        }
        return unresolved
    }

    /// Sets the foreign keys of new objects in a cycle, once every new row has its id.
    private func linkInsertedRows(_ unresolved: [ManagedObject]) throws {
        for object in unresolved {
            let entity = object.entity
            let fks = entity.foreignKeyRelationships
            let sets = fks.map { "\(SQLIdentifier.quoted(entity.relationships[$0].columnName)) = ?" }.joined(
                separator: ", "
            )
            let values = fks.map { i in object.links[i].id.flatMap(resolve).map { StoreValue.integer($0) } ?? .null
            }
            try database.run(
                "UPDATE \(entity.sqlTable) SET \(sets) WHERE \(entity.sqlIDColumn) = ?",
                values + [.integer(permanent[object.objectID]!)]
            )
        }
    }

    /// Writes the changed columns of an updated object (none: nothing is written).
    private func updateRow(of object: ManagedObject) throws {
        let entity = object.entity
        let columns = entity.columnNames.dropFirst()
        let current = Dictionary(
            uniqueKeysWithValues: zip(columns, object.columnValues(committed: false, resolve: resolve))
        )
        let changed = object.changedKeys.compactMap { key -> String? in
            if let i = entity.relationshipIndex[key], !entity.relationships[i].storesForeignKey { return nil }
            return entity.columnName(forKey: key)
        }.sorted()
        guard !changed.isEmpty else { return }
        let sql =
            "UPDATE \(entity.sqlTable) SET "
            + changed.map { "\(SQLIdentifier.quoted($0)) = ?" }.joined(separator: ", ")
            + " WHERE \(entity.sqlIDColumn) = ?"
        try database.run(sql, changed.map { current[$0]! } + [.integer(object.objectID.rowID)])
    }

    /// Deletes a deleted object's row; throws when the row was already gone and not by a
    /// cascade of this save.
    private func deleteRow(of object: ManagedObject, recorder: PreupdateRecorder) throws {
        let entity = object.entity
        try database.run(
            "DELETE FROM \(entity.sqlTable) WHERE \(entity.sqlIDColumn) = ?",
            [.integer(object.objectID.rowID)]
        )
        if database.changes == 0, !recorder.hasDeleted(table: entity.tableName, rowID: object.objectID.rowID) {
            throw StoreError.alreadyDeleted(table: entity.tableName, rowID: object.objectID.rowID)
        }
    }

    /// After the commit, new objects take their permanent IDs (registered under them);
    /// returns the renaming, temporary → permanent.
    private func assignPermanentIDs(to inserts: [ManagedObject]) -> [ObjectID: ObjectID] {
        var renamed: [ObjectID: ObjectID] = [:]
        for object in inserts {
            let id = ObjectID(entity: object.entity.name, rowID: permanent[object.objectID]!)
            renamed[object.objectID] = id
            unregister(object)
            object.objectID = id
            register(object)
        }
        return renamed
    }

    /// Makes the saved state each object's committed state (deleted objects leave the
    /// context) and returns the change set of the save, before to-one propagation.
    private func commit(_ objects: [ManagedObject], renamed: [ObjectID: ObjectID]) -> ChangeSet {
        var changes = ChangeSet()
        for object in objects {
            object.remapLinks(renamed)
            if object.isDeleted {
                if !object.isInserted { changes.deleted.insert(object.objectID) }
                unregister(object)
                object.isInserted = false
                object.changedKeys = []
                object.editBase = nil
                continue
            }
            if object.isInserted {
                changes.inserted.insert(object.objectID)
            } else if !object.changedKeys.isEmpty {
                changes.updated[object.objectID] = withDerivedKeys(object.changedKeys, of: object.entity)
            }
            object.isInserted = false
            object.committedValues = object.values
            object.committedLinks = object.links
            object.forgetInverseLinks()
            object.changedKeys = []
            object.editBase = nil
        }
        return changes
    }

    /// Puts the save's row changes on the undo stack (at most `undoLimit` saves kept);
    /// a new save empties the redo stack.
    private func pushUndo(_ log: RowChangeLog, actionName: String?) {
        if !log.isEmpty {
            undoStack.append(UndoEntry(name: actionName, log: log))
            if undoStack.count > undoLimit { undoStack.removeFirst(undoStack.count - undoLimit) }
        }
        redoStack.removeAll()
    }

    /// Adds the entity's derived attribute names when any attribute changed: they may depend on it.
    private func withDerivedKeys(_ keys: Set<String>, of entity: Entity) -> Set<String> {
        guard !entity.derived.isEmpty, keys.contains(where: { entity.attributeIndex[$0] != nil }) else { return keys }
        return keys.union(entity.derived.map(\.name))
    }

    /// The updates that attribute changes of `updated` objects propagate to: the objects that
    /// reach them through a to-one relationship ("details.publishedOn"). Read inside the write
    /// transaction, after its writes; `trustingLinks` takes a registered object's foreign keys
    /// as written (a save), otherwise every partner is looked up (an undo: the registered
    /// objects are not reloaded yet).
    private func toOnePropagation(
        of updated: [ObjectID: Set<String>],
        trustingLinks: Bool
    ) throws -> [ObjectID: Set<String>] {
        var result: [ObjectID: Set<String>] = [:]
        for (id, keys) in updated {
            guard let entity = model.entity(named: id.entity) else { continue }
            let attributeKeys = keys.filter { entity.attributeIndex[$0] != nil || entity.derivedIndex[$0] != nil }
            guard !attributeKeys.isEmpty else { continue }
            for (i, rel) in entity.relationships.enumerated() {
                let partner: ObjectID?
                if trustingLinks, rel.storesForeignKey, let object = registered(id), object.links[i] != .unknown {
                    partner = object.links[i].id.flatMap { target in
                        target.isTemporary
                            ? permanent[target].map { ObjectID(entity: target.entity, rowID: $0) } : target
                    }
                } else {
                    let probe = ManagedObject(entity: entity, id: id, context: self)
                    partner = try lookUpLink(of: probe, relationship: i).id
                }
                if let partner { result[partner, default: []].formUnion(attributeKeys.map { rel.inverse + "." + $0 }) }
            }
        }
        return result
    }

    // MARK: Undo

    /// True when there is a save to undo (or unsaved changes, which undo discards).
    public var canUndo: Bool { !undoStack.isEmpty || hasChanges }
    /// True when an undone save can be redone.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The name the save that ``undo()`` would undo was saved with (see
    /// ``save(actionName:)``); nil when there is none or it has no name.
    public var undoActionName: String? { hasChanges ? nil : undoStack.last?.name }
    /// The name of the save that ``redo()`` would redo, if any.
    public var redoActionName: String? { redoStack.last?.name }

    /// Names the last save on the undo stack (as `UndoManager.setActionName`
    /// names the last undo group), for saves made by code that does not pass
    /// ``save(actionName:)`` a name. Does nothing when there is no save to undo.
    ///
    ///     let note = try stash.addNote(title: "Groceries", body: "")   // saves
    ///     context.setUndoActionName("Added “Groceries”")
    public func setUndoActionName(_ name: String?) {
        guard !undoStack.isEmpty else { return }
        undoStack[undoStack.count - 1].name = name
    }

    /// Undoes the last save (deleted rows return with their row ids, cascaded
    /// children included), as a save of its own that publishes a change set.
    /// With unsaved changes pending, undo discards those instead (``rollback()``).
    ///
    /// Returns what was undone — the save's action name and the change set
    /// published — or nil when there was nothing to undo.
    ///
    ///     if let undone = try context.undo() {
    ///         status.showMessage("Undone: \(undone.name ?? "last change")", at: now)
    ///         if let id = undone.changes.inserted.first { adapter.select(id) }
    ///     }
    @discardableResult
    public func undo() throws -> UndoneAction? {
        if hasChanges {
            rollback()
            return UndoneAction(name: nil, changes: ChangeSet(), discardedUnsavedChanges: true)
        }
        guard let entry = undoStack.last else { return nil }
        let (log, changes) = try revert(entry.log, as: .undo)
        undoStack.removeLast()
        redoStack.append(UndoEntry(name: entry.name, log: log))
        return UndoneAction(name: entry.name, changes: changes, discardedUnsavedChanges: false)
    }

    /// Redoes the last undone save; publishes a change set. Returns what was
    /// redone (as ``undo()`` does), or nil when there was nothing to redo.
    @discardableResult
    public func redo() throws -> UndoneAction? {
        rollback()
        guard let entry = redoStack.last else { return nil }
        let (log, changes) = try revert(entry.log, as: .redo)
        redoStack.removeLast()
        undoStack.append(UndoEntry(name: entry.name, log: log))
        return UndoneAction(name: entry.name, changes: changes, discardedUnsavedChanges: false)
    }

    /// Undoes `log` in one transaction — every row it changed, those its cascades and
    /// triggers changed included — recording what that changed in turn (the way back, for
    /// redo or undo), and publishes the change set of the rows this model has.
    private func revert(_ log: RowChangeLog, as write: SaveHook.Write) throws -> (RowChangeLog, ChangeSet) {
        guard !store.isReadOnly else { throw StoreError.readOnly(path: store.path) }
        let counterBefore = store.localChangeCounter
        let (range, reverted, changes, reloaded) = try database.transaction {
            () throws -> (ClosedRange<Int64>?, RowChangeLog, ChangeSet, ReloadedRows) in
            let start = try store.historyPosition()
            try database.execute("PRAGMA defer_foreign_keys = ON")
            try runWillWriteHook(write)
            // The file's own triggers stay off: what they did at the save is in the log, and
            // firing them again (an audit row of the undo) would make the undo inexact and the
            // redo collide with it. The history triggers are off with them: readers get a reset.
            try database.checkUnchangedSince(log)
            let triggersOff = try store.hasTriggersBesidesHistory()
            let (_, reverted) = try database.recordingChanges(excluding: unloggedTables) { _ in
                if triggersOff {
                    try database.withTriggersOff { try database.revert(log) }
                } else {
                    try database.revert(log)
                }
            }
            if triggersOff { try store.recordReset() }
            try runDidWriteHook(write)
            // What to publish and reload is read before the commit: after it, nothing is read.
            var changes = changeSet(of: rowChanges(of: reverted))
            let reloaded = try readRegistered(
                Array(changes.inserted) + Array(changes.updated.keys) + Array(changes.deleted)
            )
            for (id, keys) in try toOnePropagation(of: changes.updated, trustingLinks: false) {
                changes.addUpdate(id, keys: keys)
            }
            try store.pruneHistory()
            let end = try store.historyPosition()
            return (end > start ? (start + 1)...end : nil, reverted, changes, reloaded)
        }
        store.localChangeCounter &+= 1
        historyReader?.noteOwnWrite(range, counterBefore: counterBefore)
        let before = memory(of: reloaded.objects, ownWrite: range)
        apply(reloaded)
        var published = changes
        published.writtenRows = WrittenRows(reverted, model: model)
        publishWhenCommitted(published, restoringOtherwise: before)
        return (reverted, published)
    }

    /// The logged changes of the model's rows, one per row and state (an update that moved
    /// a row to another row id: a delete and an insert), updates naming only changed columns.
    private func rowChanges(of log: RowChangeLog) -> [RowChange] {
        var entities: [String: Entity?] = [:]
        var result: [RowChange] = []
        for change in log.changes {
            let name = change.table.name
            if entities[name] == nil {
                entities[name] = .some(
                    model.entities.first {
                        !$0.numbersRowsByPosition && $0.tableName == name && change.table.schema == "main"
                    }
                )
            }
            guard let entity = entities[name] ?? nil else { continue }
            func row(_ values: [String: StoreValue]?, _ rowID: Int64) -> [String: StoreValue]? {
                guard var values else { return nil }
                values[entity.idColumn] = .integer(rowID)
                return values
            }
            let before = row(change.old, change.oldRowID)
            let after = row(change.new, change.newRowID)
            if change.kind == .update, change.oldRowID == change.newRowID, let before, let after {
                let changed = Set(after.keys.filter { before[$0] != after[$0] })
                guard !changed.isEmpty else { continue }
                result.append(
                    RowChange(
                        entity: entity.name,
                        rowID: change.newRowID,
                        before: before.filter { changed.contains($0.key) },
                        after: after.filter { changed.contains($0.key) }
                    )
                )
                continue
            }
            if before != nil {
                result.append(RowChange(entity: entity.name, rowID: change.oldRowID, before: before, after: nil))
            }
            if after != nil {
                result.append(RowChange(entity: entity.name, rowID: change.newRowID, before: nil, after: after))
            }
        }
        return result
    }

    /// The change set of `steps` (in the order they happened), before to-one propagation.
    private func changeSet(of steps: [RowChange]) -> ChangeSet {
        var changes = ChangeSet()
        var partners: [ObjectID: Set<String>] = [:]
        for step in steps {
            guard let entity = model.entity(named: step.entity) else { continue }
            let id = ObjectID(entity: entity.name, rowID: step.rowID)
            let current = step.before
            let target = step.after
            switch (current, target) {
            case (nil, _?):
                changes.deleted.remove(id)
                changes.inserted.insert(id)
            case (_?, nil):
                changes.inserted.remove(id)
                changes.deleted.insert(id)
            case (_?, let row?):
                let keys = Set(row.keys.compactMap { entity.key(forColumn: $0) })
                changes.updated[id, default: []].formUnion(withDerivedKeys(keys, of: entity))
            case (nil, nil): continue
            }
            for i in entity.foreignKeyRelationships {
                let rel = entity.relationships[i]
                let old = current?[rel.columnName]?.int64
                let new = target?[rel.columnName]?.int64
                guard old != new || current == nil || target == nil else { continue }
                for rowID in [old, new].compactMap({ $0 }) {
                    partners[ObjectID(entity: rel.destination, rowID: rowID), default: []].insert(rel.inverse)
                }
            }
        }
        for id in changes.inserted.union(changes.deleted) { changes.updated.removeValue(forKey: id) }
        for (id, keys) in partners { changes.addUpdate(id, keys: keys) }
        return changes
    }

    // MARK: Other processes

    /// Picks up writes made by other processes or connections since the last
    /// call: cheap when nothing changed (one `PRAGMA data_version`). Refreshes
    /// registered objects, then publishes and returns the change set (nil when
    /// there was nothing). A reset is reported when this context's history
    /// position was pruned or a bulk write happened: refetch everything.
    @discardableResult
    public func processExternalChanges() throws -> ChangeSet? {
        if historyReader == nil { historyReader = try HistoryReader(store: store) }
        guard let reader = historyReader, var changes = try reader.changes() else { return nil }
        if changes.isReset {
            try reload(registry.compactMap { $0.value.object == nil || $0.key.isTemporary ? nil : $0.key })
            publish(changes)
            return changes
        }
        // A 'U' may name a row that no longer exists (an orphan written with foreign keys off).
        let existing = try existingIDs(Array(changes.updated.keys))
        for id in changes.updated.keys where !existing.contains(id) { changes.updated.removeValue(forKey: id) }
        try reload(Array(changes.updated.keys) + Array(changes.deleted) + Array(changes.inserted))
        guard !changes.isEmpty else { return nil }
        publish(changes)
        return changes
    }

    /// Re-reads the registered objects among `ids`; those whose rows are gone become deleted.
    private func reload(_ ids: [ObjectID]) throws {
        apply(try readRegistered(ids))
    }

    /// The rows of registered objects, read (by ``readRegistered(_:)``) but not yet applied.
    private struct ReloadedRows {
        var objects: [ManagedObject] = []
        var rows: [ObjectID: [StoreValue]] = [:]
    }

    /// Reads the rows of the registered objects among `ids`, changing no object.
    private func readRegistered(_ ids: [ObjectID]) throws -> ReloadedRows {
        var byEntity: [String: [Int64]] = [:]
        var reloaded = ReloadedRows()
        for id in ids {
            guard let object = registered(id), !id.isTemporary else { continue }
            reloaded.objects.append(object)
            byEntity[id.entity, default: []].append(id.rowID)
        }
        for (name, rowIDs) in byEntity {
            guard let entity = model.entity(named: name) else { continue }
            try forEachRow(of: entity, rowIDs: rowIDs) { row in
                reloaded.rows[ObjectID(entity: name, rowID: row.int64(at: 0))] = row.row()
            }
        }
        return reloaded
    }

    /// Refreshes the objects from their rows; those whose rows were gone become deleted.
    private func apply(_ reloaded: ReloadedRows) {
        for object in reloaded.objects {
            if let row = reloaded.rows[object.objectID] {
                refresh(object) { row[Int($0)] }
            } else {
                discardGone(object)
            }
        }
    }

    /// An object whose row is gone becomes deleted and leaves the context, its changes dropped.
    func discardGone(_ object: ManagedObject) {
        object.isDeleted = true
        object.changedKeys = []
        object.editBase = nil
        dirty.removeValue(forKey: ObjectIdentifier(object))
        unregister(object)
    }

    /// Splits row ids into `IN (?,…)` lists of at most 512, padded to a power of two
    /// (repeating the last id) so that only ten distinct statements reach the cache.
    static func inListChunks(_ rowIDs: [Int64]) -> [(placeholders: String, arguments: [StoreValue])] {
        var chunks: [(String, [StoreValue])] = []
        var start = 0
        while start < rowIDs.count {
            let end = min(start + 512, rowIDs.count)
            var size = 1
            while size < end - start { size *= 2 }
            var arguments = rowIDs[start..<end].map { StoreValue.integer($0) }
            while arguments.count < size { arguments.append(arguments[arguments.count - 1]) }
            chunks.append((Array(repeating: "?", count: size).joined(separator: ","), arguments))
            start = end
        }
        return chunks
    }

    private func existingIDs(_ ids: [ObjectID]) throws -> Set<ObjectID> {
        var byEntity: [String: [Int64]] = [:]
        for id in ids { byEntity[id.entity, default: []].append(id.rowID) }
        var found = Set<ObjectID>()
        for (name, rowIDs) in byEntity {
            guard let entity = model.entity(named: name) else { continue }
            for (placeholders, arguments) in ObjectContext.inListChunks(rowIDs) {
                try database.forEachRow(
                    "SELECT \(entity.sqlIDColumn) FROM \(entity.sqlTable) WHERE \(entity.sqlIDColumn) IN (\(placeholders))",
                    arguments
                ) { row in
                    found.insert(ObjectID(entity: name, rowID: row.int64(at: 0)))
                }
            }
        }
        return found
    }

    // MARK: Observers

    /// Calls `body` with each published change set (own saves, undo/redo, other processes).
    @discardableResult
    public func addObserver(_ body: @escaping (ChangeSet) -> Void) -> ObserverToken {
        let token = ObserverToken(id: nextObserverID)
        nextObserverID += 1
        observers.append((token, body))
        return token
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        observers.removeAll { $0.token == token }
    }

    func publish(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        for observer in observers { observer.body(changes) }
    }
}
