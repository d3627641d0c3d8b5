import Foundation

/// One object of a context: a row's values, with changes tracked until save.
///
/// A context holds at most one `ManagedObject` per row (identity map). Reading
/// a key returns the attribute's value (or a derived attribute's computed
/// value); setting one marks the key changed. To-one relationships are read
/// with ``related(_:)`` and set with ``setRelated(_:for:)``, which keeps the
/// inverse side in step.
///
///     let book = context.insert(into: "Book")
///     book["name"] = .text("Dune")
///     let details = context.insert(into: "BookDetails")
///     details["publishedOn"] = .date(Date())
///     details.setRelated(book, for: "book")
///     try context.save()
///     book.value(forKeyPath: "details.publishedOn") // .text("2026-…")
public final class ManagedObject {
    /// A relationship's state: not yet looked up, known empty, or pointing at an object.
    enum Link: Equatable {
        case unknown
        case none
        case object(ObjectID)

        var id: ObjectID? { if case .object(let id) = self { return id } else { return nil } }
    }

    /// The entity of the object (its attributes, relationships and table).
    public let entity: Entity
    /// Temporary (negative row id) until the first save, permanent afterwards.
    public internal(set) var objectID: ObjectID
    /// The context that owns the object (nil once the context is gone).
    public internal(set) weak var context: ObjectContext?

    var values: [StoreValue]
    var committedValues: [StoreValue]
    var links: [Link]
    var committedLinks: [Link]
    /// Attribute and relationship names changed since the last save.
    public internal(set) var changedKeys: Set<String> = []
    /// Inserted and not yet saved.
    public internal(set) var isInserted = false
    /// Deleted (pending save, or deleted from the store).
    public internal(set) var isDeleted = false
    /// The committed state when the first unsaved change was made (nil without changes, and
    /// for an inserted object): the save checks that the row still holds it (``SaveConflict``).
    var editBase: (values: [StoreValue], links: [Link])?

    init(entity: Entity, id: ObjectID, context: ObjectContext) {
        self.entity = entity
        self.objectID = id
        self.context = context
        self.values = entity.attributes.map { $0.defaultValue ?? .null }
        self.committedValues = self.values
        self.links = Array(repeating: .unknown, count: entity.relationships.count)
        self.committedLinks = self.links
    }

    /// True when the object has unsaved changes (inserted, deleted or updated).
    public var hasChanges: Bool { isInserted || isDeleted || !changedKeys.isEmpty }

    // MARK: Values

    /// The value of an attribute or derived attribute; `id` (or the id column's name, `rowid`, when no
    /// attribute has it) gives the row id,
    /// a relationship name the related row id (or NULL). Setting marks the key changed.
    public subscript(key: String) -> StoreValue {
        get {
            if let i = entity.attributeIndex[key] { return values[i] }
            if let i = entity.derivedIndex[key] {
                return entity.derived[i].compute { [unowned self] name in self.value(forKeyPath: name) }
            }
            if let i = entity.relationshipIndex[key] {
                if let id = relatedID(i) { return .integer(id.rowID) }
                return .null
            }
            if key == "id" || key == entity.idColumn { return .integer(objectID.rowID) }
            return .null
        }
        set {
            if let i = entity.attributeIndex[key], entity.attributes[i].isGenerated {
                context?.recordError(.validation(entity: entity.name, key: key, reason: "is a generated column"))
            } else if let i = entity.attributeIndex[key] {
                setValue(newValue, at: i)
            } else if let i = entity.relationshipIndex[key] {
                switch newValue {
                case .null: setRelated(nil, for: key)
                case .integer(let rowID):
                    let destination = entity.relationships[i].destination
                    if let target = try? context?.object(with: ObjectID(entity: destination, rowID: rowID)) {
                        setRelated(target, for: key)
                    } else {
                        context?.recordError(
                            .validation(entity: entity.name, key: key, reason: "no \(destination) with id \(rowID)")
                        )
                    }
                default:
                    context?.recordError(
                        .validation(entity: entity.name, key: key, reason: "a relationship takes a row id or NULL")
                    )
                }
            } else if entity.derivedIndex[key] != nil {
                context?.recordError(
                    .validation(entity: entity.name, key: key, reason: "derived attributes are read-only")
                )
            } else {
                context?.recordError(.unknownKeyPath(key, entity: entity.name))
            }
        }
    }

    func setValue(_ value: StoreValue, at i: Int) {
        values[i] = value
        let key = entity.attributes[i].name
        if isInserted || values[i] != committedValues[i] {
            changedKeys.insert(key)
        } else {
            changedKeys.remove(key)
        }
        context?.noteChange(self)
    }

    /// Reads through to-one relationships: `"details.publishedOn"`; NULL when a link is nil. An
    /// attribute (or derived attribute) whose name is the whole key path comes first: a column of an
    /// existing table may have a dot in its name (`user.email`), as ``SQLSource`` reads it too.
    public func value(forKeyPath keyPath: String) -> StoreValue {
        guard let dot = keyPath.firstIndex(of: "."), entity.attributeIndex[keyPath] == nil,
            entity.derivedIndex[keyPath] == nil
        else { return self[keyPath] }
        let head = String(keyPath[..<dot])
        guard let i = entity.relationshipIndex[head], let next = related(i) else { return .null }
        return next.value(forKeyPath: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// The value as text, nil when NULL or not text.
    public func string(_ key: String) -> String? { value(forKeyPath: key).string }
    /// The value as an integer, nil when NULL or not integral.
    public func int(_ key: String) -> Int64? { value(forKeyPath: key).int64 }
    /// The value as a real, nil when NULL or not numeric.
    public func double(_ key: String) -> Double? { value(forKeyPath: key).double }
    /// The value as a bool (0/1), nil when NULL.
    public func bool(_ key: String) -> Bool? { value(forKeyPath: key).bool }
    /// The value as a date, parsed from the stored ISO text.
    public func date(_ key: String) -> Date? {
        guard let s = value(forKeyPath: key).string else { return nil }
        return StoreDate.dateTime(from: s)
    }

    // MARK: Relationships

    /// The object at the other end of a to-one relationship, nil when none.
    public func related(_ relationship: String) -> ManagedObject? {
        guard let i = entity.relationshipIndex[relationship] else {
            context?.recordError(.unknownKeyPath(relationship, entity: entity.name))
            return nil
        }
        return related(i)
    }

    func related(_ i: Int) -> ManagedObject? {
        (try? relatedThrowing(i)) ?? nil
    }

    func relatedThrowing(_ i: Int) throws -> ManagedObject? {
        guard let context, let id = try relatedIDThrowing(i) else { return nil }
        return try context.object(with: id)
    }

    /// The related object's ID without loading it (looked up once for the inverse side).
    func relatedID(_ i: Int) -> ObjectID? {
        (try? relatedIDThrowing(i)) ?? nil
    }

    func relatedIDThrowing(_ i: Int) throws -> ObjectID? {
        if case .unknown = links[i] {
            guard let context else { return nil }
            let link = try context.lookUpLink(of: self, relationship: i)
            links[i] = link
            if !changedKeys.contains(entity.relationships[i].name) { committedLinks[i] = link }
        }
        return links[i].id
    }

    /// Points a to-one relationship at `object` (or clears it), keeping the
    /// inverse in step: the previous partners on both sides are unlinked.
    public func setRelated(_ object: ManagedObject?, for relationship: String) {
        guard let i = entity.relationshipIndex[relationship] else {
            context?.recordError(.unknownKeyPath(relationship, entity: entity.name))
            return
        }
        let rel = entity.relationships[i]
        if let object {
            guard object.context === context, object.entity.name == rel.destination,
                let j = object.entity.relationshipIndex[rel.inverse]
            else {
                context?.recordError(
                    .validation(
                        entity: entity.name,
                        key: relationship,
                        reason: "\(object.objectID) cannot be its destination"
                    )
                )
                return
            }
            let old = related(i)
            if old === object { return }
            if let old, let k = old.entity.relationshipIndex[rel.inverse] { old.setLink(.none, at: k) }
            if let theirs = object.related(j), theirs !== self { theirs.setLink(.none, at: i) }
            object.setLink(.object(objectID), at: j)
            setLink(.object(object.objectID), at: i)
        } else {
            guard let old = related(i) else {
                setLink(.none, at: i)
                return
            }
            if let k = old.entity.relationshipIndex[rel.inverse] { old.setLink(.none, at: k) }
            setLink(.none, at: i)
        }
    }

    /// Sets a link and tracks the change (no inverse handling).
    func setLink(_ link: Link, at i: Int) {
        if case .unknown = links[i], !changedKeys.contains(entity.relationships[i].name), let context {
            // Learn the committed state first, so that "changed" is decided against the truth.
            if let known = try? context.lookUpLink(of: self, relationship: i) { committedLinks[i] = known }
        }
        links[i] = link
        let key = entity.relationships[i].name
        if isInserted || links[i] != committedLinks[i] {
            changedKeys.insert(key)
        } else {
            changedKeys.remove(key)
        }
        context?.noteChange(self)
    }

    /// Forgets the partners of the relationships whose foreign key the other side stores
    /// (`book.details`), so that they are looked up again when next read.
    ///
    /// The store decides which row such a link is, not the context's bookkeeping: when rows
    /// written by others (a `sqlite3` shell) point at this object too, it is the one with the
    /// lowest id, as every SQL join reads it (``SQLSource``). After a save that deleted or
    /// unlinked the lowest one, the next-lowest is the partner, not none.
    func forgetInverseLinks() {
        for i in links.indices where !entity.relationships[i].storesForeignKey {
            links[i] = .unknown
            committedLinks[i] = .unknown
        }
    }

    /// Replaces a temporary ID with the permanent one in this object's links.
    func remapLinks(_ map: [ObjectID: ObjectID]) {
        for i in links.indices {
            if let id = links[i].id, let permanent = map[id] { links[i] = .object(permanent) }
        }
    }

    /// The stored columns in ``Entity/columnNames`` order (without `id`), from the current or committed state.
    func columnValues(committed: Bool, resolve: (ObjectID) -> Int64?) -> [StoreValue] {
        var row = committed ? committedValues : values
        let source = committed ? committedLinks : links
        for i in entity.foreignKeyRelationships {
            if let id = source[i].id, let rowID = resolve(id) { row.append(.integer(rowID)) } else { row.append(.null) }
        }
        return row
    }
}

extension ManagedObject: CustomStringConvertible {
    public var description: String {
        var fields = entity.attributes.indices.map { "\(entity.attributes[$0].name): \(values[$0])" }
        for i in entity.foreignKeyRelationships {
            fields.append("\(entity.relationships[i].name): \(links[i].id?.description ?? "nil")")
        }
        let state = isInserted ? " inserted" : isDeleted ? " deleted" : changedKeys.isEmpty ? "" : " changed"
        return "<\(objectID)\(state) \(fields.joined(separator: ", "))>"
    }
}
