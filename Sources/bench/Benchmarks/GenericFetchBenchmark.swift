@_spi(Benchmark) import FetchedResults
import Foundation
import SQLiteStore
import Timekeeping

/// `table10m_fetch_ratio`: `performFetch` over the 10M-row events table
/// (``EventsFetch``: `ts desc`, sections `day(ts)`) against the plain SQL that
/// returns the same ids in the same order (`SELECT id FROM events ORDER BY ts
/// DESC, id`), through the same connection of one read-only foreign store.
///
/// As in ``FetchBenchmark``: a new context and controller per run, raw and
/// controller runs alternating after a warm-up (the raw query alone), the ids
/// compared once. Keys:
/// `table10m_fetch_s` and `table10m_raw_query_s` (table only), `table10m_fetch_ratio`.
struct GenericFetchBenchmark {
    let runner: BenchRunner
    let database: String
    let rows: Int

    func run() throws {
        let opened = try EventsFetch.open(database, readOnly: true)
        let store = opened.store
        var fetchTimes: [Double] = []
        var rawTimes: [Double] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            let (rawSeconds, rawIDs) = try MonotonicClock.measure {
                try EventsFetch.rawIDs(store.database, expected: rows)
            }
            if index == 0 {  // the warm-up: the raw query alone brings the index into the page cache
                runner.log(String(format: "generic fetch warm-up: raw %.3f s", rawSeconds))
                continue
            }
            let controller = EventsFetch.controller(opened, context: ObjectContext(store: store))
            let (seconds, _) = try MonotonicClock.measure { try controller.performFetch() }
            rawTimes.append(rawSeconds)
            fetchTimes.append(seconds)
            if index == 1 {
                BankFetch.noteDisagreement(
                    of: controller,
                    with: rawIDs,
                    rows: rows,
                    group: "generic fetch",
                    holding: { "the table holds \($0) rows" },
                    in: &runner.results
                )
                runner.log(
                    "generic fetch: \(controller.numberOfObjects) rows in \(controller.numberOfSections) sections"
                )
            }
            runner.log(
                String(format: "generic fetch run %d: performFetch %.3f s, raw %.3f s", index, seconds, rawSeconds)
            )
        }
        runner.results.setMedian("table10m_fetch_s", of: fetchTimes)
        runner.results.setMedian("table10m_raw_query_s", of: rawTimes)
        runner.results.setRatio("table10m_fetch_ratio", "table10m_fetch_s", "table10m_raw_query_s")
    }
}
