/// A kind of object in the model: one table, its attributes and relationships.
///
/// The table is `snake_case(name)` with `id INTEGER PRIMARY KEY`, a column per
/// attribute and a foreign key column per relationship that stores it.
///
///     let info = Entity("FailedBankInfo",
///         attributes: [Attribute("name", .text, indexed: true), Attribute("city", .text), Attribute("state", .text, indexed: true)],
///         relationships: [Relationship("details", destination: "FailedBankDetails", inverse: "info",
///                                      deleteRule: .cascade, storesForeignKey: false)],
///         uniqueKeys: [["name", "city"]])
///     info.tableName // "failed_bank_info"
public struct Entity: Sendable {
    /// The entity's name (CamelCase), used in fetch requests and object IDs.
    public var name: String
    /// The stored attributes, one column each.
    public var attributes: [Attribute]
    /// The to-one relationships.
    public var relationships: [Relationship]
    /// Attributes computed from others (not stored).
    public var derived: [DerivedAttribute]
    /// Sets of attribute (or relationship) names whose combined values must be unique.
    public var uniqueKeys: [[String]]
    /// `snake_case(name)`.
    public var tableName: String

    /// Position of each attribute in `attributes`.
    let attributeIndex: [String: Int]
    /// Position of each relationship in `relationships`.
    let relationshipIndex: [String: Int]
    /// Position of each derived attribute in `derived`.
    let derivedIndex: [String: Int]
    /// Indexes (into `relationships`) of the relationships that store a foreign key, in column order.
    let foreignKeyRelationships: [Int]

    /// An entity; the table name is derived from `name`.
    public init(_ name: String, attributes: [Attribute], relationships: [Relationship] = [],
                derived: [DerivedAttribute] = [], uniqueKeys: [[String]] = []) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.derived = derived
        self.uniqueKeys = uniqueKeys
        self.tableName = snakeCase(name)
        var a: [String: Int] = [:]
        for (i, x) in attributes.enumerated() where a[x.name] == nil { a[x.name] = i }
        var r: [String: Int] = [:]
        for (i, x) in relationships.enumerated() where r[x.name] == nil { r[x.name] = i }
        var d: [String: Int] = [:]
        for (i, x) in derived.enumerated() where d[x.name] == nil { d[x.name] = i }
        attributeIndex = a
        relationshipIndex = r
        derivedIndex = d
        foreignKeyRelationships = relationships.indices.filter { relationships[$0].storesForeignKey }
    }

    /// The attribute called `name`, nil when there is none.
    public func attribute(named name: String) -> Attribute? { attributeIndex[name].map { attributes[$0] } }
    /// The relationship called `name`, nil when there is none.
    public func relationship(named name: String) -> Relationship? { relationshipIndex[name].map { relationships[$0] } }
    /// The derived attribute called `name`, nil when there is none.
    public func derivedAttribute(named name: String) -> DerivedAttribute? { derivedIndex[name].map { derived[$0] } }

    /// The table's columns in the order the store reads them: `id`, attributes, foreign keys.
    public var columnNames: [String] {
        ["id"] + attributes.map(\.columnName) + foreignKeyRelationships.map { relationships[$0].columnName }
    }

    /// The column for a stored key (attribute or foreign-key relationship), nil otherwise.
    public func columnName(forKey key: String) -> String? {
        if let i = attributeIndex[key] { return attributes[i].columnName }
        if let i = relationshipIndex[key], relationships[i].storesForeignKey { return relationships[i].columnName }
        if key == "id" { return "id" }
        return nil
    }

    /// The key (attribute or relationship name) stored in a column, nil for `id` or unknown columns.
    public func key(forColumn column: String) -> String? {
        if let a = attributes.first(where: { $0.columnName == column }) { return a.name }
        if let r = relationships.first(where: { $0.storesForeignKey && $0.columnName == column }) { return r.name }
        return nil
    }
}
