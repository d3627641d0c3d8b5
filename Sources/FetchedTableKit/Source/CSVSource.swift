import BulkImport
import CLIKit
import Foundation

/// A CSV, TSV or JSON file as a database `fetchedtable` can browse: its cache database
/// (``CSVTableLoader``: under `$XDG_CACHE_HOME/fetchedtable/`, reused while the
/// file is unchanged, completed with the rows appended to a file that grew, rebuilt when it
/// changed otherwise; `--na` names the missing-value tokens, and another set is another cache).
/// The cache keeps the history of the rows appended (`fetchedtable_history`), so a list open on
/// it shows them as inserts.
///
///     let table = try CSVSource.load(path: "banklist.csv")
enum CSVSource {
    /// Whether the cache database of the file at `path` is up to date (a load would reuse it at once).
    static func isCached(
        path: String,
        missingValues: [String]? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        let options = loaderOptions(missingValues: missingValues, environment: environment)
        return CSVTableLoader(source: path, options: options).isCached
    }

    /// The loader's options: fetchedtable's cache folder, its history table's name kept free and
    /// installed, `--na`.
    static func loaderOptions(missingValues: [String]?, environment: [String: String]) -> CSVTableLoader.Options {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = CSVCacheLocation.defaultDirectory(for: "fetchedtable", environment: environment)
        options.reservedTableNames.insert(TableFileNames.tracking.historyTable)
        options.tracking = TableFileNames.tracking
        if let missingValues { options.missingValues = missingValues }
        return options
    }

    /// Loads (or reuses) the cache database of the CSV file at `path`, its missing-value tokens
    /// `missingValues` (nil: the loader's); `progress` and `firstRows` as ``CSVTableLoader`` calls
    /// them (on its threads). The table's ``CSVTable/cacheNotice`` holds every sentence to tell the
    /// person once: a temporary cache folder, a file that mixes encodings.
    ///
    /// - Throws: ``FetchedTableError`` with the loader's `FILE:LINE` sentences: 65 bad data, 66 unreadable, 74 I/O.
    ///
    /// `types` (`--type`) are then given to their columns in the cache (``retype(_:path:_:missingValues:)``).
    static func load(
        path: String,
        missingValues: [String]? = nil,
        types: [ColumnTypeSpecification] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: (@Sendable (ImportProgress) -> Void)? = nil,
        firstRows: ((CSVTableLoader.Preview) -> Void)? = nil
    ) throws(FetchedTableError) -> CSVTable {
        let options = loaderOptions(missingValues: missingValues, environment: environment)
        let table = try loadCache(path: path, options: options, progress: progress, firstRows: firstRows)
        try retype(table, path: path, types, missingValues: options.missingValues)
        return table
    }

    /// `--type`: the columns of the cache whose type is not the one asked for, given it (a column of
    /// that type already, or one the file does not have — `TableQuery` names it — is left), the
    /// missing-value tokens `missingValues` made NULL.
    ///
    /// - Throws: ``FetchedTableError`` 65 naming a value that does not read as the type.
    static func retype(
        _ table: CSVTable,
        path: String,
        _ types: [ColumnTypeSpecification],
        missingValues: [String]
    ) throws(FetchedTableError) {
        let retyping = CSVTableRetyping(databasePath: table.databasePath, table: table.tableName)
        for given in types {
            guard let column = table.columns.first(where: { $0.name == given.column }),
                column.attributeType != given.attributeType
            else { continue }
            do {
                _ = try retyping.retype(given.column, to: given.type, missingValues: missingValues)
            } catch let refusal as CSVTableRetyping.Refusal {
                throw FetchedTableError(
                    "\(path): --type \(given.column)=\(given.type.rawValue): \(refusal)",
                    status: 65
                )
            } catch {
                throw FetchedTableError(
                    "\(path): --type \(given.column)=\(given.type.rawValue): \(FetchedTableError.reason(error))",
                    status: ExitStatus.ioError
                )
            }
        }
    }

    /// Loads (or reuses) the cache database with the loader's `options`.
    private static func loadCache(
        path: String,
        options: CSVTableLoader.Options,
        progress: (@Sendable (ImportProgress) -> Void)?,
        firstRows: ((CSVTableLoader.Preview) -> Void)?
    ) throws(FetchedTableError) -> CSVTable {
        let loader = CSVTableLoader(source: path, options: options)
        loader.progress = progress
        loader.firstRows = firstRows
        do {
            var table = try loader.load()
            let notices = [table.cacheNotice, table.encodingNotice(file: path)].compactMap { $0 }
            table.cacheNotice = notices.isEmpty ? nil : notices.joined(separator: "; ")
            return table
        } catch EntityImportError.store(let database, let error) {
            // The cache (a temporary file beside it while building): named as the cache of the file given.
            let folder = (database as NSString).deletingLastPathComponent
            throw FetchedTableError(
                "\(path): cannot build its cache in \(folder): \(FetchedTableError.reason(error))",
                status: ExitStatus.ioError
            )
        } catch let error as EntityImportError {
            throw FetchedTableError(error.messages.joined(separator: "; "), status: error.exitStatus)
        } catch {
            throw FetchedTableError("\(path): \(FetchedTableError.reason(error))", status: ExitStatus.ioError)
        }
    }
}
