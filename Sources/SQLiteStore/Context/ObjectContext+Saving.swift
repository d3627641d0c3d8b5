import Foundation

/// Saving: the part of ``ObjectContext`` that writes the pending changes in one transaction and publishes what they changed.
extension ObjectContext {
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
    func throwPendingError() throws {
        guard let error = pendingErrors.first else { return }
        pendingErrors.removeAll()
        throw error
    }

    /// Every object that stays has a value for each of its required attributes.
    func checkRequiredAttributes(of objects: [ManagedObject]) throws {
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
    func writeTransaction(
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

    /// The link's row id as it is written: a new object's permanent one, nil for a deleted one.
    func resolve(_ id: ObjectID) -> Int64? {
        if let target = registered(id), target.isDeleted { return nil }
        return id.isTemporary ? permanent[id] : id.rowID
    }

    /// The SQL of one save: inserts (in dependency order), updates, deletes. An update or a
    /// delete of a row another writer changed since it was read throws ``StoreError/conflict(_:)``
    /// before anything is written. A delete that finds its row gone — not removed by this
    /// save's own cascades — throws ``StoreError/alreadyDeleted(table:rowID:)``: another
    /// process deleted it first.
    func write(
        inserts: [ManagedObject],
        updates: [ManagedObject],
        deletes: [ManagedObject],
        recorder: PreupdateRecorder
    ) throws {
        permanent = [:]
        filledByInsert = [:]
        try checkConflicts(updates + deletes)
        let unresolved = try insertRows(of: inserts)
        try linkInsertedRows(unresolved)
        for object in updates { try updateRow(of: object) }
        for object in deletes { try deleteRow(of: object, recorder: recorder) }
    }

    /// Inserts each new object's row, noting its row id; returns those whose foreign keys
    /// point at a new object not inserted yet (a cycle between new objects).
    func insertRows(of inserts: [ManagedObject]) throws -> [ManagedObject] {
        var unresolved: [ManagedObject] = []
        for object in inserts {
            let entity = object.entity
            let pointsAtUnsaved = entity.foreignKeyRelationships.contains { i in
                guard let id = object.links[i].id, id.isTemporary, permanent[id] == nil else { return false }
                return registered(id).map { !$0.isDeleted } ?? false
            }
            try insertRow(of: object)
            permanent[object.objectID] = database.lastInsertRowID
            if pointsAtUnsaved { unresolved.append(object) }
        }
        return unresolved
    }

    /// Inserts one new object's row naming only the attributes that were set (and its foreign
    /// keys), as `sqlite3` would: an unset column takes its DEFAULT, a generated one is left to
    /// SQLite. The values SQLite chose for the others are read back into
    /// ``filledByInsert``, so that the object holds what the file holds once saved.
    func insertRow(of object: ManagedObject) throws {
        let entity = object.entity
        let row = object.columnValues(committed: false, resolve: resolve)
        let set = entity.attributes.indices.filter {
            object.changedKeys.contains(entity.attributes[$0].name) && !entity.attributes[$0].isGenerated
        }
        let unset = entity.attributes.indices.filter { !set.contains($0) }
        let foreignKeys = entity.foreignKeyRelationships.indices.map { entity.attributes.count + $0 }
        let written = set + foreignKeys
        let names = Array(entity.columnNames.dropFirst())
        let columns = written.map { names[$0] }
        let sql =
            columns.isEmpty
            ? "INSERT INTO \(entity.sqlTable) DEFAULT VALUES"
            : "INSERT INTO \(entity.sqlTable)(\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        try database.run(sql, written.map { row[$0] })
        guard !unset.isEmpty else { return }
        // Read as a SELECT reads it: RETURNING gives a generated column's value before its
        // column's affinity (a REAL column's 6 as an integer).
        let values =
            try database.query(
                "SELECT \(unset.map { entity.attributes[$0].sqlColumn }.joined(separator: ", ")) FROM \(entity.sqlTable)"
                    + " WHERE \(entity.sqlIDColumn) = ?",
                [.integer(database.lastInsertRowID)]
            ).first ?? []
        filledByInsert[ObjectIdentifier(object)] = Dictionary(uniqueKeysWithValues: zip(unset, values))
    }

    /// Sets the foreign keys of new objects in a cycle, once every new row has its id.
    func linkInsertedRows(_ unresolved: [ManagedObject]) throws {
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
    func updateRow(of object: ManagedObject) throws {
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
    func deleteRow(of object: ManagedObject, recorder: PreupdateRecorder) throws {
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
    func assignPermanentIDs(to inserts: [ManagedObject]) -> [ObjectID: ObjectID] {
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
    func commit(_ objects: [ManagedObject], renamed: [ObjectID: ObjectID]) -> ChangeSet {
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
                for (i, value) in filledByInsert[ObjectIdentifier(object)] ?? [:] { object.values[i] = value }
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
    func pushUndo(_ log: RowChangeLog, actionName: String?) {
        if !log.isEmpty {
            undoStack.append(UndoEntry(name: actionName, log: log))
            if undoStack.count > undoLimit { undoStack.removeFirst(undoStack.count - undoLimit) }
        }
        redoStack.removeAll()
    }

    /// Adds the entity's derived attribute names when any attribute changed: they may depend on it.
    func withDerivedKeys(_ keys: Set<String>, of entity: Entity) -> Set<String> {
        guard !entity.derived.isEmpty, keys.contains(where: { entity.attributeIndex[$0] != nil }) else { return keys }
        return keys.union(entity.derived.map(\.name))
    }

    /// The updates that attribute changes of `updated` objects propagate to: the objects that
    /// reach them through a to-one relationship ("details.publishedOn"). Read inside the write
    /// transaction, after its writes; `trustingLinks` takes a registered object's foreign keys
    /// as written (a save), otherwise every partner is looked up (an undo: the registered
    /// objects are not reloaded yet).
    func toOnePropagation(
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
}
