import BulkImport
import Foundation
import Glibc

/// A CSV or JSON file followed while it is shown: its size, modification time and inode,
/// looked at each poll (one `stat`), tell when it changed; then its cache is brought up to
/// date (``CSVSource/load(path:missingValues:environment:progress:firstRows:)``): the rows
/// appended to a file that grew are appended to the cache — which a store on it sees as
/// inserts (its history) — and a file changed otherwise is read into a new cache.
///
/// A poll of another process's change (the file), as the store's `data_version` poll is: no
/// event says that a file grew.
///
///     let follower = CachedFileFollower(path: "log.csv", missingValues: nil)
///     if follower.hasChanged() {
///         let table = try follower.refresh()   // table.wasReused: the same cache, completed
///     }
final class CachedFileFollower: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time (the loop polls; a refresh runs on a thread
    // of its own, and the loop does not poll until it is done).
    /// What `stat` says of a file: enough to tell that it changed (its content check is the loader's).
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
        var inode: UInt64

        /// The stamp of the file at `path` now, nil when it cannot be read.
        static func of(_ path: String) -> Stamp? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Stamp(
                size: Int64(info.st_size),
                modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                inode: UInt64(info.st_ino)
            )
        }
    }

    /// The file, as given.
    let path: String
    /// `--na`.
    let missingValues: [String]?
    let environment: [String: String]
    /// The stamp the cache was last brought up to date with (nil: the file could not be read).
    private(set) var stamp: Stamp?
    /// False until the first refresh: the first poll looks (the file may have changed between its
    /// load and the first poll).
    private var hasRefreshed = false

    /// A follower of the file at `path` read with the missing-value tokens `missingValues`.
    init(
        path: String,
        missingValues: [String]?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.path = path
        self.missingValues = missingValues
        self.environment = environment
    }

    /// Whether the file is not as it was when its cache was last brought up to date.
    func hasChanged() -> Bool { !hasRefreshed || Stamp.of(path) != stamp }

    /// Brings the cache up to date (from any thread, one call at a time): the rows appended
    /// (``BulkImport/CSVTable/appendedRowCount``), or a new cache (not ``BulkImport/CSVTable/wasReused``).
    ///
    /// - Throws: ``FetchedTableError`` as the first load would (bad rows, bad JSON, a file gone); the
    ///   file is looked at again once it changes again.
    func refresh(progress: (@Sendable (ImportProgress) -> Void)? = nil) throws(FetchedTableError) -> CSVTable {
        // Taken before reading: a change made while the cache is brought up to date is seen at the
        // next poll. Kept after a failure too: the file is read again when it changes again.
        let before = Stamp.of(path)
        defer {
            stamp = before
            hasRefreshed = true
        }
        return try CSVSource.load(
            path: path,
            missingValues: missingValues,
            environment: environment,
            progress: progress
        )
    }
}
