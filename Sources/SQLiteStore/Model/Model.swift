/// The description of a store: its entities, schema version and migrations.
///
/// `applicationID` marks files as ours (`PRAGMA application_id`), so that a
/// store never adopts another program's SQLite file; `version` is written to
/// `PRAGMA user_version` and drives ``Migration``s.
///
///     let model = Model(version: 2, applicationID: 0x4642_4E4B, entities: [info, details],
///                       migrations: [Migration(from: 1, to: 2) { db in … }])
///     let source = try model.sqlSource(root: "Book", keyPaths: ["name", "details.publishedOn"])
///     source.from                                           // "book AS t0 LEFT JOIN book_details AS t1 ON t1.book_id = t0.id AND NOT EXISTS (…)"
///     try source.expression(forKeyPath: "details.publishedOn") // "t1.published_on"
public struct Model: Sendable {
    /// The schema version (`PRAGMA user_version`); at least 1.
    public var version: Int
    /// The file's owner mark (`PRAGMA application_id`).
    public var applicationID: Int32
    /// The entities, one table each.
    public var entities: [Entity]
    /// The steps from older versions, one per starting version.
    public var migrations: [Migration]
    let entityIndex: [String: Int]

    /// A model; ``validate()`` (also run when a store opens) checks it.
    public init(version: Int, applicationID: Int32, entities: [Entity], migrations: [Migration] = []) {
        self.version = version
        self.applicationID = applicationID
        self.entities = entities
        self.migrations = migrations
        var index: [String: Int] = [:]
        for (i, e) in entities.enumerated() where index[e.name] == nil { index[e.name] = i }
        self.entityIndex = index
    }

    /// The entity called `name`, nil when the model has none.
    public func entity(named name: String) -> Entity? {
        entityIndex[name].map { entities[$0] }
    }

    /// The entity whose table is `tableName`.
    public func entity(forTable tableName: String) -> Entity? {
        entities.first { $0.tableName == tableName }
    }

    /// SQL for reading key paths of a root entity: joins through to-one
    /// relationships with LEFT JOIN; the root's alias is `t0`.
    public func sqlSource(root: String, keyPaths: [String]) throws -> SQLSource {
        guard let entity = entity(named: root) else { throw StoreError.unknownEntity(root) }
        var source = SQLSource(model: self, root: entity)
        for keyPath in keyPaths { try source.add(keyPath: keyPath) }
        return source
    }

    /// Checks that the model is consistent: unique names, relationships with
    /// matching inverses and exactly one foreign-key side, known unique-key members.
    public func validate() throws {
        guard version >= 1 else { throw StoreError.invalidModel("version must be at least 1") }
        var tables = Set<String>()
        for e in entities {
            guard entityIndex[e.name].map({ entities[$0].name == e.name }) == true, tables.insert(e.tableName).inserted,
                e.isForeign
                    || (e.tableName != "store_history" && e.tableName != TrackingNames.standard.historyTable
                        && !e.tableName.hasPrefix("sqlite_"))
            else {
                throw StoreError.invalidModel("entity \(e.name): duplicate or reserved table name \(e.tableName)")
            }
            // An entity over an existing table may read its id column as an attribute too.
            var columns = e.isForeign ? Set<String>() : Set([e.idColumn])
            var keys = Set<String>()
            for a in e.attributes {
                guard keys.insert(a.name).inserted, columns.insert(a.columnName).inserted else {
                    throw StoreError.invalidModel("\(e.name).\(a.name): duplicate name or column \(a.columnName)")
                }
            }
            for d in e.derived where !keys.insert(d.name).inserted {
                throw StoreError.invalidModel("\(e.name).\(d.name): duplicate name")
            }
            for r in e.relationships {
                guard keys.insert(r.name).inserted else {
                    throw StoreError.invalidModel("\(e.name).\(r.name): duplicate name")
                }
                guard let dest = entity(named: r.destination) else {
                    throw StoreError.invalidModel("\(e.name).\(r.name): unknown destination \(r.destination)")
                }
                guard let inverse = dest.relationship(named: r.inverse), inverse.destination == e.name,
                    inverse.inverse == r.name
                else {
                    throw StoreError.invalidModel(
                        "\(e.name).\(r.name): inverse \(r.destination).\(r.inverse) missing or not pointing back"
                    )
                }
                guard inverse.storesForeignKey != r.storesForeignKey else {
                    throw StoreError.invalidModel(
                        "\(e.name).\(r.name): exactly one of it and its inverse must store the foreign key"
                    )
                }
                if r.storesForeignKey, !columns.insert(r.columnName).inserted {
                    throw StoreError.invalidModel("\(e.name).\(r.name): column \(r.columnName) already used")
                }
            }
            for key in e.uniqueKeys.joined() where e.columnName(forKey: key) == nil || key == "id" {
                throw StoreError.invalidModel(
                    "\(e.name): unique key member \(key) is not an attribute or foreign-key relationship"
                )
            }
        }
        var seen = Set<Int>()
        for m in migrations {
            guard m.to > m.from, seen.insert(m.from).inserted else {
                throw StoreError.invalidModel("migration \(m.from)→\(m.to): must go forward, one per starting version")
            }
        }
    }
}
