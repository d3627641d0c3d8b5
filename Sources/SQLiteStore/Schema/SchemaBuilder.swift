/// Writes the SQL of a model's schema: tables, indexes, the history table and its triggers.
///
/// Names are the readable snake_case ones, so that a person with `sqlite3`
/// sees `book(id, name, author, language)` and `book_details(…, book_id)`.
/// Kept separate from ``Store`` so the generated SQL can be read and tested on its own.
///
///     let builder = SchemaBuilder(model: model)
///     print(builder.createTable(for: model.entity(named: "BookDetails")!))
struct SchemaBuilder {
    let model: Model

    static let historyTable = "store_history"
    /// Facts about the store itself (its random id, ``storeIDKey``), one row per key.
    static let metadataTable = "store_metadata"
    static let storeIDKey = "store_id"

    /// `CREATE TABLE IF NOT EXISTS` for one entity.
    func createTable(for entity: Entity) -> String {
        var columns = ["id INTEGER PRIMARY KEY"]
        // Foreign keys first, right after the id, so `sqlite3` users see the link
        // beside the key (book_details: id, book_id, published_on, …).
        for r in entity.relationships where r.storesForeignKey {
            let dest = model.entity(named: r.destination)
            let destTable = dest?.tableName ?? snakeCase(r.destination)
            // The FK action describes what deleting the *destination* row does to this one,
            // which is the delete rule of the destination's side (the inverse).
            let rule = dest?.relationship(named: r.inverse)?.deleteRule ?? .nullify
            let action = rule == .cascade ? "CASCADE" : "SET NULL"
            columns.append("\(r.columnName) INTEGER REFERENCES \(destTable)(id) ON DELETE \(action)")
        }
        for a in entity.attributes {
            var c = "\(a.columnName) \(a.type.sqlType)"
            if !a.isOptional { c += " NOT NULL" }
            if let d = a.defaultValue { c += " DEFAULT \(SchemaBuilder.literal(d))" }
            columns.append(c)
        }
        return "CREATE TABLE IF NOT EXISTS \(entity.tableName) (\n  " + columns.joined(separator: ",\n  ") + "\n)"
    }

    /// One index of the schema: a plain one, or the one that enforces a unique key.
    struct Index {
        var name: String
        var sql: String
        /// The unique key it enforces (nil for a plain index).
        var uniqueKey: [String]?
        /// For a unique key's index: the plain index on the same columns, made instead when existing rows break the key.
        var fallbackSQL: String?
    }

    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS` for indexed attributes, foreign keys and unique keys.
    ///
    /// A foreign key that is a unique key on its own (a one-to-one link, `book_details.book_id`)
    /// gets only the unique index, which serves the same lookups.
    func indexes(for entity: Entity) -> [Index] {
        var out: [Index] = []
        let t = entity.tableName
        func plain(_ name: String, _ columns: String) -> Index {
            Index(name: name, sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(t)(\(columns))")
        }
        for a in entity.attributes where a.isIndexed {
            out.append(plain("\(t)_\(a.columnName)", a.columnName))
        }
        for r in entity.relationships where r.storesForeignKey && !entity.uniqueKeys.contains([r.name]) {
            out.append(plain("\(t)_\(r.columnName)", r.columnName))
        }
        for key in entity.uniqueKeys where !key.isEmpty {
            let cols = key.compactMap { entity.columnName(forKey: $0) }
            let name = SchemaBuilder.uniqueIndexName(table: t, columns: cols)
            out.append(
                Index(
                    name: name,
                    sql: "CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(t)(\(cols.joined(separator: ", ")))",
                    uniqueKey: key,
                    fallbackSQL: plain("\(t)_\(cols.joined(separator: "_"))", cols.joined(separator: ", ")).sql
                )
            )
        }
        return out
    }

    /// The SQL of ``indexes(for:)``.
    func createIndexes(for entity: Entity) -> [String] { indexes(for: entity).map(\.sql) }

    /// `<table>_unique_<columns>`: the name of the index that enforces a unique key.
    static func uniqueIndexName(table: String, columns: [String]) -> String {
        "\(table)_unique_\(columns.joined(separator: "_"))"
    }

    /// Creates the entity's indexes that `database` lacks.
    ///
    /// A unique key that rows already in the file break (a key a newer model adds, over a
    /// file whose rows were written before: two `book_details` rows with the same
    /// `book_id`) is not enforced in that file, and a plain index on its columns is made
    /// instead: refusing to open the store would lock its owner out of the data, and which
    /// of the rows to delete is not the store's to choose. ``Store/enforcesUniqueKey(_:of:)``
    /// tells whether a file enforces a key; creating the store's schema again (the next
    /// migration) tries the unique index again.
    func installIndexes(for entity: Entity, in database: Database) throws {
        for index in indexes(for: entity) {
            do {
                try database.execute(index.sql)
            } catch let error as SQLiteError where error.isConstraint && index.fallbackSQL != nil {
                try database.execute(index.fallbackSQL!)
            }
        }
    }

    /// The history table that triggers append to.
    var createHistoryTable: String {
        """
        CREATE TABLE IF NOT EXISTS \(SchemaBuilder.historyTable) (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          entity TEXT NOT NULL,
          row_id INTEGER NOT NULL,
          op TEXT NOT NULL
        )
        """
    }

    /// The store's own facts: `store_id` is a random id written when the store is created.
    var createMetadataTable: String {
        "CREATE TABLE IF NOT EXISTS \(SchemaBuilder.metadataTable) (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
    }

    func triggerNames(for entity: Entity) -> [String] {
        ["insert", "update", "delete"].map { "\(entity.tableName)_history_\($0)" }
    }

    /// AFTER INSERT/UPDATE/DELETE triggers recording each row change in the history.
    ///
    /// A change of a row that holds a foreign key is also recorded as an update
    /// ('U') of the row it references, old and new, because that object's key
    /// paths (`details.publishedOn`) read through it. An update of a referenced
    /// row likewise records 'U' for the rows that reference it.
    func createTriggers(for entity: Entity) -> [String] {
        let t = entity.tableName
        let name = SchemaBuilder.literal(.text(entity.name))
        let h = SchemaBuilder.historyTable
        func record(_ row: String, _ op: String) -> String {
            "  INSERT INTO \(h)(entity, row_id, op) VALUES (\(name), \(row).id, '\(op)');\n"
        }
        func references(_ row: String, onlyIfChanged: Bool) -> String {
            var s = ""
            for r in entity.relationships where r.storesForeignKey {
                let dest = SchemaBuilder.literal(.text(r.destination))
                let col = "\(row).\(r.columnName)"
                var cond = "\(col) IS NOT NULL"
                if onlyIfChanged { cond += " AND OLD.\(r.columnName) IS NOT NEW.\(r.columnName)" }
                s += "  INSERT INTO \(h)(entity, row_id, op) SELECT \(dest), \(col), 'U' WHERE \(cond);\n"
            }
            return s
        }
        var referencing = ""
        for r in entity.relationships where !r.storesForeignKey {
            guard let source = model.entity(named: r.destination), let fk = source.relationship(named: r.inverse) else {
                continue
            }
            referencing +=
                "  INSERT INTO \(h)(entity, row_id, op) SELECT \(SchemaBuilder.literal(.text(source.name))), id, 'U' FROM \(source.tableName) WHERE \(fk.columnName) = NEW.id;\n"
        }
        let names = triggerNames(for: entity)
        return [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(t) BEGIN\n" + record("NEW", "I")
                + references("NEW", onlyIfChanged: false) + "END",
            "CREATE TRIGGER \(names[1]) AFTER UPDATE ON \(t) BEGIN\n" + record("NEW", "U")
                + references("NEW", onlyIfChanged: false)
                + references("OLD", onlyIfChanged: true) + referencing + "END",
            "CREATE TRIGGER \(names[2]) AFTER DELETE ON \(t) BEGIN\n" + record("OLD", "D")
                + references("OLD", onlyIfChanged: false) + "END",
        ]
    }

    func dropTriggers(for entity: Entity) -> [String] {
        triggerNames(for: entity).map { "DROP TRIGGER IF EXISTS \($0)" }
    }

    /// A SQL literal for a value (used for DEFAULTs and names inside triggers).
    static func literal(_ value: StoreValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let d): return d.isFinite ? "\(d)" : "NULL"
        case .text(let s): return Database.quote(literal: s)
        case .blob(let b):
            return "X'"
                + b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined() + "'"
        }
    }
}
