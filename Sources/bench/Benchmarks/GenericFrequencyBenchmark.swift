@_spi(Benchmark) import FetchedResults
import FetchedTableKit
import Foundation
import SQLiteStore
import Timekeeping

/// `freq10m_ratio`: the frequency sheet's count of a column of the 10M-row table —
/// `GroupedResultsController.performFetch()` grouping the 20-column `wide` copy of the
/// events (``EventsDataCache/wideDatabase(from:rows:)``) by `score` (1,000 values, no
/// index) — against the query a person would type into `sqlite3`,
/// `SELECT score, count(*) FROM wide GROUP BY score ORDER BY 2 DESC`, through the same
/// connection of one read-only foreign store, opened as `fetchedtable wide.sqlite` opens it.
///
/// Raw and controller runs alternate after a warm-up (the raw query alone); the groups are
/// compared once (the same counts, most first). Keys: `freq10m_s` and `freq10m_raw_query_s`
/// (table only), `freq10m_ratio`.
struct GenericFrequencyBenchmark {
    let runner: BenchRunner
    let database: String
    let rows: Int

    static let rawSQL = "SELECT score, count(*) FROM wide GROUP BY score ORDER BY 2 DESC"

    func run() throws {
        let file = try TableDatabase(path: database, kind: .sqlite, databasePath: database, readOnly: true)
        var options = TableOptions(file: database)
        options.table = "wide"
        options.readOnly = true
        let opened = try file.open(try file.table(named: "wide"), options: options)
        let store = opened.store
        var times: [Double] = []
        var rawTimes: [Double] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            let (rawSeconds, raw) = try MonotonicClock.measure { try store.database.query(Self.rawSQL) }
            if index == 0 {
                runner.log(String(format: "generic frequency warm-up: raw %.3f s, %d groups", rawSeconds, raw.count))
                continue
            }
            let grouped = GroupedResultsController(
                fetchRequest: FetchRequest(entity: "wide"),
                context: ObjectContext(store: store),
                groupKeyPath: "score"
            )
            let (seconds, _) = try MonotonicClock.measure { try grouped.performFetch() }
            times.append(seconds)
            rawTimes.append(rawSeconds)
            if index == 1 {
                let counts = grouped.groups.map { Int64($0.count) }
                if counts != raw.map({ $0[1].int64 ?? -1 }) || grouped.totalCount != rows {
                    runner.results.note(
                        "generic frequency: the controller's \(counts.count) groups of \(grouped.totalCount) rows "
                            + "differ from the query's \(raw.count)"
                    )
                }
            }
            runner.log(
                String(format: "generic frequency run %d: performFetch %.3f s, raw %.3f s", index, seconds, rawSeconds)
            )
        }
        runner.results.setMedian("freq10m_s", of: times)
        runner.results.setMedian("freq10m_raw_query_s", of: rawTimes)
        runner.results.setRatio("freq10m_ratio", "freq10m_s", "freq10m_raw_query_s")
    }
}
