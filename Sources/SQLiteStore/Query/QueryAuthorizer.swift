import CSQLite

/// What SQLite's authorizer reports while a query is prepared (`sqlite3_set_authorizer`): the
/// tables it reads (`SQLITE_READ`, through views and common table expressions to the tables
/// underneath), the first write it would make, and anything a source refuses — `ATTACH`,
/// `DETACH`, a pragma that sets a value (not one that reads a named table, `PRAGMA
/// table_info(orders)`), a function with side effects. Nothing is denied during the prepare
/// itself: the refusal is made afterwards, with a sentence of our own.
final class QueryAuthorizer {
    /// Tables (and views, and SQLite's own tables) of `main` read, by name.
    private(set) var reads: [String] = []
    private var seen = Set<String>()
    /// What the statement would write, in words ("insert into student"), the first one seen.
    private(set) var write: String?
    /// Why the statement is refused although it may look read-only, the first reason seen.
    private(set) var refusal: (QueryRefusal.Reason, String)?

    /// Functions SQLite offers that act outside the statement (a file, the process, a tokenizer table).
    static let functionsWithSideEffects: Set<String> = [
        "load_extension", "fts3_tokenizer", "readfile", "writefile", "edit", "sqlite_dbpage",
    ]

    /// Pragmas whose argument names what they read (`PRAGMA table_info(orders)`), or bounds how
    /// much (`PRAGMA integrity_check(10)`), rather than sets a value: they only report.
    static let pragmasReadingANamedObject: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list", "foreign_key_list",
        "foreign_key_check", "integrity_check", "quick_check",
    ]

    /// Whether `pragma` (its name, any case) is one of ``pragmasReadingANamedObject``.
    static func readsANamedObject(pragma: String?) -> Bool {
        pragmasReadingANamedObject.contains(pragma?.lowercased() ?? "")
    }

    func record(action: Int32, _ first: String?, _ second: String?, database: String?) {
        switch action {
        case SQLITE_READ:
            guard database == nil || database == "main", let table = first, seen.insert(table).inserted else { return }
            reads.append(table)
        // The schema's own tables are written by DDL, which is named by its own action.
        case SQLITE_INSERT where !QueryAuthorizer.isSchemaTable(first):
            noteWrite("insert into \(first ?? "a table")")
        case SQLITE_UPDATE where !QueryAuthorizer.isSchemaTable(first):
            noteWrite("update \(first ?? "a table")")
        case SQLITE_DELETE where !QueryAuthorizer.isSchemaTable(first):
            noteWrite("delete from \(first ?? "a table")")
        case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_VTABLE: noteWrite("create a table")
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX: noteWrite("create an index")
        case SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW: noteWrite("create a view")
        case SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER: noteWrite("create a trigger")
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VTABLE: noteWrite("drop \(first ?? "a table")")
        case SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER,
            SQLITE_DROP_TEMP_TRIGGER:
            noteWrite("drop \(first ?? "an object")")
        case SQLITE_ALTER_TABLE: noteWrite("alter \(second ?? "a table")")
        case SQLITE_REINDEX, SQLITE_ANALYZE: noteWrite("rewrite indexes or statistics")
        case SQLITE_ATTACH:
            noteRefusal(.attaches, "ATTACH is refused: a query source reads only the database it was given")
        case SQLITE_DETACH:
            noteRefusal(.attaches, "DETACH is refused: a query source reads only the database it was given")
        case SQLITE_PRAGMA where second != nil && !QueryAuthorizer.readsANamedObject(pragma: first):
            noteRefusal(.sideEffects, "PRAGMA \(first ?? "") = … is refused: it changes the connection or the file")
        case SQLITE_FUNCTION:
            if let name = second?.lowercased(), QueryAuthorizer.functionsWithSideEffects.contains(name) {
                noteRefusal(.sideEffects, "the function \(name)() is refused: it has side effects")
            }
        default:
            break
        }
    }

    /// Whether `table` is SQLite's schema table (`sqlite_master`, `sqlite_temp_master`, `sqlite_schema`).
    static func isSchemaTable(_ table: String?) -> Bool {
        guard let table = table?.lowercased() else { return false }
        return ["sqlite_master", "sqlite_temp_master", "sqlite_schema", "sqlite_temp_schema"].contains(table)
    }

    private func noteWrite(_ words: String) {
        if write == nil { write = words }
    }

    private func noteRefusal(_ reason: QueryRefusal.Reason, _ message: String) {
        if refusal == nil { refusal = (reason, message) }
    }

    /// Runs `body` with this authorizer installed on `connection` (removed afterwards).
    func collecting<T>(on connection: OpaquePointer, _ body: () throws -> T) rethrows -> T {
        let unmanaged = Unmanaged.passRetained(self)
        sqlite3_set_authorizer(
            connection,
            { context, action, first, second, database, _ in
                guard let context else { return SQLITE_OK }
                Unmanaged<QueryAuthorizer>.fromOpaque(context).takeUnretainedValue().record(
                    action: action,
                    first.map { String(cString: $0) },
                    second.map { String(cString: $0) },
                    database: database.map { String(cString: $0) }
                )
                return SQLITE_OK
            },
            unmanaged.toOpaque()
        )
        defer {
            sqlite3_set_authorizer(connection, nil, nil)
            unmanaged.release()
        }
        return try body()
    }
}
