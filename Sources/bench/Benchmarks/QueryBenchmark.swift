import Foundation
import SQLiteStore
import Timekeeping

/// The query group, `bench --only query`: `fetchedtable --query` over the `generic` group's
/// cached events database (``EventsDataCache``: `events`, and the `services` each event names),
/// through a join of the two tables — every event with its service's team, newest first:
///
///     SELECT e.id, e.ts, e.level, s.name AS service, s.team, e.message
///     FROM events e JOIN services s ON s.name = e.service ORDER BY e.id DESC
///
/// - `query1m_ready_s` (table only) and `query1m_ready_ratio`: `fetchedtable FILE --query Q` under a
///   pseudo-terminal (80×24) over `--rows` events, from just before the spawn until the result is
///   ready: its *last* row (the oldest event) on screen. As `pg1m_ready_s` and `csv1m_ready_s`, bench
///   presses `G` (the last row) and Ctrl-L every 0.1 s until it shows, which only a result holding every row can do (at
///   most 0.1 s late). The reference, `query1m_sqlite_s` (table only), is the `sqlite3` shell running
///   the same query over the same file to completion, every row written (to `/dev/null`);
///   launches and shell runs alternate.
/// - `query_change_ms`: the same query over a copy of 100,000 events (fewer when `--rows` is
///   smaller: the result has as many rows), shown by `fetchedtable` under a pseudo-terminal;
///   another connection inserts one event, newer than all, whose timestamp is a marker no other
///   row has; from just after its commit until the marker is on screen (the new first row). The
///   live query looks for commits every 0.025 s (``LiveQuery/pollInterval``, `PRAGMA data_version`),
///   so this includes up to 0.025 s of waiting for that look; nothing else polls.
/// - `query_rerun_ms` (table only) and `query_rerun_ratio`: in-process over the same copy, a
///   ``LiveQuery`` loaded once; after each insert by another connection, one look
///   (``LiveQuery/lookNow(progress:)``: the change found, the query run again, its difference
///   written to the result table) — against `query_alone_ms` (table only), the same query prepared
///   on its own connection with every row stepped and each of its values read.
struct QueryBenchmark {
    let runner: BenchRunner

    static let sql = """
        SELECT e.id, e.ts, e.level, s.name AS service, s.team, e.message \
        FROM events e JOIN services s ON s.name = e.service ORDER BY e.id DESC
        """

    /// Rows of the result of `query_change_ms` and `query_rerun_ratio`.
    var changeRows: Int { min(runner.configuration.rows, 100_000) }

    func run() throws {
        let cache = EventsDataCache(
            directory: runner.configuration.cacheDirectory ?? EventsDataCache.defaultDirectory(),
            log: runner.log
        )
        let rows = runner.configuration.rows
        if rows != 1_000_000 {
            runner.results.note("query: \(rows) rows in the join (query1m_ready_ratio is named for 1M)")
        }
        let command = GenericBenchmark(runner: runner).fetchedtable()
        part("ready") { try runReady(database: try cache.database(rows: rows), command: command) }
        let small = try cache.database(rows: changeRows)
        part("change") { try runChange(database: try copy(small, as: "query-change.sqlite"), command: command) }
        part("rerun") { try runRerun(database: try copy(small, as: "query-rerun.sqlite")) }
    }

    // MARK: query1m_ready_ratio

    func runReady(database: String, command: [String]) throws {
        let rows = runner.configuration.rows
        let oldest = EventsGenerator(rows: rows).row(1)
        let sqlite3 = ChildProcess.which("sqlite3")
        if sqlite3 == nil { runner.results.note("query: the sqlite3 shell is not installed; no query1m_ready_ratio") }
        runner.workspace.warm(database)
        var readies: [Double] = []
        var references: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            if let sqlite3 {
                let result = try ChildProcess.run([sqlite3, database, QueryBenchmark.sql])
                guard result.succeeded else { throw BenchError.failed("sqlite3 failed (status \(result.status))") }
                if index > 0 { references.append(result.seconds) }
            }
            let (tty, ready) = try runner.time(
                ScreenLaunch(command: command + [database, "--query", QueryBenchmark.sql]),
                until: ScreenWait(
                    GenericScreenBenchmark.patterns(of: oldest),
                    pressing: ScreenWait.lastRowKeys,
                    timeout: 300,
                    "the query's last row (\(oldest.ts))"
                )
            )
            if index > 0 { readies.append(ready) }
            runner.log(
                String(
                    format: "fetchedtable --query (%d rows) run %@: last row after %.3f s; sqlite3 %.3f s",
                    rows,
                    index == 0 ? "warm-up" : String(index),
                    ready,
                    references.last ?? .nan
                )
            )
            tty.quit("fetchedtable", problems: &problems)
        }
        runner.results.setMedian("query1m_ready_s", of: readies)
        runner.results.setMedian("query1m_sqlite_s", of: references)
        runner.results.setRatio("query1m_ready_ratio", "query1m_ready_s", "query1m_sqlite_s")
        for problem in problems { runner.results.note("query: \(problem)") }
    }

    // MARK: query_change_ms

    func runChange(database: String, command: [String]) throws {
        let newest = EventsGenerator(rows: changeRows).row(Int64(changeRows))
        let tty = try runner.start(ScreenLaunch(command: command + [database, "--query", QueryBenchmark.sql]))
        guard tty.waitForAny(GenericScreenBenchmark.patterns(of: newest), timeout: 120) != nil else {
            throw tty.failure("fetchedtable", "did not show the query's first row (\(newest.ts)) within 120 s")
        }
        tty.drain(quiet: 0.5)
        let writer = try QueryBenchmark.writer(database)
        var times: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 7, large: 11) {  // 0: warm-up
            let marker = QueryBenchmark.marker(index)
            let from = tty.output.count
            try QueryBenchmark.insert(writer, id: Int64(changeRows + 1 + index), marker: marker)
            let committed = MonotonicClock.seconds()
            guard let (_, shown) = tty.waitForAny([Array(marker.utf8)], from: from, timeout: 30) else {
                throw tty.failure("fetchedtable", "did not show the inserted row (\(marker)) within 30 s")
            }
            if index > 0 { times.append(shown - committed) }
            runner.log(
                String(
                    format: "query change (%d-row result) run %@: on screen %.1f ms after the commit",
                    changeRows,
                    index == 0 ? "warm-up" : String(index),
                    (shown - committed) * 1000
                )
            )
            tty.drain(quiet: 0.3)
        }
        tty.quit("fetchedtable", problems: &problems)
        runner.results.setMedian("query_change_ms", of: times, scale: 1000)
        for problem in problems { runner.results.note("query change: \(problem)") }
    }

    // MARK: query_rerun_ratio

    func runRerun(database: String) throws {
        let resultPath = runner.workspace.path("query-rerun-result.sqlite")
        let live = try LiveQuery(databasePath: database, sql: QueryBenchmark.sql, resultPath: resultPath)
        defer { live.result.removeFile() }
        try live.load()
        live.lookNow()  // the fingerprints of the loaded state
        let writer = try QueryBenchmark.writer(database)
        let alone = try Database.openForQueries(path: database)
        let query = try alone.prepareReadOnlyQuery(QueryBenchmark.sql)
        var reruns: [Double] = []
        var references: [Double] = []
        for index in 0...runner.configuration.runs(small: 7, large: 11) {  // 0: warm-up
            let (reference, read) = try MonotonicClock.measure { try QueryBenchmark.readAll(query) }
            try QueryBenchmark.insert(writer, id: Int64(changeRows + 1 + index), marker: QueryBenchmark.marker(index))
            let (seconds, outcome) = MonotonicClock.measure { live.lookNow() }
            guard case .refreshed(let refresh) = outcome, refresh.change.inserted == 1 else {
                throw BenchError.failed("the live query's look after an insert gave \(String(describing: outcome))")
            }
            if index > 0 {
                references.append(reference)
                reruns.append(seconds)
            }
            runner.log(
                String(
                    format: "query rerun (%d rows) run %@: %.1f ms (%@); the query alone %.1f ms (%d rows)",
                    refresh.change.count,
                    index == 0 ? "warm-up" : String(index),
                    seconds * 1000,
                    refresh.change.description,
                    reference * 1000,
                    read
                )
            )
        }
        runner.results.setMedian("query_rerun_ms", of: reruns, scale: 1000)
        runner.results.setMedian("query_alone_ms", of: references, scale: 1000)
        runner.results.setRatio("query_rerun_ratio", "query_rerun_ms", "query_alone_ms")
    }

    // MARK: Steps

    /// Every row of `query` stepped, each value read; the rows read.
    static func readAll(_ query: ReadOnlyQuery) throws -> Int {
        let rows = try query.rows()
        defer { query.finishRun() }
        var count = 0
        var bytes = 0
        while try rows.next() {
            for column in 0..<rows.columnCount {
                switch rows.field(column) {
                case .text(let text): bytes &+= text.count
                case .blob(let blob): bytes &+= blob.count
                case .integer(let value): bytes &+= Int(truncatingIfNeeded: value)
                case .real(let value): bytes &+= Int(value.bitPattern & 1)
                case .null: break
                }
            }
            count += 1
        }
        if bytes == 42 { count += 0 }  // keeps the reads
        return count
    }

    /// A connection that writes as another program would (the file's rollback journal kept).
    static func writer(_ path: String) throws -> Database {
        var options = Database.Options()
        options.walMode = false
        return try Database(path: path, options: options)
    }

    /// One event newer than every other, its timestamp `marker`, committed.
    static func insert(_ writer: Database, id: Int64, marker: String) throws {
        try writer.run(
            "INSERT INTO events(id, ts, level, service, message) VALUES (?, ?, 'INFO', ?, 'inserted by bench')",
            [.integer(id), .text(marker), .text(EventsGenerator.services[0])]
        )
    }

    /// A timestamp no generated row has, whose characters differ from theirs in every place (so the
    /// terminal receives it whole).
    static func marker(_ index: Int) -> String { String(format: "~qchange~%03d~", index) }

    /// A copy of `database` in the run's folder (the runs insert rows; the cache stays as built).
    private func copy(_ database: String, as name: String) throws -> String {
        let path = runner.workspace.path(name)
        runner.workspace.removeDatabase(path)
        try FileManager.default.copyItem(atPath: database, toPath: path)
        return path
    }

    /// Runs one part; its failure becomes a note and the others go on.
    private func part(_ name: String, _ body: () throws -> Void) {
        let started = MonotonicClock.seconds()
        do {
            try body()
        } catch {
            runner.results.note("query \(name): \(error)")
            runner.log("query \(name): \(error)")
        }
        runner.log(String(format: "query %@ done in %.1f s", name, MonotonicClock.seconds() - started))
    }
}
