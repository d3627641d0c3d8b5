import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// A ``LiveQuery``'s runs can be stopped: a slow first run ends with SQLite's interrupt, the
/// result left empty; the query runs again afterwards.
@Suite struct LiveQueryTests {
    /// What the run on the other thread ended with.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        var value: String? { lock.withLock { text } }
        func set(_ value: String) { lock.withLock { text = value } }
    }

    @Test func aSlowRunIsCancelledAndTheResultStaysAsItWas() throws {
        let folder = TemporaryDirectory("live-query")
        let writer = try Database(path: folder.path("slow.sqlite"))
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2);")
        // Billions of rows: it never ends by itself within a test.
        let live = try LiveQuery(
            databasePath: folder.path("slow.sqlite"),
            sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) AS n FROM c, t",
            resultPath: folder.path("result.sqlite")
        )
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try live.load()
                outcome.set("finished")
            } catch let error as SQLiteError where error.isInterrupted {
                outcome.set("interrupted")
            } catch {
                outcome.set("\(error)")
            }
            done.signal()
        }
        thread.start()
        // Asked once, whether the run has started yet or not.
        live.cancelRun()
        if done.wait(timeout: .now() + 60) == .timedOut {
            live.cancelRun()  // not to leave the thread running
            done.wait()
        }
        #expect(outcome.value == "interrupted")
        #expect(live.result.count == 0)
    }

    @Test func aCancelBeforeTheLoadEndsTheLoadAsCancelledAtOnceAndTheNextLoadRuns() throws {
        let folder = TemporaryDirectory("live-query-early")
        let writer = try Database(path: folder.path("quick.sqlite"))
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2);")
        let live = try LiveQuery(
            databasePath: folder.path("quick.sqlite"),
            sql: "SELECT n FROM t",
            resultPath: folder.path("result.sqlite")
        )
        // Before the fix the load's start cleared the request: the query ran to its end.
        live.cancelRun()
        #expect {
            try live.load()
        } throws: { error in
            (error as? SQLiteError)?.isInterrupted == true
        }
        #expect(live.result.count == 0)
        try live.load()
        #expect(live.result.count == 2, "the request was the cancelled load's only")
    }
}
