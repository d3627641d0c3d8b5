import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `failedbanks watch` ends on SIGTERM and SIGINT whatever its reader does — also when the
/// reader stopped reading and the watch is blocked writing into a full pipe (`systemctl stop`,
/// `timeout` rely on it).
@Suite(.enabled(if: BrowserFixture.binary != nil, Comment(rawValue: BuiltProgram.missingReason("failedbanks"))))
struct WatchSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aWatchBlockedOnAFullPipeEndsOnTheSignal(_ signo: Int32) throws {
        let binary = try #require(BrowserFixture.binary)
        let folder = TemporaryDirectory("fb-watch-signal")
        defer { folder.remove() }
        let csv = folder.path("banks.csv")
        let store = folder.path("banks.sqlite")
        // 3,000 banks: a snapshot line of about 20 KB, more than the one-page pipe holds.
        try BankListGenerator(seed: 38_6).write(rows: 3_000, to: csv)
        let imported = try ProcessRunner.run(binary, ["import", csv, "--db", store, "--quiet"])
        try #require(imported.status == 0, "\(imported.standardError)")
        let watch = try UnreadOutputProcess([binary, "watch", "--db", store])
        #expect(watch.waitUntilOutputIsFull(timeout: 60), "the watch never filled its pipe")
        usleep(200_000)  // into the write that blocks (before it, the signal is seen at the next poll anyway)
        #expect(!watch.hasExited)
        #expect(watch.signal(signo, waitingUpTo: 20) == 0, "the watch did not end on signal \(signo)")
    }
}
