import Foundation
import PostgreSQLClient
import TestSupport
import Timekeeping

/// `pg_change1_ms` and `pg_change1000_ms`: from another client's COMMIT to the
/// batch line it causes in `fetchedtable watch --pg --table events --track
/// --sort 'ts desc' --section 'day(ts)'` (under a pseudo-terminal, so its lines
/// arrive as it writes them).
///
/// Once the watch has printed its snapshot, a connection of bench's own changes
/// rows in one statement of a transaction — one row's `ts`, or 1,000 rows' `ts`
/// (`id` in a range of 1,000) in one UPDATE, most moving to another day — and
/// the delay runs from the moment its COMMIT is sent until the chunk holding
/// `"type":"batch"` is read. One warm-up of each, then 11 timed;
/// the medians are the keys. Bench waits for the watch to fall quiet (0.5 s) around
/// each run and notes a commit that printed more than one batch line.
struct PostgresChangeBenchmark {
    let target: PostgresBenchTarget
    let rows: Int
    var runner: BenchRunner { target.runner }

    static let batchPattern = Array("\"type\":\"batch\"".utf8)

    func run() throws {
        let tty = try target.launch([
            "watch", "--pg", "--table", "events", "--track", "--sort", "ts desc", "--section", "day(ts)",
        ])
        var problems: [String] = []
        defer {
            tty.quit("fetchedtable", problems: &problems, terminate: true)
            for problem in problems { runner.results.note("postgres change: \(problem)") }
        }
        guard tty.waitForAny([Array("\"type\":\"snapshot\"".utf8)], timeout: 300) != nil,
            tty.waitForAny([Array("]}".utf8) + [0x0d, 0x0a]], timeout: 300) != nil
        else {
            throw tty.failure("fetchedtable", "watch did not print its snapshot within 300 s")
        }
        let writer = try target.connect(applicationName: "bench writer")
        var random = SplitMix64(seed: BenchRunner.seed)
        let runs = runner.configuration.runs(small: 11, large: 11)
        var one: [Double] = []
        var thousand: [Double] = []
        for index in 0...runs {  // 0: warm-up
            let id = Int64(random.next() % UInt64(rows)) + 1
            let single = try delay(
                tty,
                writer,
                "UPDATE events SET ts = ts + interval '1 day' WHERE id = \(id)",
                expected: 1,
                problems: &problems
            )
            let first = Int64(random.next() % UInt64(max(1, rows - 1000))) + 1
            let many = try delay(
                tty,
                writer,
                "UPDATE events SET ts = ts + interval '1 day' WHERE id BETWEEN \(first) AND \(first + 999)",
                expected: min(1000, rows),
                problems: &problems
            )
            runner.log(
                String(
                    format: "postgres change run %@: one row %.1f ms, 1,000 rows %.1f ms",
                    index == 0 ? "warm-up" : String(index),
                    single * 1000,
                    many * 1000
                )
            )
            if index > 0 {
                one.append(single)
                thousand.append(many)
            }
        }
        runner.results.setMedian("pg_change1_ms", of: one, scale: 1000)
        runner.results.setMedian("pg_change1000_ms", of: thousand, scale: 1000)
    }

    /// Runs `sql` in a transaction and returns the seconds from sending its COMMIT to the batch line.
    private func delay(
        _ tty: PseudoTerminal,
        _ writer: PostgresConnection,
        _ sql: String,
        expected: Int,
        problems: inout [String]
    ) throws -> Double {
        tty.drain(quiet: 0.5)
        let from = tty.output.count
        // The statement in a transaction of its own; the clock starts as COMMIT is sent (its
        // return can come after the batch line on a loaded machine, where bench waits for a CPU).
        try writer.execute("BEGIN")
        let result = try writer.execute(sql)
        let committed = MonotonicClock.seconds()
        try writer.execute("COMMIT")
        if result.affectedRowCount != expected && problems.count < 3 {
            problems.append("'\(sql)' changed \(result.affectedRowCount ?? 0) rows, not \(expected)")
        }
        guard let (_, seen) = tty.waitForAny([PostgresChangeBenchmark.batchPattern], from: from, timeout: 60) else {
            throw tty.failure("fetchedtable", "watch printed no batch within 60 s of '\(sql)'")
        }
        // One commit, one batch: anything more would be seen by the next run as its own.
        tty.drain(quiet: 0.5)
        var lines = 0
        var at = from
        while let found = PseudoTerminal.find(PostgresChangeBenchmark.batchPattern, in: tty.output, from: at) {
            lines += 1
            at = found + 1
        }
        if lines != 1 && problems.count < 3 { problems.append("'\(sql)' printed \(lines) batch lines, not 1") }
        return seen - committed
    }
}
