import CLIKit
import Foundation

extension TableDatabase {
    /// Opens `options.file` by its content: a SQLite database as it is, a CSV file through
    /// its cache database (loaded now when it is not up to date).
    ///
    ///     let database = try TableDatabase.open(options: options)
    ///
    /// - Throws: ``FetchedTableError`` 66 missing, 65 neither a database nor a CSV file (or damaged, or bad rows).
    package static func open(
        options: TableOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(FetchedTableError) -> TableDatabase
    {
        if options.query != nil { return try openQuery(options) }
        let kind = try TableFileKind.of(path: options.file)
        switch kind {
        case .sqlite:
            if options.missingValues != nil {
                throw .usage("--na: \(options.file) is a SQLite database; missing-value tokens are a CSV file's")
            }
            return try TableDatabase(
                path: options.file,
                kind: .sqlite,
                databasePath: options.file,
                readOnly: options.readOnly
            )
        case .csv, .json:
            let table = try CSVSource.load(
                path: options.file,
                missingValues: options.missingValues,
                types: options.columnTypes,
                environment: environment
            )
            // Said once, before anything else is printed (or curses takes the terminal).
            if let notice = table.cacheNotice { writeStandardError("\(ProgramName.current): \(notice)\n") }
            return try TableDatabase(path: options.file, kind: kind, databasePath: table.databasePath, readOnly: true)
        }
    }

    /// `--query`: the query checked and run over the SQLite file `options.file` (``QuerySource``), its
    /// result's table opened as the database's one table; not followed until ``QuerySource/follow(_:)``.
    ///
    /// - Throws: ``FetchedTableError``: 64 a refused query (naming why); 65 a CSV file (a query reads a
    ///   SQLite file), a `--key` two rows share; 66 a missing file.
    static func openQuery(_ options: TableOptions) throws(FetchedTableError) -> TableDatabase {
        let kind = options.postgres != nil ? .sqlite : try TableFileKind.of(path: options.file)
        if kind != .sqlite {
            throw .data(
                "--query: \(options.file) is a \(kind == .json ? "JSON" : "CSV") file; a query reads a SQLite database"
            )
        }
        return try queryResult(
            QuerySource.open(options),
            path: options.postgres?.label ?? options.file,
            writeRefusal: options.readOnly ? "opened with --read-only" : nil
        )
    }

    /// `--query` checked over the SQLite file `options.file`, not run yet (``QuerySource/prepare(_:)``).
    ///
    /// - Throws: ``FetchedTableError``: 64 a refused query; 65 a CSV or JSON file; 66 a missing file.
    static func prepareQuery(_ options: TableOptions) throws(FetchedTableError) -> QuerySource {
        let kind = try TableFileKind.of(path: options.file)
        if kind != .sqlite {
            throw .data(
                "--query: \(options.file) is a \(kind == .json ? "JSON" : "CSV") file; a query reads a SQLite database"
            )
        }
        return try QuerySource.prepare(options)
    }

    /// The result of `source` (run) as a database of one table, for the file at `path`: its rows
    /// deleted, edited and added to in the table they are rows of when they are one table's
    /// (``QuerySource/openWrites(refusal:)``), else read-only, saying why.
    ///
    /// - Parameter writeRefusal: why the queried file may not be written whatever the query
    ///   (`--read-only`, a CSV file's cache); nil when it may.
    static func queryResult(
        _ source: QuerySource,
        path: String,
        writeRefusal: String? = nil
    ) throws(FetchedTableError) -> TableDatabase {
        var database = try TableDatabase(
            path: path,
            kind: .sqlite,
            databasePath: source.live.result.path,
            readOnly: true
        )
        database.readOnlyReason = source.openWrites(refusal: writeRefusal)
        database.querySource = source
        return database
    }
}
