import Foundation
import SQLiteStore
import Testing

@testable import FetchedResults

/// The one job type behind the controller's background work: start with the store's second
/// connection, poll (never waits), wait, cancel (the query is interrupted); the connection is
/// given back when the work ends, and `onFinish` wakes whoever waits for it.
@Suite struct BackgroundJobTests {
    /// A query that runs until it is interrupted (a recursive count with no end).
    static let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"

    @Test func aJobPollsNilWhileItRunsAndItsOutcomeOnceDoneThenGivesTheConnectionBack() throws {
        let t = try TempStore()
        try t.addBank("alpha")
        let woken = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let job = BackgroundJob<Int64>(onFinish: { woken.signal() })
        let lease = try #require(t.store.acquireReaderConnection())
        job.start(with: lease) { lease, _ in
            gate.wait()
            return try lease.database.scalar("SELECT count(*) FROM failed_bank_info").int64 ?? -1
        }
        #expect(job.poll() == nil, "the work waits at the gate")
        #expect(t.store.acquireReaderConnection() == nil, "the job holds the second connection")
        gate.signal()
        #expect(try job.wait().get() == 1)
        #expect(try job.poll()?.get() == 1)
        #expect(job.isFinished && !job.isCancelled)
        #expect(woken.wait(timeout: .now() + 60) == .success, "onFinish was called")
        let again = try #require(t.store.acquireReaderConnection(), "the connection is back")
        again.release()
    }

    @Test func aCancelledJobsQueryIsInterruptedAndTheConnectionWorksForTheNextJob() throws {
        let t = try TempStore()
        let started = DispatchSemaphore(value: 0)
        let job = BackgroundJob<Int64>()
        job.start(with: try #require(t.store.acquireReaderConnection())) { lease, _ in
            started.signal()
            return try lease.database.scalar(Self.endless).int64 ?? 0
        }
        started.wait()
        job.cancel()
        #expect(job.isCancelled)
        #expect(throws: SQLiteError.self) { try job.wait().get() }
        let next = BackgroundJob<Int64>()
        next.start(with: try #require(t.store.acquireReaderConnection())) { lease, _ in
            try lease.database.scalar("SELECT 41 + 1").int64 ?? 0
        }
        #expect(try next.wait().get() == 42, "a new lease runs statements again")
    }
}
