import BulkImport
import Foundation
import SQLiteStore
import Testing

/// A file that grows (a log), for the tests of its cache completed in place: CSV
/// (``CSVCacheAppendTests``) and JSON Lines (``JSONCacheAppendTests``) alike.
extension CSVLoaderFixture {
    /// Appends `text` to the file at `path` (the same inode, as a logger writes).
    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// The cache file's inode (the same one: completed in place).
    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    /// A loader whose cache keeps a history (`test_history`), as a store on the cache reads it.
    func trackingLoader(_ path: String) -> CSVTableLoader {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = cacheDirectory
        options.tracking = TrackingNames(historyTable: "test_history")
        return CSVTableLoader(source: path, options: options)
    }

    /// Loads the one-row file at `path`, appends `twoRows` to it and loads it again: the second
    /// load completes the same database in place (the same columns, the two rows inserted and
    /// in its history), and a third load finds nothing more to read. Returns the second load.
    func loadAppendedInPlace(
        _ path: String,
        appending twoRows: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CSVTable {
        let first = try trackingLoader(path).load()
        let node = inode(first.databasePath)
        try append(twoRows, to: path)
        let second = try trackingLoader(path).load()
        #expect(second.wasReused, sourceLocation: sourceLocation)
        #expect(second.appendedRowCount == 2, sourceLocation: sourceLocation)
        #expect(second.rowCount == 3, sourceLocation: sourceLocation)
        #expect(second.columns == first.columns, sourceLocation: sourceLocation)
        #expect(inode(second.databasePath) == node, "the same database, completed", sourceLocation: sourceLocation)
        // The history a store on the cache reads: the two inserts.
        let db = try Database(path: second.databasePath, options: readOnly)
        #expect(
            try db.query("SELECT row_id, op FROM test_history ORDER BY seq") == [
                [.integer(2), .text("I")], [.integer(3), .text("I")],
            ],
            sourceLocation: sourceLocation
        )
        let third = try trackingLoader(path).load()
        #expect(third.wasReused, sourceLocation: sourceLocation)
        #expect(third.appendedRowCount == 0, "up to date now", sourceLocation: sourceLocation)
        return second
    }
}
