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
}
