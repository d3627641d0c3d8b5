/// Saves never write over another writer's change: an object's row is checked against the
/// state the object was read in before the save writes anything (``SaveConflict``).
extension ObjectContext {
    /// Throws ``StoreError/conflict(_:)`` when the row of an updated or deleted object among
    /// `objects` no longer holds what it held when the object's first unsaved change was made
    /// (or, for an update, is gone). Runs inside the save's transaction, before its writes.
    /// A delete of a row that is gone is left to the delete (``StoreError/alreadyDeleted(table:rowID:)``).
    func checkConflicts(_ objects: [ManagedObject]) throws {
        var conflicts: [SaveConflict] = []
        for object in objects {
            guard let base = object.editBase, !object.isInserted, !object.entity.numbersRowsByPosition,
                object.isDeleted || writesColumns(object)
            else { continue }
            guard let keys = try keysChanged(in: object.entity, rowID: object.objectID.rowID, since: base) else {
                if !object.isDeleted {
                    conflicts.append(SaveConflict(objectID: object.objectID, changedKeys: [], rowIsGone: true))
                }
                continue
            }
            if !keys.isEmpty {
                conflicts.append(SaveConflict(objectID: object.objectID, changedKeys: keys, rowIsGone: false))
            }
        }
        if !conflicts.isEmpty { throw StoreError.conflict(conflicts.sorted { $0.objectID < $1.objectID }) }
    }

    /// Whether saving `object` writes a column (a to-one change on the side without the
    /// foreign key writes none of the object's own).
    private func writesColumns(_ object: ManagedObject) -> Bool {
        let entity = object.entity
        return object.changedKeys.contains { key in
            entity.attributeIndex[key] != nil
                || entity.relationshipIndex[key].map { entity.relationships[$0].storesForeignKey } == true
        }
    }

    /// The keys whose stored value differs from `base` in row `rowID` (nil when there is no such
    /// row). Compared by SQLite, with the column's affinity and byte for byte (`COLLATE BINARY`),
    /// so that a value written as text into an INTEGER column compares as the file stores it.
    private func keysChanged(
        in entity: Entity,
        rowID: Int64,
        since base: (values: [StoreValue], links: [ManagedObject.Link])
    ) throws -> Set<String>? {
        let columns = Array(entity.columnNames.dropFirst())
        let flags = columns.map { "t0.\(SQLIdentifier.quoted($0)) IS ? COLLATE BINARY" }.joined(separator: ", ")
        let sql =
            "SELECT \(flags.isEmpty ? "1" : flags) FROM \(entity.sqlTable) AS t0 WHERE t0.\(entity.sqlIDColumn) = ?"
        let fks = entity.foreignKeyRelationships
        let arguments =
            base.values
            + fks.map { i in base.links[i].id.map { StoreValue.integer($0.rowID) } ?? .null }
            + [.integer(rowID)]
        var keys: Set<String>?
        try database.forEachRow(sql, flags.isEmpty ? [.integer(rowID)] : arguments) { row in
            var changed = Set<String>()
            for (i, attribute) in entity.attributes.enumerated() where row.int64(at: Int32(i)) == 0 {
                changed.insert(attribute.name)
            }
            for (k, i) in fks.enumerated() where base.links[i] != .unknown {
                if row.int64(at: Int32(entity.attributes.count + k)) == 0 {
                    changed.insert(entity.relationships[i].name)
                }
            }
            keys = changed
        }
        return keys
    }

    /// Settles an object the last save refused over (``StoreError/conflict(_:)``): the object
    /// is read again, and `resolution` decides what the next save writes — its own changes on
    /// top of the row as the other writer left it, or the object as the context shows it over
    /// the row. The next ``save()`` then checks the row against this reading.
    ///
    ///     do { try context.save() } catch StoreError.conflict(let conflicts) {
    ///         // Ask the user; then, for "keep both":
    ///         for conflict in conflicts {
    ///             if let object = try context.object(with: conflict.objectID) {
    ///                 try context.resolveConflict(of: object, by: .reloadAndReapply)
    ///             }
    ///         }
    ///         try context.save()
    ///     }
    ///
    /// - Throws: ``StoreError/alreadyDeleted(table:rowID:)`` when the row is gone: the object
    ///   leaves the context (deleted) with its changes.
    public func resolveConflict(of object: ManagedObject, by resolution: SaveConflict.Resolution) throws {
        guard object.context === self, !object.isInserted, !object.objectID.isTemporary else { return }
        var row: [StoreValue]?
        try forEachRow(of: object.entity, rowIDs: [object.objectID.rowID]) { row = $0.row() }
        guard let row else {
            discardGone(object)
            throw StoreError.alreadyDeleted(table: object.entity.tableName, rowID: object.objectID.rowID)
        }
        let shown = (values: object.values, links: object.links)
        refresh(object) { row[Int($0)] }
        object.editBase = (object.committedValues, object.committedLinks)
        let entity = object.entity
        if resolution == .overwrite {
            object.values = shown.values
            for i in entity.foreignKeyRelationships { object.links[i] = shown.links[i] }
        }
        // What differs from the row now is what the next save writes.
        for (i, attribute) in entity.attributes.enumerated() {
            if object.values[i] != object.committedValues[i] {
                object.changedKeys.insert(attribute.name)
            } else {
                object.changedKeys.remove(attribute.name)
            }
        }
        for i in entity.foreignKeyRelationships where object.links[i] != .unknown {
            let name = entity.relationships[i].name
            if object.links[i] != object.committedLinks[i] {
                object.changedKeys.insert(name)
            } else {
                object.changedKeys.remove(name)
            }
        }
        noteChange(object)
    }
}
