import Foundation
import PostgreSQLClient
import Timekeeping

/// `fetchedtable --pg --query 'SELECT id, ts, level, service, message FROM events ORDER BY ts DESC, id'`
/// as a person runs it, under a pseudo-terminal (80×24, TZ=UTC), each launch with an empty cache:
///
/// - `pgquery1m_ready_s` and `pgquery1m_ready_ratio`: from just before the spawn until the
///   whole result is browsable — measured as `pg1m_ready_s` is: bench presses `G` (the last row)
///   and Ctrl-L every 0.1 s until the oldest event's message shows (the query's last row). The
///   reference, `pgquery1m_fetch_s`, is the same query's rows fetched with libpq on bench's own
///   connection, every value of every row read as text; fetches and launches alternate.
struct PostgresQueryBenchmark {
    let target: PostgresBenchTarget
    let rows: Int
    var runner: BenchRunner { target.runner }

    static let query = "SELECT id, ts, level, service, message FROM events ORDER BY ts DESC, id"

    func run() throws {
        let oldest = try target.message(of: "events", order: "ts ASC, id DESC")
        let connection = try target.connect(applicationName: "bench reference")
        var readies: [Double] = []
        var fetches: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            let (fetchSeconds, count) = try MonotonicClock.measure { try PostgresQueryBenchmark.fetch(connection) }
            if count != rows { problems.append("the reference fetch read \(count) rows, not \(rows)") }
            let (tty, ready) = try runner.time(
                target.screen(["--pg", "--query", PostgresQueryBenchmark.query, "--title", "message"]),
                until: ScreenWait(
                    [Array(oldest.utf8)],
                    pressing: ScreenWait.lastRowKeys,
                    timeout: 300,
                    "the query's last row ('\(oldest)')"
                )
            )
            tty.quit("fetchedtable", problems: &problems)
            runner.log(
                String(
                    format: "postgres query run %@: libpq fetch %.3f s; browsable %.3f s",
                    index == 0 ? "warm-up" : String(index),
                    fetchSeconds,
                    ready
                )
            )
            if index > 0 {
                fetches.append(fetchSeconds)
                readies.append(ready)
            }
        }
        runner.results.setMedian("pgquery1m_ready_s", of: readies)
        runner.results.setMedian("pgquery1m_fetch_s", of: fetches)
        runner.results.setRatio("pgquery1m_ready_ratio", "pgquery1m_ready_s", "pgquery1m_fetch_s")
        for problem in problems { runner.results.note("postgres query: \(problem)") }
    }

    /// The reference: the query's rows with libpq, every value read as text; returns how many rows.
    static func fetch(_ connection: PostgresConnection) throws -> Int {
        let result = try connection.query(query)
        var bytes = 0
        for row in 0..<result.rowCount {
            for column in 0..<result.columns.count {
                bytes += result.text(row: row, column: column)?.utf8.count ?? 0
            }
        }
        return bytes > 0 ? result.rowCount : 0
    }
}
