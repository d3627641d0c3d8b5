import Foundation

/// Other processes: the part of ``ObjectContext`` that reads other processes' changes from the store's history.
extension ObjectContext {
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
    func reload(_ ids: [ObjectID]) throws {
        apply(try readRegistered(ids))
    }

    /// The rows of registered objects, read (by ``readRegistered(_:)``) but not yet applied.
    struct ReloadedRows {
        var objects: [ManagedObject] = []
        var rows: [ObjectID: [StoreValue]] = [:]
    }

    /// Reads the rows of the registered objects among `ids`, changing no object.
    func readRegistered(_ ids: [ObjectID]) throws -> ReloadedRows {
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
    func apply(_ reloaded: ReloadedRows) {
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

    func existingIDs(_ ids: [ObjectID]) throws -> Set<ObjectID> {
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
}
