import Foundation
import PostgreSQLClient
import Timekeeping

/// `fetchedtable --pg --table events --sort 'ts desc' --section 'day(ts)'` as a
/// person runs it, under a pseudo-terminal (TERM=xterm-256color, 80×24, TZ=UTC),
/// each launch with an empty cache folder:
///
/// - `pg1m_first_screen_s`: from just before the spawn until the newest event's
///   message (unique: ``PostgresEvents``) has been written to the terminal.
/// - `pg1m_ready_s` and `pg1m_ready_ratio`: until the whole sorted, sectioned list
///   is browsable. After the first row bench presses `G` (the last row) and Ctrl-L
///   (a full repaint) every 0.1 s until the oldest event shows: the last row of
///   the million, which only the complete list can show (the first screen holds
///   the first rows read from the server). At most 0.1 s late. The reference,
///   `pg1m_ids_fetch_s`, is a plain libpq fetch (`SELECT id FROM events ORDER BY
///   ts DESC, id`, every id read) on a connection of bench's own; fetches and
///   launches alternate.
/// - `pg1m_rss_bytes_per_row`: the most resident memory (`VmRSS`) of the process
///   over the second after the list is browsable, less the same for
///   `events_small` (1,000 rows), divided by the rows between them: what the list
///   (its copy's working memory, the controller, the table view) adds per row.
struct PostgresScreenBenchmark {
    let target: PostgresBenchTarget
    let rows: Int
    var runner: BenchRunner { target.runner }

    static let arguments = ["--pg", "--sort", "ts desc", "--section", "day(ts)"]

    func run() throws {
        let newest = try target.message(of: "events", order: "ts DESC, id")
        let oldest = try target.message(of: "events", order: "ts ASC, id DESC")
        let smallOldest = try target.message(of: "events_small", order: "ts ASC, id DESC")
        let connection = try target.connect(applicationName: "bench reference")
        var firstScreens: [Double] = []
        var readies: [Double] = []
        var fetches: [Double] = []
        var perRow: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 3, large: 3) {  // 0: warm-up
            let (fetchSeconds, count) = try MonotonicClock.measure { try PostgresScreenBenchmark.ids(connection) }
            if count != rows { problems.append("the reference fetch read \(count) ids, not \(rows)") }
            let (tty, shown) = try runner.time(
                target.screen(PostgresScreenBenchmark.arguments + ["--table", "events"]),
                until: ScreenWait([Array(newest.utf8)], timeout: 120, "the newest event ('\(newest)')")
            )
            let ready = try tty.seconds(
                until: ScreenWait(
                    [Array(oldest.utf8)],
                    pressing: ScreenWait.lastRowKeys,
                    timeout: 300,
                    "the last row ('\(oldest)')"
                )
            )
            let resident = PostgresScreenBenchmark.peakResidentKilobytes(of: tty.pid, over: 1)
            tty.quit("fetchedtable", problems: &problems)
            let (small, _) = try runner.time(
                target.screen(PostgresScreenBenchmark.arguments + ["--table", "events_small"]),
                until: ScreenWait(
                    [Array(smallOldest.utf8)],
                    pressing: ScreenWait.lastRowKeys,
                    timeout: 60,
                    "events_small's last row"
                )
            )
            let smallResident = PostgresScreenBenchmark.peakResidentKilobytes(of: small.pid, over: 1)
            small.quit("fetchedtable", problems: &problems)
            let added = Double(resident - smallResident) * 1024 / Double(max(1, rows - PostgresEvents.smallRows))
            runner.log(
                String(
                    format:
                        "postgres run %@: ids fetch %.3f s; first row %.3f s, browsable %.3f s; RSS %d kB (small: %d kB), %.1f B/row",
                    index == 0 ? "warm-up" : String(index),
                    fetchSeconds,
                    shown,
                    ready,
                    resident,
                    smallResident,
                    added
                )
            )
            if index > 0 {
                fetches.append(fetchSeconds)
                firstScreens.append(shown)
                readies.append(ready)
                if resident > 0 && smallResident > 0 { perRow.append(added) }
            }
        }
        runner.results.setMedian("pg1m_first_screen_s", of: firstScreens)
        runner.results.setMedian("pg1m_ready_s", of: readies)
        runner.results.setMedian("pg1m_ids_fetch_s", of: fetches)
        runner.results.setRatio("pg1m_ready_ratio", "pg1m_ready_s", "pg1m_ids_fetch_s")
        runner.results.setMedian("pg1m_rss_bytes_per_row", of: perRow)
        for problem in problems { runner.results.note("postgres: \(problem)") }
    }

    /// The reference: every id of `events` in the list's order, read from libpq's result; returns how many.
    static func ids(_ connection: PostgresConnection) throws -> Int {
        let result = try connection.query("SELECT id FROM events ORDER BY ts DESC, id")
        var ids: [Int64] = []
        ids.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount { ids.append(result.int64(row: row, column: 0) ?? 0) }
        return ids.count
    }

    /// The most `VmRSS` of process `pid` sampled every 20 ms over `seconds` (0 when unreadable).
    static func peakResidentKilobytes(of pid: pid_t, over seconds: Double) -> Int {
        let end = MonotonicClock.seconds() + seconds
        var peak = 0
        repeat {
            if let text = FileText.contents(of: "/proc/\(pid)/status"),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Int(line.dropFirst(6).filter(\.isNumber))
            {
                peak = max(peak, kilobytes)
            }
            usleep(20_000)
        } while MonotonicClock.seconds() < end
        return peak
    }
}
