import CSQLite

extension QueryResultTable {
    /// The schema name the queried file is attached under while ``loadInPlace(_:from:checksKey:progress:)`` runs.
    static let sourceSchema = "query_source"

    /// Writes the first run of `query`, a statement of the SQLite file at `sourcePath`, without its
    /// rows passing through Swift: the file is attached read-only to the table's own connection
    /// and the statement, as checked (``Database/prepareReadOnlyQuery(_:)``), run inside one
    /// `INSERT INTO query_result SELECT … FROM (query)` with its parameters bound — each value
    /// stored as the query returns it, the rows in its order. Then as ``load(_:progress:)``: the
    /// file switched to WAL, its history triggers installed. The rows' index is left for
    /// ``buildIndex()``; a key given by the user (`checksKey`) is checked unique now, in SQL.
    /// `progress` is called with the rows written so far, about every 50,000 rows.
    ///
    /// Returns false, having written nothing, when the statement cannot be run so: it reads the
    /// schema or a connection's own state (`changes()`), or its tables' names are the result
    /// file's, or SQLite refuses the attachment or the statement (another text encoding). The
    /// caller then runs it on its own connection (``load(_:progress:)``).
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when `checksKey` and two rows
    ///   share the key; an interrupted ``SQLiteError`` when the connection was interrupted
    ///   (``Database/interruptUntilResumed()``). The table is then empty.
    package func loadInPlace(
        _ query: ReadOnlyQuery,
        from sourcePath: String,
        checksKey: Bool,
        progress: ((Int) -> Void)? = nil
    ) throws -> Bool {
        precondition(!isLoaded, "a result table is loaded once; later runs go through update(from:)")
        guard let sql = QueryResultTable.inPlaceText(of: query) else { return false }
        do {
            try database.run(
                "ATTACH DATABASE ? AS \(QueryResultTable.sourceSchema)",
                [.text(QueryResultTable.readOnlyURI(sourcePath))]
            )
        } catch {
            return false
        }
        let written: Int?
        do {
            written = try insertRows(of: query, sql: sql, checksKey: checksKey, progress: progress)
        } catch {
            try? database.execute("DETACH DATABASE \(QueryResultTable.sourceSchema)")
            throw error
        }
        // Detached first: the file's pragmas (its journal mode) are the result's alone.
        try database.execute("DETACH DATABASE \(QueryResultTable.sourceSchema)")
        guard let written else { return false }
        try finishFirstRun(written: written, indexed: false)
        progress?(written)
        return true
    }

    /// The rows of `query` (its text `sql`) inserted by one statement, in its order: their row
    /// ids are their places (the order column is the row id while the place column is NULL);
    /// how many (nil: the statement cannot be run here, nothing written).
    private func insertRows(
        of query: ReadOnlyQuery,
        sql: String,
        checksKey: Bool,
        progress: ((Int) -> Void)?
    ) throws -> Int? {
        let clash = try database.scalar(
            "SELECT count(*) FROM \(QueryResultTable.sourceSchema).sqlite_master WHERE lower(name) = lower(?)",
            [.text(tableName)]
        )
        guard clash.int64 == 0 else { return nil }
        let insert: Statement
        do {
            insert = try database.uncachedStatement(inPlaceInsertText(sql))
        } catch {
            return nil
        }
        defer { insert.reset() }
        try bindParameters(of: query, to: insert)
        return try database.transaction {
            try database.observingSteps(rowCountReporter(progress)) { _ = try insert.step() }
            let written = database.changes
            if checksKey { try checkKeyUnique() }
            return written
        }
    }

    /// The statement that writes the rows of the query whose text is `sql`: each row as it
    /// returns it, its row id the next, its place NULL. Nothing but constants beside the query's
    /// columns, so that SQLite flattens the query into the `INSERT` (a function there, say one
    /// numbering the rows, makes it a co-routine whose every value is copied once more: 0.5 s of
    /// a million-row join's 1 s).
    func inPlaceInsertText(_ sql: String) -> String {
        "INSERT INTO main.\(tableName) SELECT NULL, *, NULL FROM (\n\(sql)\n)"
    }

    /// Calls `progress` with the rows written so far each time another 51,200 are (read from the
    /// connection's last inserted row id, between steps of the statement that writes them).
    private func rowCountReporter(_ progress: ((Int) -> Void)?) -> () -> Void {
        guard let progress else { return {} }
        var reported: Int64 = 0
        return { [database] in
            let written = database.lastInsertRowID
            guard written - reported >= 51_200 else { return }
            reported = written - written % 51_200
            progress(Int(reported))
        }
    }

    /// Throws ``QueryResultError/duplicateKey(columns:values:)`` naming the key of the first row
    /// whose key an earlier row has (as reading the rows in order finds it).
    private func checkKeyUnique() throws {
        guard !keyColumns.isEmpty else { return }
        let names = keyColumns.map { SQLIdentifier.alwaysQuoted(columns[$0].name) }.joined(separator: ", ")
        let repeats = try database.scalar(
            "SELECT EXISTS (SELECT 1 FROM \(tableName) GROUP BY \(names) HAVING count(*) > 1)"
        )
        guard repeats.int64 == 1 else { return }
        let first = try database.query(
            """
            SELECT \(names) FROM (SELECT \(names), \(quotedRowID) AS place, row_number() OVER (PARTITION BY \(names) \
            ORDER BY \(quotedRowID)) AS occurrence FROM \(tableName)) WHERE occurrence = 2 ORDER BY place LIMIT 1
            """
        )
        throw QueryResultError.duplicateKey(columns: keyColumns.map { columns[$0].name }, values: first.first ?? [])
    }

    /// Binds the values bound to `query` to the same parameters of `statement`, by name.
    private func bindParameters(of query: ReadOnlyQuery, to statement: Statement) throws {
        for index in stride(from: Int32(1), through: sqlite3_bind_parameter_count(statement.handle), by: 1) {
            guard let token = sqlite3_bind_parameter_name(statement.handle, index).map({ String(cString: $0) }),
                let value = query.bound[String(token.dropFirst())]
            else { continue }
            try statement.bind(value, at: index)
        }
    }

    /// The statement's text as SQLite prepared it, without the `;` that may end it; nil when it
    /// cannot be run on another connection: it reads the schema, or a connection's own state.
    static func inPlaceText(of query: ReadOnlyQuery) -> String? {
        guard !query.readsSchema, let text = sqlite3_sql(query.statement.handle).map({ String(cString: $0) }) else {
            return nil
        }
        let lowered = text.lowercased()
        let connectionState = ["changes", "last_insert_rowid", "sqlite_", "pragma"]
        if connectionState.contains(where: lowered.contains) { return nil }
        var trimmed = Substring(text)
        while let last = trimmed.last, last == ";" || last.isWhitespace { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// A `file:` URI of `path` that opens it read-only.
    static func readOnlyURI(_ path: String) -> String { fileURI(path) + "?mode=ro" }

    /// A `file:` URI of `path`.
    static func fileURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            let plain =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "/-._~".utf8.contains(byte)
            uri += plain ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
        }
        return uri
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
