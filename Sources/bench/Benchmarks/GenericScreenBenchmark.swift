import Foundation
import Timekeeping

/// The `fetchedtable` executable a person runs, under a pseudo-terminal
/// (TERM=xterm-256color, 80×24), over the `generic` group's data.
///
/// - `table10m_first_screen_s`: `fetchedtable events.sqlite --table events
///   --sort 'ts desc' --section 'day(ts)'`, from just before the spawn until the
///   first row of that order (the newest event, whose timestamp no other row
///   has) has been written to the terminal. Each launch gets an empty
///   `XDG_CACHE_HOME`, so nothing an earlier launch kept helps.
/// - `csv1m_first_screen_s`: `fetchedtable events.csv --sort 'ts desc'
///   --section 'day(ts)'` with an empty cache (the CSV is loaded into a new
///   cache database), until a first row is on screen: the file's first row
///   (shown while loading) or the newest (the sorted view).
/// - `csv1m_ready_s` (table only) and `csv1m_ready_ratio`: in the same launches,
///   until the sorted, sectioned view is on screen. After the first row, bench
///   presses Home and Ctrl-L (a full repaint) every 0.1 s until the newest
///   event shows: the CSV's *last* line, which only the complete sorted view
///   can put at the top (the app keeps the selection on the first row read,
///   which `ts desc` puts last, so without Home it would not be on screen).
///   The figure is thus at most 0.1 s late. The reference, `csv1m_sqlite_import_s` (table
///   only), is the `sqlite3` shell's `.import` of the same file into a new
///   database; launches and imports alternate.
/// - `csv1m_visidata_s` (table only, when `vd` is installed): VisiData's time to
///   show the same file's first row; `visidata_sorted_s` (table only) and
///   `visidata_ready_speedup`: in the same launches, VisiData's time until the
///   same sorted view is on screen (`l` to the `ts` column, then `]`, its
///   descending sort, as soon as the first row shows; the newest event at the top
///   means the sort covered every row), divided by `csv1m_ready_s`.
/// - `csv3m_cached_first_screen_s`: `fetchedtable events.csv` (the grid, file order)
///   over a CSV of 3.4 times as many rows whose cache was built by a launch before
///   (not timed), from the spawn until the first row's timestamp is on screen.
/// - `jsonl1m_ready_s` (table only) and `jsonl1m_ready_ratio`: `csv1m_ready_s`'s
///   launches over the same rows as JSON Lines, against `csv1m_ready_s`.
struct GenericScreenBenchmark {
    let runner: BenchRunner
    /// The command line that runs `fetchedtable` (its arguments follow).
    let command: [String]
    let database: String
    let csv: String
    let tableRows: Int
    let csvRows: Int

    /// The byte patterns that show a row is on screen: its timestamp (the
    /// default title column) or its message (in case the cell shows that).
    static func patterns(of row: EventsGenerator.Row) -> [[UInt8]] {
        [Array(row.ts.utf8), Array(AppBenchmark.searchPattern(row.message))]
    }

    func runTable() throws {
        let newest = EventsGenerator(rows: tableRows).row(Int64(tableRows))
        let arguments = [database, "--table", "events", "--sort", "ts desc", "--section", "day(ts)"]
        var problems: [String] = []
        let times = try runner.timedLaunches(
            ScreenLaunch(command: command + arguments),
            until: ScreenWait(
                GenericScreenBenchmark.patterns(of: newest),
                timeout: 120,
                "the newest event (\(newest.ts))"
            ),
            runs: runner.configuration.runs(small: 3, large: 5),
            problems: &problems
        ) { run, seconds in
            String(format: "fetchedtable events (%d rows) run %@: first row after %.3f s", tableRows, run, seconds)
        }
        runner.results.setMedian("table10m_first_screen_s", of: times)
        for problem in problems { runner.results.note("generic: \(problem)") }
    }

    /// `grid10m_first_screen_s`: `fetchedtable wide.sqlite` (the grid of its 20 columns, the
    /// default view) in a 200×50 terminal, from just before the spawn until the first row's
    /// timestamp is on screen.
    func runGrid(wide: String) throws {
        let first = EventsGenerator(rows: tableRows).row(1)
        var problems: [String] = []
        let times = try runner.timedLaunches(
            ScreenLaunch(command: command + [wide], rows: 50, columns: 200),
            until: ScreenWait([Array(first.ts.utf8)], timeout: 120, "the wide table's first row (\(first.ts))"),
            runs: runner.configuration.runs(small: 3, large: 5),
            problems: &problems
        ) { run, seconds in
            String(
                format: "fetchedtable wide (%d rows, 20 columns, 200×50) run %@: first row after %.3f s",
                tableRows,
                run,
                seconds
            )
        }
        runner.results.setMedian("grid10m_first_screen_s", of: times)
        for problem in problems { runner.results.note("generic grid: \(problem)") }
    }

    func runCSV() throws {
        let generator = EventsGenerator(rows: csvRows)
        let first = generator.row(1)
        let newest = generator.row(Int64(csvRows))
        let sqlite3 = ChildProcess.which("sqlite3")
        if sqlite3 == nil { runner.results.note("generic: the sqlite3 shell is not installed; no csv1m_ready_ratio") }
        runner.workspace.warm(csv)
        let arguments = [csv, "--sort", "ts desc", "--section", "day(ts)"]
        var firstScreens: [Double] = []
        var readies: [Double] = []
        var imports: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            if let sqlite3, let result = try runner.sqliteImport(sqlite3, csv: csv, table: "events", group: "generic"),
                index > 0
            {
                imports.append(result.seconds)
            }
            let firstPatterns = GenericScreenBenchmark.patterns(of: first) + GenericScreenBenchmark.patterns(of: newest)
            let (tty, shown) = try runner.time(
                ScreenLaunch(command: command + arguments),
                until: ScreenWait(firstPatterns, timeout: 120, "a first row of the CSV")
            )
            let ready = try tty.seconds(until: sortedTop(newest, timeout: 300, "the sorted view"))
            if index > 0 {
                firstScreens.append(shown)
                readies.append(ready)
            }
            runner.log(
                String(
                    format:
                        "fetchedtable events.csv (%d rows) run %@: first row after %.3f s, sorted view after %.3f s",
                    csvRows,
                    index == 0 ? "warm-up" : String(index),
                    shown,
                    ready
                )
            )
            tty.quit("fetchedtable", problems: &problems)
        }
        runner.results.setMedian("csv1m_first_screen_s", of: firstScreens)
        runner.results.setMedian("csv1m_ready_s", of: readies)
        runner.results.setMedian("csv1m_sqlite_import_s", of: imports)
        runner.results.setRatio("csv1m_ready_ratio", "csv1m_ready_s", "csv1m_sqlite_import_s")
        for problem in problems { runner.results.note("generic: \(problem)") }
    }

    /// Home and Ctrl-L until the newest event is on screen: once the sorted view is there, Home
    /// selects its first row. `view` names it in the error.
    private func sortedTop(_ newest: EventsGenerator.Row, timeout: Double, _ view: String) -> ScreenWait {
        ScreenWait(
            GenericScreenBenchmark.patterns(of: newest),
            pressing: ScreenWait.firstRowKeys,
            timeout: timeout,
            "\(view) (the newest event, \(newest.ts), at the top)"
        )
    }

    /// VisiData's first screen of the same CSV (information only).
    func runVisiData() throws {
        guard let vd = ChildProcess.which("vd") ?? ChildProcess.which("visidata") else {
            runner.results.note("generic: VisiData is not installed; no csv1m_visidata_s")
            return
        }
        let first = EventsGenerator(rows: csvRows).row(1)
        let home = runner.workspace.path("vd-home")
        mkdir(home, 0o755)
        var times: [Double] = []
        var sortedTimes: [Double] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {
            let tty = try PseudoTerminal([vd, csv], environment: ["HOME": home], rows: 24, columns: 80)
            guard let (_, shown) = tty.waitForAny(GenericScreenBenchmark.patterns(of: first), timeout: 120) else {
                tty.finish(timeout: 0.5)
                throw BenchError.failed("VisiData did not show the first row within 120 s")
            }
            // Sorted as fetchedtable's view: the cursor to `ts` (the second column), then `]`.
            tty.send(Array("l]".utf8))
            let newest = EventsGenerator(rows: csvRows).row(Int64(csvRows))
            guard let (_, sorted) = tty.waitForAny(GenericScreenBenchmark.patterns(of: newest), timeout: 600) else {
                tty.finish(timeout: 0.5)
                throw BenchError.failed(
                    "VisiData did not show the sorted view (the newest event at the top) within 600 s"
                )
            }
            if index > 0 {
                times.append(shown - tty.startTime)
                sortedTimes.append(sorted - tty.startTime)
            }
            runner.log(
                String(
                    format: "VisiData events.csv (%d rows) run %@: first row after %.3f s, sorted view after %.3f s",
                    csvRows,
                    index == 0 ? "warm-up" : String(index),
                    shown - tty.startTime,
                    sorted - tty.startTime
                )
            )
            tty.send(Array("gq".utf8))
            tty.finish(timeout: 2)
        }
        runner.results.setMedian("csv1m_visidata_s", of: times)
        runner.results.setMedian("visidata_sorted_s", of: sortedTimes)
        runner.results.setRatio("visidata_ready_speedup", "visidata_sorted_s", "csv1m_ready_s")
    }

    /// `csv3m_cached_first_screen_s`: `fetchedtable` over `csv` (`rows` rows) reopened with its
    /// cache, until its first row is on screen.
    func runCachedCSV(_ csv: String, rows: Int) throws {
        let first = EventsGenerator(rows: rows).row(1)
        let cache = runner.workspace.path("fetchedtable-xdg-cache-kept")
        try? FileManager.default.removeItem(atPath: cache)
        mkdir(cache, 0o755)
        runner.workspace.warm(csv)
        // The cache built once, not timed.
        let (seconds, built) = try MonotonicClock.measure {
            try ChildProcess.run(
                command + ["list", csv, "--where", "id == 1", "--format", "csv"],
                environment: ["XDG_CACHE_HOME": cache],
                captureOutput: true
            )
        }
        guard built.succeeded else {
            throw BenchError.failed("building the cache of \(csv) failed: \(runner.lastLine(built.errorOutput))")
        }
        runner.log(String(format: "fetchedtable built the cache of %@ (%d rows) in %.1f s", csv, rows, seconds))
        var problems: [String] = []
        let times = try runner.timedLaunches(
            ScreenLaunch(command: command + [csv], keptCache: cache),
            until: ScreenWait([Array(first.ts.utf8)], timeout: 60, "the first row (\(first.ts)) of \(csv)"),
            runs: runner.configuration.runs(small: 3, large: 5),
            problems: &problems
        ) { run, seconds in
            String(format: "fetchedtable events (%d rows, cached) run %@: first row after %.3f s", rows, run, seconds)
        }
        runner.results.setMedian("csv3m_cached_first_screen_s", of: times)
        for problem in problems { runner.results.note("generic csv3m: \(problem)") }
    }

    /// `jsonl1m_ready_s` and `jsonl1m_ready_ratio`: ``runCSV()``'s launches over the same rows as
    /// JSON Lines (an empty cache each time), until the sorted, sectioned view is on screen.
    func runJSONLines(_ jsonl: String) throws {
        let newest = EventsGenerator(rows: csvRows).row(Int64(csvRows))
        runner.workspace.warm(jsonl)
        var problems: [String] = []
        let readies = try runner.timedLaunches(
            ScreenLaunch(command: command + [jsonl, "--sort", "ts desc", "--section", "day(ts)"]),
            until: sortedTop(newest, timeout: 300, "the sorted view of the JSON Lines"),
            runs: runner.configuration.runs(small: 3, large: 3),
            problems: &problems
        ) { run, seconds in
            String(
                format: "fetchedtable events.jsonl (%d rows) run %@: sorted view after %.3f s",
                csvRows,
                run,
                seconds
            )
        }
        runner.results.setMedian("jsonl1m_ready_s", of: readies)
        runner.results.setRatio("jsonl1m_ready_ratio", "jsonl1m_ready_s", "csv1m_ready_s")
        for problem in problems { runner.results.note("generic jsonl: \(problem)") }
    }
}
