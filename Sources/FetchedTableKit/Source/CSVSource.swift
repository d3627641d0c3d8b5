import BulkImport
import CLIKit
import Foundation

/// A CSV or TSV file as a database `fetchedtable` can browse: its cache database
/// (``CSVTableLoader``: under `$XDG_CACHE_HOME/fetchedtable/`, reused while the
/// file's size and mtime are unchanged, rebuilt when they change).
///
///     let databasePath = try CSVSource(path: "banklist.csv").load()
enum CSVSource {
    /// Whether the cache database of the file at `path` is up to date (a load would reuse it at once).
    static func isCached(path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let directory = CSVCacheLocation.defaultDirectory(for: "fetchedtable", environment: environment)
        return (try? CSVCacheLocation(source: path, directory: directory))?.isBuilt ?? false
    }

    /// Loads (or reuses) the cache database of the CSV file at `path`; `progress` and
    /// `firstRows` as ``CSVTableLoader`` calls them (on its threads).
    ///
    /// - Throws: ``FetchedTableError`` with the loader's `FILE:LINE` sentences: 65 bad data, 66 unreadable, 74 I/O.
    static func load(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: (@Sendable (ImportProgress) -> Void)? = nil,
        firstRows: ((CSVTableLoader.Preview) -> Void)? = nil
    ) throws(FetchedTableError) -> CSVTable {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = CSVCacheLocation.defaultDirectory(for: "fetchedtable", environment: environment)
        options.reservedTableNames.insert(TableFileNames.tracking.historyTable)
        let loader = CSVTableLoader(source: path, options: options)
        loader.progress = progress
        loader.firstRows = firstRows
        do {
            return try loader.load()
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
