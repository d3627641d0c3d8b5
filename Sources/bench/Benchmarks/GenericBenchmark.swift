import Foundation
import SQLiteStore
import Timekeeping

/// The generic group, `bench --only generic`: `fetchedtable` and the engine
/// under it over data no app of ours made — a 10,000,000-row
/// `events(id, ts, level, service, message)` table with an index on `ts`, and
/// a 1,000,000-row CSV of the same shape (``EventsGenerator``).
///
/// The data are built once into a cache folder (``EventsDataCache``) and
/// reused while the generator is unchanged, so a run after the first takes a
/// few minutes. Each part is measured by its own type:
///
/// - ``GenericFetchBenchmark``: `table10m_fetch_ratio`, the controller's full
///   fetch (`ts desc`, sections `day(ts)`) against raw SQL returning the same ids;
/// - ``GenericMemoryChild`` (`bench --child generic-rss`): `table10m_rss_bytes_per_row`;
/// - ``GenericChangeBenchmark``: `table10m_change1000_ms`, with tracking (`--track`), and
///   `freq_change1000_ms` (the same change sets reaching a frequency sheet's grouped controller);
/// - ``GenericFrequencyBenchmark``: `freq10m_ratio`, a frequency sheet's count of a column of
///   1,000 values against `GROUP BY` in SQL;
/// - ``EditCellBenchmark``: `edit_cell_ms`, a cell edited in the list screen's grid, saved and
///   on screen (`--only edit_cell_ms` runs it alone);
/// - ``GenericScreenBenchmark``: `table10m_first_screen_s`, `grid10m_first_screen_s` (a
///   20-column copy of the table, ``EventsDataCache/wideDatabase(from:rows:)``), `csv1m_first_screen_s`,
///   `csv1m_ready_ratio`, `jsonl1m_ready_ratio`, `csv3m_cached_first_screen_s` and VisiData's
///   times (`visidata_ready_speedup`), through the `fetchedtable` executable.
///
/// A part that cannot run leaves its keys `null` with a note, and the others
/// still run. Run alone (`--only generic`) the group measures 10M rows; in a
/// run of every group it follows `--rows` (a quick run stays quick).
/// `--only csv1m_ready_ratio` (or another of the CSV part's keys: `csv1m_first_screen_s`,
/// `jsonl1m_ready_ratio`, `csv3m_cached_first_screen_s`, `visidata_ready_speedup`) runs the
/// CSV part alone, at 1M rows, without building the table.
struct GenericBenchmark {
    let runner: BenchRunner

    var tableRows: Int { runner.configuration.tableRows }
    var csvRows: Int { max(100, runner.configuration.tableRows / 10) }

    func run() throws {
        let cache = EventsDataCache(
            directory: runner.configuration.cacheDirectory ?? EventsDataCache.defaultDirectory(),
            log: runner.log
        )
        let csv = try cache.csv(rows: csvRows)
        if runner.configuration.genericCSVOnly {
            // `--only csv1m_ready_ratio`: the CSV part alone, without building the 10M-row table.
            let screens = GenericScreenBenchmark(
                runner: runner,
                command: fetchedtable(),
                database: "",
                csv: csv,
                tableRows: tableRows,
                csvRows: csvRows
            )
            part("csv") { try screens.runCSV() }
            runFileParts(screens, cache: cache)
            return
        }
        let database = try cache.database(rows: tableRows)
        if runner.configuration.genericEditOnly {
            part("edit") { try EditCellBenchmark(runner: runner, database: database).run() }
            return
        }
        if tableRows != 10_000_000 {
            runner.results.note(
                "generic: \(tableRows) rows in the table and \(csvRows) in the CSV (the keys are named for 10M and 1M)"
            )
        }
        runner.workspace.warm(database)
        part("fetch") { try GenericFetchBenchmark(runner: runner, database: database, rows: tableRows).run() }
        part("rss") { try measureMemory(database) }
        part("change") { try GenericChangeBenchmark(runner: runner, database: database, rows: tableRows).run() }
        let screens = GenericScreenBenchmark(
            runner: runner,
            command: fetchedtable(),
            database: database,
            csv: csv,
            tableRows: tableRows,
            csvRows: csvRows
        )
        part("first screen") { try screens.runTable() }
        part("grid") { try screens.runGrid(wide: try cache.wideDatabase(from: database, rows: tableRows)) }
        part("frequency") {
            let wide = try cache.wideDatabase(from: database, rows: tableRows)
            try GenericFrequencyBenchmark(runner: runner, database: wide, rows: tableRows).run()
        }
        part("edit") { try EditCellBenchmark(runner: runner, database: database).run() }
        part("csv") { try screens.runCSV() }
        runFileParts(screens, cache: cache)
    }

    /// The parts over files beside the 1M-row CSV: its rows as JSON Lines, a CSV of 3.4 times as many
    /// rows reopened with its cache, and VisiData on the same CSV (after `csv`: their ratios need its time).
    private func runFileParts(_ screens: GenericScreenBenchmark, cache: EventsDataCache) {
        part("jsonl") { try screens.runJSONLines(try cache.jsonLines(rows: csvRows)) }
        part("csv3m") { try screens.runCachedCSV(try cache.csv(rows: csv3Rows), rows: csv3Rows) }
        part("visidata") { try screens.runVisiData() }
    }

    /// Rows of the CSV reopened with its cache: 3.4 times the CSV's (3.4 million at full size).
    var csv3Rows: Int { csvRows * 34 / 10 }

    /// Runs one part; its failure becomes a note and the others go on.
    private func part(_ name: String, _ body: () throws -> Void) {
        let started = MonotonicClock.seconds()
        do {
            try body()
        } catch {
            runner.results.note("generic \(name): \(error)")
            runner.log("generic \(name): \(error)")
        }
        runner.log(String(format: "generic %@ done in %.1f s", name, MonotonicClock.seconds() - started))
    }

    /// `table10m_rss_bytes_per_row`: the median over three children of the
    /// resident memory one fetch adds, divided by the rows it fetched.
    private func measureMemory(_ database: String) throws {
        var perRow: [Double] = []
        for _ in 0..<runner.configuration.runs(small: 3, large: 3) {
            let result = try ChildProcess.run(
                runner.childCommand("generic-rss", ["--db", database]),
                captureOutput: true
            )
            guard result.succeeded,
                let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("generic-rss ") })
            else {
                throw BenchError.failed(
                    "the generic-rss child failed (status \(result.status)): \(runner.lastLine(result.errorOutput))"
                )
            }
            let fields = FetchMemoryChild.parse(String(line))
            guard let before = fields["before_kb"], let after = fields["after_kb"], let objects = fields["objects"],
                objects > 0
            else {
                throw BenchError.failed("the generic-rss child printed '\(line)'")
            }
            if Int(objects) != tableRows {
                runner.results.note("generic rss: the child fetched \(Int(objects)) rows, not \(tableRows)")
            }
            perRow.append((after - before) * 1024 / objects)
            runner.log("generic rss: \(line)")
        }
        runner.results.setMedian("table10m_rss_bytes_per_row", of: perRow)
    }

    /// The command line that runs `fetchedtable`: `--fetchedtable PATH`, else the
    /// executable beside `bench` when it was linked after the last change to the
    /// sources, else `bench --child fetchedtable` (the same `FetchedTableCommand`).
    func fetchedtable() -> [String] {
        if let explicit = runner.configuration.fetchedtablePath { return [explicit] }
        let sibling = (runner.executablePath as NSString).deletingLastPathComponent + "/fetchedtable"
        if access(sibling, X_OK) == 0, let linked = runner.modificationTime(sibling),
            linked >= runner.newestSourceTime()
        {
            runner.log("measuring \(sibling)")
            return [sibling]
        }
        runner.log(
            "no up-to-date fetchedtable beside bench; measuring 'bench --child fetchedtable' (same code as this bench)"
        )
        return runner.childCommand("fetchedtable", [])
    }
}
