import Foundation
import SQLiteStore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable watch` ends on SIGTERM and SIGINT whatever its reader does — also when the
/// reader stopped reading and the watch is blocked writing into a full pipe.
@Suite(.enabled(if: TableFixture.binary != nil, Comment(rawValue: BuiltProgram.missingReason("fetchedtable"))))
struct TableWatchSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aWatchBlockedOnAFullPipeEndsOnTheSignal(_ signo: Int32) throws {
        let binary = try #require(TableFixture.binary)
        let folder = TemporaryDirectory("ft-watch-signal")
        defer { folder.remove() }
        let path = folder.path("numbers.sqlite")
        // 5,000 rows: a snapshot line of about 25 KB, more than the one-page pipe holds.
        try Database(path: path).execute(
            """
            CREATE TABLE numbers (id INTEGER PRIMARY KEY, name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO numbers SELECT i, 'number ' || i FROM n;
            """
        )
        let watch = try UnreadOutputProcess([binary, "watch", path, "--table", "numbers"])
        #expect(watch.waitUntilOutputIsFull(timeout: 60), "the watch never filled its pipe")
        usleep(200_000)  // into the write that blocks
        #expect(!watch.hasExited)
        #expect(watch.signal(signo, waitingUpTo: 20) == 0, "the watch did not end on signal \(signo)")
    }
}
