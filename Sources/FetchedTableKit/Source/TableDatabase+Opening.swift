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

    /// `--query`: the query checked and run over the SQLite file `options.file`, or a CSV or JSON
    /// file's cache (``queryDatabasePath(_:)``), its result's table opened as the database's one
    /// table; not followed until ``QuerySource/follow(_:refreshed:)``.
    ///
    /// - Throws: ``FetchedTableError``: 64 a refused query (naming why); 65 a `--key` two rows share,
    ///   a CSV or JSON file that cannot be loaded; 66 a missing file.
    static func openQuery(_ options: TableOptions) throws(FetchedTableError) -> TableDatabase {
        let source: QuerySource
        if options.postgres != nil {
            source = try QuerySource.open(options)
        } else {
            let (path, kind) = try queryDatabasePath(options)
            source = try QuerySource.open(options, databasePath: path)
            source.fileKind = kind
        }
        return try queryResult(
            source,
            path: options.postgres?.label ?? options.file,
            writeRefusal: source.fileRefusal ?? (options.readOnly ? "opened with --read-only" : nil)
        )
    }

    /// `--query` checked over the SQLite file `options.file` or a CSV or JSON file's cache
    /// (``queryDatabasePath(_:)``), not run yet (``QuerySource/prepare(_:databasePath:)``).
    ///
    /// - Throws: ``FetchedTableError``: 64 a refused query; 65 a CSV or JSON file that cannot be
    ///   loaded; 66 a missing file.
    static func prepareQuery(_ options: TableOptions) throws(FetchedTableError) -> QuerySource {
        let (path, kind) = try queryDatabasePath(options)
        let source = try QuerySource.prepare(options, databasePath: path)
        source.fileKind = kind
        return source
    }

    /// The SQLite file a `--query` of `options.file` reads, and what the file is: the file itself,
    /// or a CSV or JSON file's cache (loaded now when it is not up to date, with `--na` and
    /// `--type`), whose one table is named as the `:` line names it — after the file, without
    /// its extension (`pets.csv`: `pets`; ``CSVTableLoader/tableName``).
    ///
    /// - Throws: ``FetchedTableError``: 65 a file that is neither, or a CSV or JSON file that cannot
    ///   be loaded; 66 a missing file.
    static func queryDatabasePath(_ options: TableOptions) throws(FetchedTableError) -> (String, TableFileKind) {
        let kind = try TableFileKind.of(path: options.file)
        guard kind.isCached else { return (options.file, kind) }
        let table = try CSVSource.load(
            path: options.file,
            missingValues: options.missingValues,
            types: options.columnTypes
        )
        if let notice = table.cacheNotice { writeStandardError("\(ProgramName.current): \(notice)\n") }
        return (table.databasePath, kind)
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
