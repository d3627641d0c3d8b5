import CSVImport
import FailedBanksKit
@_spi(Benchmark) import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Timekeeping

/// The controller's work for a change set of 1 and of 1,000 changed banks,
/// beside refetching and diffing for the very same change sets.
///
/// Two controllers over the Date tab are fetched first, each with a
/// delegate (so the batch is delivered as the app would receive it). For
/// each run, random banks get a new closing date (moving them to another
/// year's section) through a third context, which saves and publishes the
/// `ChangeSet`. That change set is timed through `process(_:)` on the first
/// controller, and (on a subset of runs, at a million rows each costs a
/// refetch) through `refetchAndDiff(updated:)` on the second; on the other
/// runs the second controller catches up with `process(_:)`, untimed. The
/// two batches' section counts must agree. Keys: `change1_ms`,
/// `change1000_ms`, `refetch_diff1_ms`, `refetch_diff1000_ms`,
/// `change1_speedup`, `change1000_speedup`.
///
/// A third controller reads each change set's rows on the store's connection
/// only (`splitsLargeReads = false`): its time for the 1,000-object change sets
/// is the table's information row `change1000_one_connection_ms`, the cost
/// without the second core. It builds its sort-key prefixes in the background
/// right after its fetch (`startInBackground(.prepareForChanges)`, as the app's
/// adapter does): its first change set is `first_change1_background_ms`,
/// beside the first controller's (`first_change_after_fetch_ms`: a change set
/// of one row right after the fetch, before any prefix exists).
struct ChangeBenchmark {
    let runner: BenchRunner

    /// Counts deliveries, as a table adapter would receive them.
    final class CountingDelegate: FetchedResultsControllerDelegate {
        var objectChanges = 0
        var sectionChanges = 0
        func controller(
            _ controller: FetchedResultsController,
            didChange section: SectionInfo,
            atSectionIndex sectionIndex: Int,
            for type: ChangeType
        ) { sectionChanges += 1 }
        func controller(
            _ controller: FetchedResultsController,
            didChange objectID: ObjectID,
            at indexPath: IndexPath?,
            for type: ChangeType,
            newIndexPath: IndexPath?
        ) { objectChanges += 1 }
    }

    final class Box<T> {
        var value: T
        init(_ value: T) { self.value = value }
    }

    func run() throws {
        let store = try FailedBankStore.open(path: try runner.store())
        let incremental = BankFetch.controller(context: ObjectContext(store: store))
        let baseline = BankFetch.controller(context: ObjectContext(store: store))
        let incrementalDelegate = CountingDelegate()
        let baselineDelegate = CountingDelegate()
        incremental.delegate = incrementalDelegate
        baseline.delegate = baselineDelegate
        let oneConnection = BankFetch.controller(context: ObjectContext(store: store))
        oneConnection.splitsLargeReads = false
        let oneConnectionDelegate = CountingDelegate()
        oneConnection.delegate = oneConnectionDelegate
        try incremental.performFetch()
        try baseline.performFetch()
        try oneConnection.performFetch()
        // As the app does: the prefixes are built on the store's second connection while work goes on.
        oneConnection.startInBackground(.prepareForChanges)
        guard incremental.numberOfObjects > 0 else { throw BenchError.failed("the store is empty") }

        let writer = ObjectContext(store: store)
        let published = Box<ChangeSet?>(nil)
        writer.addObserver { published.value = $0 }
        var random = SplitMix64(seed: BenchRunner.seed)
        let large = runner.configuration.isLarge

        for (count, keys) in [
            (1, ("change1_ms", "refetch_diff1_ms", "change1_speedup")),
            (1000, ("change1000_ms", "refetch_diff1000_ms", "change1000_speedup")),
        ] {
            let runs =
                count == 1
                ? runner.configuration.runs(small: 31, large: 31)
                : runner.configuration.runs(small: 11, large: 11)
            let refetchRuns = min(runs, runner.configuration.runs(small: 5, large: 5))
            var processTimes: [Double] = []
            var refetchTimes: [Double] = []
            var oneConnectionTimes: [Double] = []
            var mismatch: String?
            for index in 0...runs {  // 0: warm-up
                let ids = randomIDs(count, of: incremental, using: &random)
                for id in ids {
                    guard let info = try writer.object(with: id), let details = info.related("details") else {
                        continue
                    }
                    details["closeDate"] = .text(randomDate(different: details["closeDate"], using: &random))
                }
                published.value = nil
                try writer.save()
                guard let changes = published.value else {
                    throw BenchError.failed("saving \(count) changes published no change set")
                }

                let (seconds, batch) = try MonotonicClock.measure { try incremental.process(changes) }
                if index > 0 { processTimes.append(seconds) }
                let (oneSeconds, _) = try MonotonicClock.measure { try oneConnection.process(changes) }
                if index > 0 { oneConnectionTimes.append(oneSeconds) }
                if index == 0 && count == 1 { runner.results["first_change1_background_ms"] = oneSeconds * 1000 }
                if index == 0 && count == 1 { runner.results["first_change_after_fetch_ms"] = seconds * 1000 }
                let baselineBatch: ChangeBatch?
                if index <= refetchRuns {
                    let updated = Set(changes.updated.keys.filter { $0.entity == FailedBankModel.info })
                    let (refetchSeconds, diffed) = try MonotonicClock.measure {
                        try baseline.refetchAndDiff(updated: updated)
                    }
                    if index > 0 { refetchTimes.append(refetchSeconds) }
                    baselineBatch = diffed
                    if large || index == 0 {
                        runner.log(
                            String(
                                format: "%d changed: process %.3f ms, refetch+diff %.1f ms",
                                count,
                                seconds * 1000,
                                refetchSeconds * 1000
                            )
                        )
                    }
                } else {
                    baselineBatch = try baseline.process(changes)
                }
                if mismatch == nil, (batch?.counts ?? []) != (baselineBatch?.counts ?? []) || batch == nil {
                    mismatch =
                        batch == nil
                        ? "process(_:) returned no batch for \(count) changed banks"
                        : "process(_:) and refetchAndDiff disagree on the section counts after \(count) changes"
                }
            }
            if let mismatch { runner.results.note("change: \(mismatch)") }
            runner.results.setMedian(keys.0, of: processTimes, scale: 1000)
            runner.results.setMedian(keys.1, of: refetchTimes, scale: 1000)
            runner.results.setRatio(keys.2, keys.1, keys.0)
            if count == 1000 {
                runner.results.setMedian("change1000_one_connection_ms", of: oneConnectionTimes, scale: 1000)
            }
        }
        if incrementalDelegate.objectChanges == 0 {
            runner.results.note("change: the delegate received no object changes")
        }
    }

    /// `count` distinct ids at random positions of the controller's results.
    private func randomIDs(
        _ count: Int,
        of controller: FetchedResultsController,
        using random: inout SplitMix64
    ) -> [ObjectID] {
        var starts: [Int] = []
        var total = 0
        for section in 0..<controller.numberOfSections {
            starts.append(total)
            total += controller.numberOfObjects(inSection: section)
        }
        var chosen = Set<ObjectID>()
        while chosen.count < min(count, total) {
            let flat = Int.random(in: 0..<total, using: &random)
            var lo = 0
            var hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= flat { lo = mid } else { hi = mid - 1 }
            }
            if let id = controller.objectID(at: IndexPath(row: flat - starts[lo], section: lo)) { chosen.insert(id) }
        }
        return Array(chosen)
    }

    /// A closing date in another year than `old` (2000–2025, like the generated list).
    private func randomDate(different old: StoreValue, using random: inout SplitMix64) -> String {
        let oldYear = old.string.flatMap { Int($0.prefix(4)) }
        var year = Int.random(in: 2000...2025, using: &random)
        if year == oldYear { year = year == 2025 ? 2000 : year + 1 }
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
