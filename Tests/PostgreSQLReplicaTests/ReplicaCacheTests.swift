import Foundation
import PostgreSQLReplica
import TestSupport
import Testing

/// The copies of a cache folder: listed with their table, size and session; pruned least
/// recently used first to a bound, never one a running session uses.
@Suite struct ReplicaCacheTests {
    /// A process ID no process has (above Linux's largest).
    static let ended: Int32 = 99_999_999

    static func makeCopy(_ directory: String, table: String, pid: Int32, bytes: Int, age: Double) throws -> String {
        let path = "\(directory)/\(table)-0123abcd-\(pid).sqlite"
        try Data(count: bytes).write(to: URL(fileURLWithPath: path))
        try Data(count: 10).write(to: URL(fileURLWithPath: path + "-wal"))
        let date = Date(timeIntervalSinceNow: -age)
        for file in [path, path + "-wal"] {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file)
        }
        return path
    }

    @Test func theLeastRecentlyUsedCopiesGoFirstAndNeverOneInUse() throws {
        let directory = try makeCacheDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let oldest = try Self.makeCopy(directory, table: "public.a", pid: Self.ended, bytes: 1000, age: 300)
        let inUse = try Self.makeCopy(directory, table: "public.b", pid: getpid(), bytes: 1000, age: 200)
        let older = try Self.makeCopy(directory, table: "public.c", pid: Self.ended, bytes: 1000, age: 100)
        let newest = try Self.makeCopy(directory, table: "sales.d-e", pid: Self.ended, bytes: 1000, age: 10)
        try Data(count: 5).write(to: URL(fileURLWithPath: "\(directory)/not-a-copy.txt"))
        let cache = ReplicaCache(directory: directory)
        let entries = cache.entries()
        #expect(entries.map(\.path) == [oldest, inUse, older, newest])
        #expect(entries.map(\.table) == ["public.a", "public.b", "public.c", "sales.d-e"])
        #expect(entries.map(\.bytes) == [1010, 1010, 1010, 1010])
        #expect(entries.map(\.isInUse) == [false, true, false, false])
        let removed = cache.prune(toFit: 2100)
        #expect(removed.map(\.path) == [oldest, older], "the oldest unused, not the one in use")
        #expect(cache.entries().map(\.path) == [inUse, newest])
        #expect(!FileManager.default.fileExists(atPath: oldest + "-wal"))
        #expect(cache.remove(cache.entries()).map(\.path) == [newest])
        #expect(cache.entries().map(\.path) == [inUse])
    }
}
