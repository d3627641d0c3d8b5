/// The FROM clause and column expressions for reading key paths of one entity.
///
/// Key paths through to-one relationships become LEFT JOINs (a missing link
/// gives NULL, as the Swift side's ``ManagedObject/value(forKeyPath:)`` does);
/// derived attributes expand to their SQL with the right alias. Made by
/// ``Model/sqlSource(root:keyPaths:)``.
///
/// A join never multiplies the root's rows. Through the side that stores the
/// foreign key (`details.info`) it follows a primary key, so it finds at most
/// one row. Through the other side (`book.details`, reading `book_details.book_id`)
/// nothing but a unique index stops several rows pointing at the same object
/// (a `sqlite3` shell can insert them). When the destination's model has a unique
/// key on that foreign key (and the store enforces it: ``Store/model`` leaves out a
/// key the file holds only as a plain index), the join is a plain one. Otherwise it
/// keeps only the row with the lowest id — the row ``ManagedObject/related(_:)`` reads in Swift:
/// `… ON t1.book_id = t0.id AND NOT EXISTS (SELECT 1 FROM book_details AS t1x
/// WHERE t1x.book_id = t1.book_id AND t1x.id < t1.id)`. The test names only `t1`, so
/// SQLite may still run the join from `t1`'s side (from an index on a sorted
/// column of it) and it costs one probe of the foreign key's index per row.
///
///     var source = try model.sqlSource(root: "Book", keyPaths: ["details.publishedYear"])
///     source.from                                          // "book AS t0 LEFT JOIN book_details AS t1 ON t1.book_id = t0.id AND NOT EXISTS (…)"
///     try source.expression(forKeyPath: "details.publishedYear") // "substr(t1.published_on, 1, 4)"
///     try source.expression(forKeyPath: "name")              // "t0.name"
public struct SQLSource: Sendable {
    /// `<root table> AS t0 [LEFT JOIN <table> AS tN ON …]…`
    public private(set) var from: String
    /// The root entity's alias, `t0`.
    public let rootAlias = "t0"
    /// The root entity.
    public let root: Entity
    let model: Model
    /// Alias of each joined relationship path ("details", "details.book").
    private(set) var aliases: [String: String] = [:]

    init(model: Model, root: Entity) {
        self.model = model
        self.root = root
        self.from = "\(root.sqlTable) AS t0"
    }

    /// The root row's id as SQL: `t0.id` (`t0.rowid`, `t0."Row ID"` for entities over existing tables).
    public var idExpression: String { rootAlias + "." + root.sqlIDColumn }

    /// Adds the joins a key path needs (``Model/sqlSource(root:keyPaths:)`` calls this for each key path).
    public mutating func add(keyPath: String) throws {
        _ = try resolve(keyPath, addJoins: true)
    }

    /// The SQL expression of a key path: a column (`t1.published_on`), a derived
    /// attribute's expanded SQL, `tN.id` for `id`, or the related row's id for a relationship.
    public func expression(forKeyPath keyPath: String) throws -> String {
        var copy = self
        return try copy.resolve(keyPath, addJoins: false).expression
    }

    /// The attribute type of a key path (`.integer` for `id` and relationships).
    public func type(forKeyPath keyPath: String) throws -> AttributeType {
        var copy = self
        return try copy.resolve(keyPath, addJoins: false).type
    }

    /// The type affinity of ``expression(forKeyPath:)`` in a comparison: the column's
    /// (``Attribute/affinity``; integer for `id` and relationships), nil for a derived attribute,
    /// whose SQL is an expression without one (a predicate writes it as `+(…)` to make sure), and
    /// for the position that numbers a view's rows.
    ///
    ///     try source.affinity(forKeyPath: "name")                    // .text
    ///     try source.affinity(forKeyPath: "details.publishedYear")   // nil
    public func affinity(forKeyPath keyPath: String) throws -> TypeAffinity? {
        var copy = self
        return try copy.resolve(keyPath, addJoins: false).affinity
    }

    private mutating func resolve(
        _ keyPath: String,
        addJoins: Bool
    ) throws -> (expression: String, type: AttributeType, affinity: TypeAffinity?) {
        // A column of an existing table may have a dot in its name: the whole key path first.
        if root.isForeign, let a = root.attribute(named: keyPath) {
            return (rootAlias + "." + a.sqlColumn, a.type, a.affinity)
        }
        // And a key derived from such a column (`year(user.email)`).
        if root.isForeign, keyPath.contains("."), let d = root.derivedAttribute(named: keyPath) {
            return ("(" + d.expression(alias: rootAlias) + ")", d.type, nil)
        }
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var entity = root
        var alias = rootAlias
        var path = ""
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            if isLast {
                if let a = entity.attribute(named: part) { return (alias + "." + a.sqlColumn, a.type, a.affinity) }
                // `id`, or the id column's own name for a table whose columns have an `id` (`rowid`).
                if part == "id" || part == entity.idColumn {
                    // A view's position (`row_number()` of a subquery) has no affinity.
                    return (alias + "." + entity.sqlIDColumn, .integer, entity.numbersRowsByPosition ? nil : .integer)
                }
                if let d = entity.derivedAttribute(named: part) {
                    return ("(" + d.expression(alias: alias) + ")", d.type, nil)
                }
            }
            guard let rel = entity.relationship(named: part), let dest = model.entity(named: rel.destination) else {
                throw StoreError.unknownKeyPath(keyPath, entity: root.name)
            }
            if isLast && rel.storesForeignKey {
                return (alias + "." + SQLIdentifier.quoted(rel.columnName), .integer, .integer)
            }
            path = path.isEmpty ? part : path + "." + part
            let nextAlias: String
            if let known = aliases[path] {
                nextAlias = known
            } else {
                guard addJoins else { throw StoreError.unknownKeyPath(keyPath, entity: root.name) }
                nextAlias = "t\(aliases.count + 1)"
                aliases[path] = nextAlias
                var on: String
                if rel.storesForeignKey {
                    on = "\(nextAlias).\(dest.sqlIDColumn) = \(alias).\(SQLIdentifier.quoted(rel.columnName))"
                } else {
                    guard let inverse = dest.relationship(named: rel.inverse) else {
                        throw StoreError.unknownKeyPath(keyPath, entity: root.name)
                    }
                    on = "\(nextAlias).\(SQLIdentifier.quoted(inverse.columnName)) = \(alias).\(entity.sqlIDColumn)"
                    if !dest.uniqueKeys.contains([inverse.name]) {
                        on += SQLSource.lowestIDCondition(
                            alias: nextAlias,
                            table: dest.sqlTable,
                            foreignKey: SQLIdentifier.quoted(inverse.columnName),
                            idColumn: dest.sqlIDColumn
                        )
                    }
                }
                from += " LEFT JOIN \(dest.sqlTable) AS \(nextAlias) ON \(on)"
            }
            if isLast { return (nextAlias + "." + dest.sqlIDColumn, .integer, .integer) }
            entity = dest
            alias = nextAlias
        }
        throw StoreError.unknownKeyPath(keyPath, entity: root.name)
    }

    /// ` AND NOT EXISTS (…)`: the row at `alias` is the lowest-id one of the rows of `table`
    /// whose `foreignKey` holds the same value (see the type's description).
    static func lowestIDCondition(alias: String, table: String, foreignKey: String, idColumn: String = "id") -> String {
        let other = alias + "x"
        return
            " AND NOT EXISTS (SELECT 1 FROM \(table) AS \(other) WHERE \(other).\(foreignKey) = \(alias).\(foreignKey) AND \(other).\(idColumn) < \(alias).\(idColumn))"
    }
}
