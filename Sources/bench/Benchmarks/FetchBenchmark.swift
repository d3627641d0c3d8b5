import FailedBanksKit
@_spi(Benchmark) import FetchedResults
import Foundation
import SQLiteStore
import Timekeeping

/// `performFetch` of the Date tab over the generated store, beside the plain
/// SQL query that returns the same ids in the same order through the same
/// SQLite connection; then the same fetch from a warm cache.
///
/// Each timed fetch uses a new context and controller over one open store
/// (so SQLite's page cache is warm for both, as in an app). Raw and
/// controller runs alternate. The controller's ids are checked against the
/// raw query's once. Keys: `fetch_s`, `raw_query_s`, `fetch_ratio`,
/// `fetch_cached_s`, `cache_ratio`.
struct FetchBenchmark {
    let runner: BenchRunner

    func run() throws {
        let store = try FailedBankStore.open(path: try runner.store())
        let rows = runner.configuration.rows
        let runs = runner.configuration.runs(small: 7, large: 9)
        var fetchTimes: [Double] = []
        var rawTimes: [Double] = []
        var checked = false
        for index in 0...runs {
            let (rawSeconds, rawIDs) = try MonotonicClock.measure {
                try BankFetch.rawIDs(store.database, expected: rows)
            }
            let controller = BankFetch.controller(context: ObjectContext(store: store))
            let (seconds, _) = try MonotonicClock.measure { try controller.performFetch() }
            if index > 0 {
                rawTimes.append(rawSeconds)
                fetchTimes.append(seconds)
            }
            if !checked {
                checked = true
                BankFetch.noteDisagreement(
                    of: controller,
                    with: rawIDs,
                    rows: rows,
                    group: "fetch",
                    holding: { "the store holds \($0) banks" },
                    in: &runner.results
                )
            }
            runner.log(
                String(
                    format: "fetch run %@: performFetch %.3f s, raw %.3f s",
                    index == 0 ? "warm-up" : String(index),
                    seconds,
                    rawSeconds
                )
            )
        }
        if BenchRunner.debug { try diagnose(store.database) }
        runner.results.setMedian("fetch_s", of: fetchTimes)
        runner.results.setMedian("raw_query_s", of: rawTimes)
        runner.results.setRatio("fetch_ratio", "fetch_s", "raw_query_s")

        // Warm cache: the first controller writes it, each later one (a "second launch") reads it.
        let cacheDirectory = runner.workspace.path("cache")
        mkdir(cacheDirectory, 0o755)
        let cacheName = "bench-date"
        FetchedResultsController.deleteCache(named: cacheName, in: cacheDirectory)
        let writer = BankFetch.controller(
            context: ObjectContext(store: store),
            cacheName: cacheName,
            cacheDirectory: cacheDirectory
        )
        try writer.performFetch()
        var cachedTimes: [Double] = []
        var misses = 0
        for index in 0...runs {
            let controller = BankFetch.controller(
                context: ObjectContext(store: store),
                cacheName: cacheName,
                cacheDirectory: cacheDirectory
            )
            let (seconds, _) = try MonotonicClock.measure { try controller.performFetch() }
            if !controller.lastFetchUsedCache { misses += 1 }
            if controller.numberOfObjects != rows {
                runner.results.note(
                    "fetch: the cached controller has \(controller.numberOfObjects) objects, not \(rows)"
                )
            }
            if index > 0 { cachedTimes.append(seconds) }
        }
        if misses > 0 { runner.results.note("fetch: \(misses) of \(runs + 1) cached fetches did not use the cache") }
        runner.results.setMedian("fetch_cached_s", of: cachedTimes)
        runner.results.setRatio("cache_ratio", "fetch_cached_s", "fetch_s")
    }

    /// `BENCH_DEBUG=1`: where the controller's extra time goes, step by step
    /// from the reference query towards what `performFetch` does.
    private func diagnose(_ database: Database) throws {
        let withSection = BankFetch.rawSQL.replacingOccurrences(
            of: "SELECT t0.id FROM",
            with: "SELECT t0.id, substr(t1.close_date, 1, 4) FROM"
        )
        for _ in 0..<3 {
            let (a, _) = try MonotonicClock.measure {
                try BankFetch.rawIDs(database, expected: runner.configuration.rows)
            }
            let (b, _) = try MonotonicClock.measure { () throws -> Int in
                var n = 0
                try database.forEachRow(withSection) { row in n &+= Int(row.int64(at: 0)) }
                return n
            }
            let (c, _) = try MonotonicClock.measure { () throws -> Int in
                var n = 0
                try database.forEachRow(withSection) { row in
                    n &+= Int(row.int64(at: 0))
                    if case .text(let year) = row.value(at: 1) { n &+= year.utf8.count }
                }
                return n
            }
            runner.log(
                String(
                    format: "diagnose: ids %.3f s; ids + year column %.3f s; + year read as StoreValue %.3f s",
                    a,
                    b,
                    c
                )
            )
        }
    }
}
