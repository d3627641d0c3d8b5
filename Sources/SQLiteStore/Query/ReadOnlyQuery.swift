import CSQLite

/// One statement checked to be a query source — it only reads and it returns rows — prepared
/// on a connection, with what SQLite said about it while preparing: its columns (and the table
/// column each is read from), the tables it reads, its named parameters.
///
/// Made by ``Database/prepareReadOnlyQuery(_:)``; run it with `rows()` (after ``bind(_:)``
/// when it has parameters) or materialize it in a ``QueryResultTable``.
///
///     let query = try database.prepareReadOnlyQuery(
///         "SELECT subject, count(*) AS students FROM student WHERE number >= :least GROUP BY subject")
///     query.readTables        // ["student"]
///     query.parameterNames    // ["least"]
///     try query.bind(["least": .integer(2)])
public final class ReadOnlyQuery {
    /// The SQL as given.
    public let sql: String
    /// The result's columns, in order, their names made unique (``QueryColumn/uniqueNames(_:)``).
    public let columns: [QueryColumn]
    /// The tables of the database the statement reads (views read through to their tables;
    /// virtual tables included; SQLite's own `sqlite_master` not), in the order SQLite named them.
    public let readTables: [String]
    /// Whether the statement reads the schema itself (`sqlite_master`, `pragma_table_info(…)`).
    public let readsSchema: Bool
    /// The names of its parameters without their sign (`:least` is `least`), in order.
    public let parameterNames: [String]

    /// The connection it is prepared on (kept open as long as the query).
    let database: Database
    let statement: Statement
    /// The parameters as SQLite names them (`:least`, `@least`, `$least`), by position from 1.
    private let parameterTokens: [String]

    init(
        sql: String,
        columns: [QueryColumn],
        readTables: [String],
        readsSchema: Bool,
        parameterTokens: [String],
        database: Database,
        statement: Statement
    ) {
        self.sql = sql
        self.columns = columns
        self.readTables = readTables
        self.readsSchema = readsSchema
        self.parameterTokens = parameterTokens
        self.parameterNames = parameterTokens.map { String($0.dropFirst()) }
        self.database = database
        self.statement = statement
    }

    /// The columns a query reads straight from one table's columns: for each result column whose
    /// value is a plain reference to a column of `table`, that column's name (by result position).
    ///
    ///     query.sourceColumns(of: "student")   // [0: "id", 1: "name"]
    public func sourceColumns(of table: String) -> [Int: String] {
        var found: [Int: String] = [:]
        for (index, column) in columns.enumerated() where column.sourceTable == table {
            if let name = column.sourceColumn { found[index] = name }
        }
        return found
    }

    /// Binds `values` to the parameters by name (`["least": .integer(2)]` for `:least`, `@least`
    /// or `$least`). Every parameter needs a value, and every value a parameter.
    ///
    /// - Throws: ``QueryRefusal`` (``QueryRefusal/Reason/parameters``) naming the parameter without a
    ///   value, or the value without a parameter.
    public func bind(_ values: [String: StoreValue]) throws {
        statement.reset()
        for (index, name) in parameterNames.enumerated() {
            guard let value = values[name] else {
                throw QueryRefusal(.parameters, "no value for the parameter \(parameterTokens[index])")
            }
            try statement.bind(value, at: Int32(index + 1))
        }
        let known = Set(parameterNames)
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            let list =
                parameterTokens.isEmpty ? "it has none" : "its parameters: " + parameterTokens.joined(separator: ", ")
            throw QueryRefusal(.parameters, "the query has no parameter :\(unknown) (\(list))")
        }
        bound = values
    }

    /// The values last bound (``bind(_:)``), bound again when the statement is run again.
    private(set) var bound: [String: StoreValue] = [:]

    /// The statement reset to its first row, its parameters bound, as rows to read
    /// (valid until the next call; read them on the thread that owns the connection).
    package func rows() throws -> StatementRows {
        statement.reset()
        for (index, name) in parameterNames.enumerated() {
            if let value = bound[name] { try statement.bind(value, at: Int32(index + 1)) }
        }
        return StatementRows(statement)
    }

    /// Ends a run early (its rows are let go) so that its read transaction ends.
    package func finishRun() { statement.reset() }

    /// Stops a run in progress on another thread (SQLite's `sqlite3_interrupt`): its `next()` throws
    /// an interrupted ``SQLiteError``.
    public func interrupt() { database.interrupt() }
}
