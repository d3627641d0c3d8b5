/// A kind of object in the model: one table, its attributes and relationships.
///
/// The table is `snake_case(name)` with `id INTEGER PRIMARY KEY`, a column per
/// attribute and a foreign key column per relationship that stores it.
///
///     let book = Entity("Book",
///         attributes: [Attribute("name", .text, indexed: true), Attribute("city", .text), Attribute("state", .text, indexed: true)],
///         relationships: [Relationship("details", destination: "BookDetails", inverse: "book",
///                                      deleteRule: .cascade, storesForeignKey: false)],
///         uniqueKeys: [["name", "city"]])
///     book.tableName // "book"
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
    /// The table (or view): `snake_case(name)` for this project's entities, any name for
    /// one over an existing table (``init(_:tableName:idColumn:attributes:derived:)``).
    public var tableName: String
    /// The column whose integer names a row (its ``ObjectID/rowID``): `id` for this
    /// project's entities, `rowid` or the `INTEGER PRIMARY KEY` column for existing tables.
    public var idColumn: String
    /// True for an entity over a table the model did not make (``init(_:tableName:idColumn:attributes:derived:)``):
    /// the store never creates, changes or checks its schema.
    public private(set) var isForeign: Bool
    /// True for an entity over a view, whose rows are numbered by their position in the
    /// view (``init(_:viewName:attributes:derived:positionColumn:)``).
    public private(set) var numbersRowsByPosition: Bool

    /// Position of each attribute in `attributes`.
    let attributeIndex: [String: Int]
    /// Position of each relationship in `relationships`.
    let relationshipIndex: [String: Int]
    /// Position of each derived attribute in `derived`.
    let derivedIndex: [String: Int]
    /// Indexes (into `relationships`) of the relationships that store a foreign key, in column order.
    let foreignKeyRelationships: [Int]

    /// An entity; the table name is derived from `name`.
    public init(
        _ name: String,
        attributes: [Attribute],
        relationships: [Relationship] = [],
        derived: [DerivedAttribute] = [],
        uniqueKeys: [[String]] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.derived = derived
        self.uniqueKeys = uniqueKeys
        self.tableName = snakeCase(name)
        self.idColumn = "id"
        self.isForeign = false
        self.numbersRowsByPosition = false
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

    /// An entity over an existing table of any name (spaces, quotes and keywords are fine:
    /// every identifier is quoted in the SQL made from the model).
    ///
    /// `idColumn` is `"rowid"` or the table's `INTEGER PRIMARY KEY` column: its value is the
    /// object's row id. The attributes name the columns as written in the table (see
    /// ``Attribute/init(_:_:column:optional:declaredType:)``); the id column may be one of them too. The
    /// store never changes the table's schema (see ``Store/init(foreignDatabaseAt:model:readOnly:tracking:)``).
    ///
    ///     let books = Entity("books", tableName: "books", idColumn: "rowid",
    ///                        attributes: [Attribute("Title", .text, column: "Title"),
    ///                                     Attribute("Close Date", .text, column: "Close Date")])
    public init(
        _ name: String,
        tableName: String,
        idColumn: String,
        attributes: [Attribute],
        derived: [DerivedAttribute] = []
    ) {
        self.init(
            name,
            attributes: attributes,
            derived: derived,
            foreignTable: tableName,
            idColumn: idColumn,
            byPosition: false
        )
    }

    /// A read-only entity over a view (or a table without a row id): rows are numbered
    /// 1, 2, 3… in the order the view returns them, and that number is the row id. The
    /// numbers are not stable across changes of the view's data (a refetch then reports
    /// the rows after a change as moved or replaced), and such rows cannot be deleted.
    /// The number is read as the column `positionColumn` of the numbered rows (a name the
    /// view's own columns should not use).
    ///
    ///     let totals = Entity("totals", viewName: "yearly totals", attributes: [Attribute("year", .text, column: "year")])
    public init(
        _ name: String,
        viewName: String,
        attributes: [Attribute],
        derived: [DerivedAttribute] = [],
        positionColumn: String = Entity.defaultPositionColumn
    ) {
        self.init(
            name,
            attributes: attributes,
            derived: derived,
            foreignTable: viewName,
            idColumn: positionColumn,
            byPosition: true
        )
    }

    private init(
        _ name: String,
        attributes: [Attribute],
        derived: [DerivedAttribute],
        foreignTable: String,
        idColumn: String,
        byPosition: Bool
    ) {
        self.init(name, attributes: attributes, derived: derived)
        self.tableName = foreignTable
        self.idColumn = idColumn
        self.isForeign = true
        self.numbersRowsByPosition = byPosition
    }

    /// The id column of an entity that numbers rows by position, unless it is given another.
    public static let defaultPositionColumn = "store_position"

    /// What follows `FROM` for this entity's rows (before `AS t0`): the quoted table name,
    /// or for rows numbered by position `(SELECT row_number() OVER () AS store_position, * FROM "view")`.
    package var sqlTable: String {
        let table = SQLIdentifier.quoted(tableName)
        guard numbersRowsByPosition else { return table }
        return "(SELECT row_number() OVER () AS \(sqlIDColumn), * FROM \(table))"
    }

    /// ``sqlTable`` for reading rows whose ids are at most `lastID`: for rows numbered by
    /// position, the numbering stops there (`LIMIT lastID`), so that reading the first
    /// screen of a view of millions of rows reads a screen's worth, not the whole view.
    func sqlTable(throughID lastID: Int64) -> String {
        guard numbersRowsByPosition else { return sqlTable }
        return "(SELECT row_number() OVER () AS \(sqlIDColumn), * FROM \(SQLIdentifier.quoted(tableName))"
            + " LIMIT \(max(0, lastID)))"
    }

    /// ``idColumn`` as SQL (quoted when it must be).
    package var sqlIDColumn: String { SQLIdentifier.quoted(idColumn) }

    /// The attribute called `name`, nil when there is none.
    public func attribute(named name: String) -> Attribute? { attributeIndex[name].map { attributes[$0] } }
    /// The relationship called `name`, nil when there is none.
    public func relationship(named name: String) -> Relationship? { relationshipIndex[name].map { relationships[$0] } }
    /// The derived attribute called `name`, nil when there is none.
    public func derivedAttribute(named name: String) -> DerivedAttribute? { derivedIndex[name].map { derived[$0] } }

    /// The table's columns in the order the store reads them: the id column, attributes, foreign keys.
    package var columnNames: [String] {
        [idColumn] + attributes.map(\.columnName) + foreignKeyRelationships.map { relationships[$0].columnName }
    }

    /// The column for a stored key (attribute or foreign-key relationship), nil otherwise.
    package func columnName(forKey key: String) -> String? {
        if let i = attributeIndex[key] { return attributes[i].columnName }
        if let i = relationshipIndex[key], relationships[i].storesForeignKey { return relationships[i].columnName }
        if key == "id" || key == idColumn { return idColumn }
        return nil
    }

    /// The key (attribute or relationship name) stored in a column, nil for `id` or unknown columns.
    public func key(forColumn column: String) -> String? {
        if let a = attributes.first(where: { $0.columnName == column }) { return a.name }
        if let r = relationships.first(where: { $0.storesForeignKey && $0.columnName == column }) { return r.name }
        return nil
    }
}
