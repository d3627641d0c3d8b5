extension Model {
    /// The relationship path and the last name of `keyPath`; a name of `root` with a dot in it (a
    /// column of an existing table, `user.email`, or a key derived from one) is a name, not a path.
    package static func split(_ keyPath: String, root: Entity) -> (prefix: String, name: String) {
        if root.isForeign, root.attribute(named: keyPath) != nil || root.derivedAttribute(named: keyPath) != nil {
            return ("", keyPath)
        }
        guard let dot = keyPath.lastIndex(of: ".") else { return ("", keyPath) }
        return (String(keyPath[..<dot]), String(keyPath[keyPath.index(after: dot)...]))
    }

    /// The entity at the end of the relationship path `prefix` from `root` (`root` when it is
    /// empty; nil when a name on the way is not a relationship).
    package func entity(at prefix: String, root: Entity) -> Entity? {
        var e = root
        guard !prefix.isEmpty else { return e }
        for part in prefix.split(separator: ".") {
            guard let r = e.relationship(named: String(part)), let next = entity(named: r.destination) else {
                return nil
            }
            e = next
        }
        return e
    }

    /// The derived attribute `keyPath` names from `root`, nil when it names a stored one.
    package func derivedAttribute(atKeyPath keyPath: String, root: Entity) -> DerivedAttribute? {
        let (prefix, name) = Model.split(keyPath, root: root)
        return entity(at: prefix, root: root)?.derivedAttribute(named: name)
    }
}
