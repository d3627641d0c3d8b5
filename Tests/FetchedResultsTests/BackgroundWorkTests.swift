import Dispatch
import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// The controller's one background concept (`BackgroundWork`): start, poll (nil until the work is
/// done, then one poll installs or delivers it), wait, cancel (what the controller still needs
/// starts again at the next poll). The work is held back deterministically by another connection
/// holding the foreign file's exclusive lock: the second connection's query waits for it.
@Suite("Background work: start, poll, wait, cancel")
struct BackgroundWorkTests {
    typealias Foreign = ForeignBackgroundRefetchTests

    /// A foreign file with `rows` random rows, its store and a controller over it.
    static func fixture(seed: UInt64) throws -> (Foreign.ForeignFile, Store, FetchedResultsController) {
        var rng = Foreign.Seeded(mix: SplitMix(seed: seed))
        let file = try Foreign.ForeignFile()
        for _ in 0..<40 { try Foreign.randomWrite(file.writer, &rng) }
        let store = try file.store()
        return (file, store, BackgroundFetchTests.controller(store))
    }

    /// Adds `count` rows in one statement: enough for a query to reach SQLite's progress handler,
    /// which interrupts it once it is cancelled.
    static func addRows(_ file: Foreign.ForeignFile, count: Int) throws {
        try file.writer.run(
            """
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
            INSERT INTO "the items" SELECT 'item ' || i, CASE i % 3 WHEN 0 THEN 'fruit' ELSE 'nuts' END, i % 10 FROM k
            """,
            [.integer(Int64(count))]
        )
    }

    /// Blocks until `semaphore` is signalled (the worker's `onFinish`); false after a minute.
    static func finished(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 60) == .success
    }

    @Test func aPollBeforeTheFetchIsDoneReturnsNilAndOnePollAfterInstallsIt() throws {
        let (file, store, controller) = try Self.fixture(seed: 0xB6_0001)
        let done = DispatchSemaphore(value: 0)
        try file.writer.execute("BEGIN EXCLUSIVE")
        #expect(controller.startInBackground(.fetch, onFinish: { done.signal() }) == .started)
        #expect(try controller.pollBackgroundWork() == nil, "the query waits for the writer's lock")
        #expect(controller.backgroundWork == [.fetch] && !controller.hasFetched)
        try file.writer.execute("COMMIT")
        try #require(Self.finished(done))
        #expect(!controller.hasFetched, "a finished fetch is installed by a poll, not by the worker")
        #expect(try controller.pollBackgroundWork() == .fetched)
        #expect(controller.backgroundWork.isEmpty)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
        #expect(try controller.pollBackgroundWork() == nil, "installed once")
    }

    @Test func onePollDeliversAFinishedRefetchAsAnyBatch() throws {
        let (file, store, controller) = try Self.fixture(seed: 0xB6_0002)
        var delivered: [ChangeBatch] = []
        controller.onChange = { delivered.append($0) }
        try controller.performFetch()
        let before = Snapshot(controller)
        try file.writer.run("INSERT INTO \"the items\" VALUES ('new one', 'fruit', 1)")
        let done = DispatchSemaphore(value: 0)
        #expect(controller.startInBackground(.refetch, onFinish: { done.signal() }) == .started)
        try #require(Self.finished(done))
        #expect(delivered.isEmpty && controller.backgroundWork == [.refetch])
        let outcome = try controller.pollBackgroundWork()
        guard case .refetched(let batch)? = outcome else {
            Issue.record("one poll after the work finished delivers it, got \(String(describing: outcome))")
            return
        }
        #expect(delivered == [batch] && batch.isReset)
        let expected = try Foreign.fresh(store, Foreign.byGroup())
        #expect(try BatchChecker.apply(batch, to: before) == expected)
        #expect(Snapshot(controller) == expected)
        #expect(try controller.pollBackgroundWork() == nil && controller.backgroundWork.isEmpty)
    }

    @Test func waitInstallsTheFetchAndTheRefetchThatFollowsIt() throws {
        let (file, store, controller) = try Self.fixture(seed: 0xB6_0003)
        controller.refetchesInBackgroundOnReset = true
        controller.onChange = { _ in }
        #expect(controller.startInBackground(.refetch) == .unavailable, "nothing to refetch before a fetch")
        #expect(controller.startInBackground(.fetch) == .started)
        #expect(controller.startInBackground(.refetch) == .unavailable)
        _ = try controller.waitForBackgroundWork()
        try file.writer.run("INSERT INTO \"the items\" VALUES ('late', 'nuts', 2)")
        try controller.context.processExternalChanges()
        #expect(controller.backgroundWork == [.refetch])
        #expect(controller.startInBackground(.refetch) == .started, "queued after the running one")
        guard case .refetched? = try controller.waitForBackgroundWork() else {
            Issue.record("the wait delivered no refetch")
            return
        }
        #expect(controller.backgroundWork.isEmpty)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
    }

    @Test func aCancelledFetchStartsAgainAtTheNextPollAndEndsRight() throws {
        let (file, store, controller) = try Self.fixture(seed: 0xB6_0004)
        try Self.addRows(file, count: 5000)
        let done = DispatchSemaphore(value: 0)
        try file.writer.execute("BEGIN EXCLUSIVE")
        #expect(controller.startInBackground(.fetch, onFinish: { done.signal() }) == .started)
        let cancelled = try #require(controller.backgroundQuery)
        controller.cancelBackgroundWork()
        try file.writer.execute("COMMIT")
        try #require(Self.finished(done))
        #expect(cancelled.job.isCancelled)
        #expect(try controller.pollBackgroundWork() == nil, "the interrupted fetch starts again")
        #expect(controller.backgroundWork == [.fetch] && controller.backgroundQuery !== cancelled)
        #expect(try controller.waitForBackgroundWork() == .fetched)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
    }

    @Test func aCancelledPrefixBuildStartsAgainAtTheNextPollAndTheChangeSetUsesIt() throws {
        let (file, _, controller) = try Self.fixture(seed: 0xB6_0005)
        try Self.addRows(file, count: 5000)
        controller.onChange = { _ in }
        try controller.performFetch()
        try file.writer.execute("BEGIN EXCLUSIVE")
        #expect(controller.startInBackground(.prepareForChanges) == .started)
        let cancelled = try #require(controller.prefixJob)
        controller.cancelBackgroundWork()
        try file.writer.execute("COMMIT")
        _ = cancelled.job.wait()
        #expect(cancelled.job.isCancelled && controller.prefixJob === cancelled)
        #expect(controller.placesWithoutKeys(1), "a cancelled build does not hold small change sets back")
        #expect(try controller.pollBackgroundWork() == nil)
        let restarted = try #require(controller.prefixJob)
        #expect(restarted !== cancelled && !restarted.job.isCancelled)
        _ = try controller.waitForBackgroundWork()
        #expect(controller.backgroundWork.isEmpty)
        try controller.prepareForChanges()
        #expect(controller.list.hasKeys, "the restarted build's prefixes are used")
        #expect(controller.statistics.keyBuilds == 1)
    }

    @Test func aBusySecondConnectionIsSaidSoForEveryKind() throws {
        let (file, store, controller) = try Self.fixture(seed: 0xB6_0007)
        defer { withExtendedLifetime(file) {} }
        try controller.performFetch()
        let lease = try #require(store.acquireReaderConnection())
        defer { lease.release() }
        #expect(controller.startInBackground(.refetch) == .busy)
        #expect(controller.startInBackground(.prepareForChanges) == .busy)
        #expect(controller.startInBackground(.fetch) == .busy)
        #expect(controller.backgroundWork.isEmpty)
    }
}
