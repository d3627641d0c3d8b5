import BulkImport
import CLIKit
import Foundation

/// A CSV or TSV file as a database `fetchedtable` can browse: its cache database
/// (``CSVTableLoader``: under `$XDG_CACHE_HOME/fetchedtable/`, reused while the
/// file's size and mtime are unchanged, rebuilt when they change; `--na` names the
/// missing-value tokens, and another set is another cache).
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

    /// The loader's options: fetchedtable's cache folder, its history table's name kept free, `--na`.
    static func loaderOptions(missingValues: [String]?, environment: [String: String]) -> CSVTableLoader.Options {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = CSVCacheLocation.defaultDirectory(for: "fetchedtable", environment: environment)
        options.reservedTableNames.insert(TableFileNames.tracking.historyTable)
        if let missingValues { options.missingValues = missingValues }
        return options
    }

    /// Loads (or reuses) the cache database of the CSV file at `path`, its missing-value tokens
    /// `missingValues` (nil: the loader's); `progress` and `firstRows` as ``CSVTableLoader`` calls
    /// them (on its threads). The table's ``CSVTable/cacheNotice`` holds every sentence to tell the
    /// person once: a temporary cache folder, a file that mixes encodings.
    ///
    /// - Throws: ``FetchedTableError`` with the loader's `FILE:LINE` sentences: 65 bad data, 66 unreadable, 74 I/O.
    static func load(
        path: String,
        missingValues: [String]? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: (@Sendable (ImportProgress) -> Void)? = nil,
        firstRows: ((CSVTableLoader.Preview) -> Void)? = nil
    ) throws(FetchedTableError) -> CSVTable {
        let options = loaderOptions(missingValues: missingValues, environment: environment)
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
