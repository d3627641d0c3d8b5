import Foundation

/// Changing: the part of ``ObjectContext`` that deletes objects (with their delete rules) and rolls back unsaved changes.
extension ObjectContext {
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
    func applyDeleteRules() throws {
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
    func insertionOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
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
}
