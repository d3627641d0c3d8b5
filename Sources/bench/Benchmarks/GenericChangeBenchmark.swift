@_spi(Benchmark) import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Timekeeping

/// `table10m_change1000_ms`: a change set of 1,000 rows of the 10M-row
/// events table, with tracking installed (`fetchedtable --track`), through
/// the controller.
///
/// The cached database is copied into the run's folder first (tracking adds a
/// table and triggers, and the runs change rows: the cache stays as built).
/// The copy is opened as `fetchedtable --track` opens it (history triggers installed), a controller
/// (``EventsFetch``, with a delegate as the list screen has) fetched and
/// prepared for changes (its sort-key prefixes built, as the app does in the
/// background after its first screen). Each run, another connection — as
/// another process would — gives 1,000 random rows a new timestamp (most move
/// to another day's section) in one transaction; the triggers record it. Then
/// a second context of the store reads the history (`processExternalChanges()`,
/// `table10m_history1000_ms`, table only) and the controller processes that
/// change set (`process(_:)`, the key); so does the grouped controller of a frequency sheet of
/// `day(ts)` (`freq_change1000_ms`: each row's day learnt after the fetch, as the sheet does in
/// the background). One warm-up run, then 11 timed.
struct GenericChangeBenchmark {
    let runner: BenchRunner
    let database: String
    let rows: Int

    func run() throws {
        let copy = runner.workspace.path("events-tracked.sqlite")
        runner.workspace.removeDatabase(copy)
        let (copySeconds, _) = try MonotonicClock.measure {
            try FileManager.default.copyItem(atPath: database, toPath: copy)
        }
        runner.log(String(format: "generic change: copied the database in %.1f s", copySeconds))
        defer { runner.workspace.removeDatabase(copy) }

        let opened = try EventsFetch.open(copy, readOnly: false, track: true)
        let store = opened.store
        guard store.hasTracking else { throw BenchError.failed("--track did not install the history triggers") }
        let controller = EventsFetch.controller(opened, context: ObjectContext(store: store))
        let delegate = ChangeBenchmark.CountingDelegate()
        controller.delegate = delegate
        let (fetchSeconds, _) = try MonotonicClock.measure {
            try controller.performFetch()
            try controller.prepareForChanges()
        }
        runner.log(
            String(
                format: "generic change: fetched and prepared %d rows in %.1f s",
                controller.numberOfObjects,
                fetchSeconds
            )
        )
        // The frequency sheet of day(ts) over the same rows: a grouped controller, each row's group learnt.
        let grouped = GroupedResultsController(
            fetchRequest: FetchRequest(entity: "events"),
            context: ObjectContext(store: store),
            groupKeyPath: "day(ts)"
        )
        let (countSeconds, _) = try MonotonicClock.measure {
            try grouped.performFetch()
            grouped.onChange = { _ in }  // tracking, as the sheet
            try grouped.prepareForChanges()
        }
        runner.log(
            String(
                format: "generic change: counted %d days and learnt each row's in %.1f s",
                grouped.numberOfGroups,
                countSeconds
            )
        )
        let reader = ObjectContext(store: store)
        _ = try reader.processExternalChanges()  // its history position starts here

        var options = Database.Options()
        options.walMode = false
        let writer = try Database(path: copy, options: options)
        let update = "UPDATE events SET ts = ? WHERE id = ?"
        var random = SplitMix64(seed: BenchRunner.seed)
        var processTimes: [Double] = []
        var groupTimes: [Double] = []
        var historyTimes: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 11, large: 11) {  // 0: warm-up
            var ids = Set<Int64>()
            while ids.count < 1000 { ids.insert(Int64(random.next() % UInt64(rows)) + 1) }
            try writer.transaction {
                for id in ids {
                    var ts: [UInt8] = []
                    let epoch = EventsGenerator.startEpoch + Int64(random.next() % UInt64(EventsGenerator.spanSeconds))
                    EventsGenerator.appendTimestamp(epoch, to: &ts)
                    try writer.run(update, [.text(String(decoding: ts, as: UTF8.self)), .integer(id)])
                }
            }
            let (historySeconds, read) = try MonotonicClock.measure { try reader.processExternalChanges() }
            guard let changes = read, !changes.isReset else {
                problems.append(
                    read == nil
                        ? "the history showed no change after 1,000 updates"
                        : "the history read was a reset, not 1,000 updates"
                )
                break
            }
            if changes.updated.count != 1000 && problems.count < 3 {
                problems.append("the change set names \(changes.updated.count) updated rows, not 1,000")
            }
            let before = delegate.objectChanges
            let (seconds, batch) = try MonotonicClock.measure { try controller.process(changes) }
            if batch == nil || delegate.objectChanges == before, problems.count < 3 {
                problems.append("process(_:) delivered no batch for 1,000 changed rows")
            }
            let (groupSeconds, groupBatch) = try MonotonicClock.measure { try grouped.process(changes) }
            if groupBatch == nil, problems.count < 3 {
                problems.append("the grouped controller delivered no batch for 1,000 changed rows")
            }
            if index > 0 {
                processTimes.append(seconds)
                groupTimes.append(groupSeconds)
                historyTimes.append(historySeconds)
            }
            runner.log(
                String(
                    format: "generic change run %@: history %.1f ms, process %.3f ms, grouped %.3f ms",
                    index == 0 ? "warm-up" : String(index),
                    historySeconds * 1000,
                    seconds * 1000,
                    groupSeconds * 1000
                )
            )
        }
        if controller.statistics.refetches > 0 {
            problems.append(
                "the controller refetched \(controller.statistics.refetches) times instead of applying the changes"
            )
        }
        if grouped.statistics.refetches > 0 || grouped.statistics.membershipBuilds != 1 {
            problems.append(
                "the grouped controller counted again \(grouped.statistics.refetches) times, learnt the rows "
                    + "\(grouped.statistics.membershipBuilds) times"
            )
        }
        for problem in problems { runner.results.note("generic change: \(problem)") }
        runner.results.setMedian("table10m_change1000_ms", of: processTimes, scale: 1000)
        runner.results.setMedian("freq_change1000_ms", of: groupTimes, scale: 1000)
        runner.results.setMedian("table10m_history1000_ms", of: historyTimes, scale: 1000)
    }
}
