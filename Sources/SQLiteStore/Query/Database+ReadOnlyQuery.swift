import CSQLite

extension Database {
    /// Prepares `sql` as a query source: exactly one statement (what follows it may only be
    /// spaces and comments), which SQLite says only reads (`sqlite3_stmt_readonly`) and which
    /// returns rows; no `ATTACH` or `DETACH`, no pragma that sets a value, no function with side
    /// effects (`load_extension`…). While it is prepared, SQLite's authorizer reports every table
    /// it reads (through views) and where each result column comes from (<doc:QuerySources>).
    ///
    /// The connection must be read-only (``openForQueries(path:)``): the check says what the
    /// statement is, the connection makes sure nothing else can happen; a connection that can
    /// write is refused (``QueryRefusal/Reason/writableConnection``).
    ///
    ///     let database = try Database.openForQueries(path: "school.sqlite")
    ///     let query = try database.prepareReadOnlyQuery("SELECT name FROM student WHERE subject = :subject")
    ///
    /// - Throws: ``QueryRefusal``: SQLite's own message and the position it names for a statement
    ///   it cannot prepare (``QueryRefusal/Reason/invalid``), or why it is not a query source.
    public func prepareReadOnlyQuery(_ sql: String) throws -> ReadOnlyQuery {
        guard try cannotWrite() else {
            throw QueryRefusal(
                .writableConnection,
                "the connection can write: open it with Database.openForQueries(path:) to run a query source"
            )
        }
        let authorizer = QueryAuthorizer()
        var prepared: OpaquePointer?
        var tailOffset = 0
        let utf8 = Array(sql.utf8)
        let rc: Int32 = authorizer.collecting(on: handle) {
            utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    var tail: UnsafePointer<CChar>?
                    let rc = sqlite3_prepare_v3(
                        handle,
                        text.baseAddress,
                        Int32(text.count),
                        UInt32(SQLITE_PREPARE_PERSISTENT),
                        &prepared,
                        &tail
                    )
                    if let tail, let base = text.baseAddress { tailOffset = base.distance(to: tail) }
                    return rc
                }
            }
        }
        guard rc == SQLITE_OK else {
            if let prepared { sqlite3_finalize(prepared) }
            let message = String(cString: sqlite3_errmsg(handle))
            let offset = sqlite3_error_offset(handle)
            throw QueryRefusal(
                .invalid,
                message,
                offset: offset >= 0 ? Database.characterOffset(Int(offset), in: utf8) : nil
            )
        }
        guard let prepared else { throw QueryRefusal(.empty, "there is no statement (only spaces or comments)") }
        let statement = Statement(prepared: prepared, connection: handle, sql: sql)
        if let second = try secondStatementOffset(in: utf8, after: tailOffset) {
            throw QueryRefusal(
                .severalStatements,
                "more than one statement: a query source is one SELECT",
                offset: Database.characterOffset(second, in: utf8)
            )
        }
        if let (reason, message) = authorizer.refusal { throw QueryRefusal(reason, message) }
        if sqlite3_stmt_readonly(prepared) == 0 {
            let what = authorizer.write.map { "it would \($0)" } ?? "it writes to the database"
            throw QueryRefusal(.writes, "not read-only: \(what); a query source only reads")
        }
        let count = sqlite3_column_count(prepared)
        guard count > 0 else {
            throw QueryRefusal(
                .returnsNoRows,
                "not a query: it returns no rows (\(Database.firstWord(of: sql))); a query source is a SELECT"
            )
        }
        // `?1` after a `:name` shares its number, so SQLite names it `:name`: it would be given that value.
        if let numbered = Database.numberedParameterOffset(in: utf8) {
            throw QueryRefusal(
                .parameters,
                "the parameter \(Database.parameterToken(at: numbered, in: utf8)) has no name: name it (:name) and "
                    + "give its value by that name",
                offset: Database.characterOffset(numbered, in: utf8)
            )
        }
        var parameters: [String] = []
        for index in stride(from: Int32(1), through: sqlite3_bind_parameter_count(prepared), by: 1) {
            guard let name = sqlite3_bind_parameter_name(prepared, index).map({ String(cString: $0) }),
                let sign = name.first, sign != "?"
            else {
                throw QueryRefusal(
                    .parameters,
                    "the parameter ? has no name: name it (:name) and give its value by that name"
                )
            }
            parameters.append(name)
        }
        let names = QueryColumn.uniqueNames((0..<count).map { String(cString: sqlite3_column_name(prepared, $0)) })
        let columns = (0..<count).map { index in
            QueryColumn(
                name: names[Int(index)],
                declaredType: sqlite3_column_decltype(prepared, index).map { String(cString: $0) } ?? "",
                sourceTable: sqlite3_column_table_name(prepared, index).map { String(cString: $0) },
                sourceColumn: sqlite3_column_origin_name(prepared, index).map { String(cString: $0) }
            )
        }
        let kinds = try tableKinds()
        let tables = authorizer.reads.filter { kinds[$0] == "table" }
        let readsSchema = authorizer.reads.contains { $0 == "sqlite_master" || $0 == "sqlite_schema" }
        return ReadOnlyQuery(
            sql: sql,
            columns: columns,
            readTables: tables,
            readsSchema: readsSchema,
            parameterTokens: parameters,
            database: self,
            statement: statement
        )
    }

    /// Opens the SQLite file at `path` for running query sources: a connection that cannot write
    /// (`SQLITE_OPEN_READONLY`; a file in WAL mode without a `-wal` file beside it through a
    /// read-write connection set `PRAGMA query_only`, so that closing it removes the `-wal` and
    /// `-shm` it makes and leaves the folder as it was), which sees every commit of other
    /// connections.
    ///
    ///     let database = try Database.openForQueries(path: "school.sqlite")
    ///
    /// - Throws: ``StoreError/missingFile(path:)``, ``StoreError/notADatabase(path:)``, ``SQLiteError``.
    public static func openForQueries(path: String) throws -> Database {
        let model = Model(version: 1, applicationID: 0, entities: [])
        return try ForeignDatabaseOpening.open(
            path: path,
            model: model,
            readOnly: true,
            tracking: TrackingSchema(names: .standard)
        ).database
    }

    /// Whether nothing run on this connection can write the file: it was opened read-only, or it
    /// is read-write only to read a WAL file without a `-wal` beside it and has `PRAGMA query_only` set.
    private func cannotWrite() throws -> Bool {
        if isReadOnly { return true }
        return try scalar("PRAGMA query_only").int64 == 1
    }

    /// The byte offset of a statement after `offset` in `utf8`, nil when only spaces and comments follow.
    private func secondStatementOffset(in utf8: [UInt8], after offset: Int) throws -> Int? {
        guard offset < utf8.count else { return nil }
        let rest = Array(utf8[offset...])
        var second: OpaquePointer?
        let rc = rest.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                sqlite3_prepare_v3(handle, text.baseAddress, Int32(text.count), 0, &second, nil)
            }
        }
        if let second { sqlite3_finalize(second) }
        guard rc != SQLITE_OK || second != nil else { return nil }
        // Where the next statement starts: past the spaces (and the `;`) that end the first.
        var start = offset
        while start < utf8.count, utf8[start] == UInt8(ascii: ";") || utf8[start] < 0x21 { start += 1 }
        return start
    }

    /// `type` (`table` or `view`) of each table and view of the main schema, by name.
    private func tableKinds() throws -> [String: String] {
        var kinds: [String: String] = [:]
        try forEachRow("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')") { row in
            kinds[row.text(at: 0)] = row.text(at: 1)
        }
        return kinds
    }

    /// The character offset of byte `offset` of `utf8`.
    static func characterOffset(_ offset: Int, in utf8: [UInt8]) -> Int {
        String(decoding: utf8.prefix(max(0, min(offset, utf8.count))), as: UTF8.self).count
    }

    /// The byte offset of the first numbered parameter (`?1`) of `utf8`, outside quotes (`'…'`,
    /// `"…"`, `[…]`, `` `…` ``) and comments; nil when there is none.
    static func numberedParameterOffset(in utf8: [UInt8]) -> Int? {
        var index = 0
        /// Moves past the quoted run opening at `index`, closed by `close` (doubled: kept inside).
        func skipQuoted(_ close: UInt8) {
            index += 1
            while index < utf8.count {
                defer { index += 1 }
                if utf8[index] == close {
                    guard close != UInt8(ascii: "]"), index + 1 < utf8.count, utf8[index + 1] == close else { return }
                    index += 1
                }
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            let next = index + 1 < utf8.count ? utf8[index + 1] : 0
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"): skipQuoted(byte)
            case UInt8(ascii: "["): skipQuoted(UInt8(ascii: "]"))
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                while index < utf8.count, utf8[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                index += 2
                while index < utf8.count,
                    !(utf8[index] == UInt8(ascii: "*") && index + 1 < utf8.count
                        && utf8[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index += 2
            case UInt8(ascii: "?") where next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"):
                return index
            default:
                index += 1
            }
        }
        return nil
    }

    /// The parameter written at byte `offset` of `utf8` (`?12`).
    static func parameterToken(at offset: Int, in utf8: [UInt8]) -> String {
        let digits = utf8[(offset + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return "?" + String(decoding: digits, as: UTF8.self)
    }

    /// The statement's first word, upper-cased (`BEGIN`), past spaces and comments.
    static func firstWord(of sql: String) -> String {
        var text = Substring(sql)
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("--") {
                text = text.drop { $0 != "\n" }
            } else if text.hasPrefix("/*") {
                guard let end = text.range(of: "*/") else { return "" }
                text = text[end.upperBound...]
            } else {
                break
            }
        }
        return text.prefix { $0.isLetter }.uppercased()
    }
}
