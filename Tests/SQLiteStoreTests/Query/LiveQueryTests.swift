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
        // Asked until the run ends: a request before the run starts is cleared by its start.
        let deadline = Date().addingTimeInterval(60)
        while done.wait(timeout: .now() + 0.05) == .timedOut {
            live.cancelRun()
            if Date() > deadline { break }
        }
        #expect(outcome.value == "interrupted")
        #expect(live.result.count == 0)
    }
}
