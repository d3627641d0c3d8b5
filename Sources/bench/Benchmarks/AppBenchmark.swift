import Foundation
import SQLiteStore
import Timekeeping

/// The app a person runs, in a real terminal: `failedbanks --db big.sqlite`
/// under a pseudo-terminal (TERM=xterm-256color, 80×24).
///
/// - `first_screen_s`: from just before the spawn until the first row of the
///   Date tab (the newest bank, found with plain SQL) has been written to the
///   terminal, for a launch over an unchanged store (the controller's results
///   cache from an earlier launch is valid, rule 8 of FetchedResults.docc/ChangeBatches.md).
/// - `first_screen_cold_s`: the same for the very first launch, with no cache:
///   the app draws the controller's preview of the first page before its full
///   fetch, so the same ≤ 0.3 s target applies.
/// - `page_down_ms`: a PgDn key (`ESC [ 6 ~`) written to the terminal, until
///   the last byte of the redraw it causes (the output burst ends when
///   nothing more arrives for 100 ms; that quiet wait is not counted).
/// - `app_scroll_bytes` (table only): the bytes of a one-row scroll (↓ at the
///   bottom of the screen) in the app, title, tabs and status line included.
struct AppBenchmark {
    let runner: BenchRunner
    static let pageDown: [UInt8] = [0x1b, 0x5b, 0x36, 0x7e]

    func run() throws {
        let store = try runner.store()
        let name = try AppBenchmark.firstBankName(store: store)
        let pattern = AppBenchmark.searchPattern(name)
        // The app keeps its results cache here (not in the user's ~/.cache).
        let cache = runner.workspace.path("app-cache")
        let app = ScreenLaunch(
            command: runner.failedbanksCommand(["--db", store]),
            environment: ["FAILEDBANKS_CACHE": cache],
            keptCache: runner.workspace.path("xdg-cache")
        )
        let firstRow = ScreenWait([pattern], timeout: 60, "'\(String(decoding: pattern, as: UTF8.self))'")
        var problems: [String] = []

        // First launches: no results cache yet, the controller runs its query.
        var coldScreens: [Double] = []
        for _ in 0..<runner.configuration.runs(small: 3, large: 3) {
            try? FileManager.default.removeItem(atPath: cache)
            let (tty, seconds) = try runner.time(app, until: firstRow, program: "the app")
            coldScreens.append(seconds)
            tty.quit("the app", problems: &problems, timeout: 3)
        }

        // Later launches over the unchanged store (the cache written by the
        // last first launch is valid), with page downs.
        let runs = runner.configuration.runs(small: 5, large: 7)
        let pagesPerRun = 5
        var firstScreens: [Double] = []
        var pageDowns: [Double] = []
        var scrollBytes: [Double] = []
        for index in 0...runs {  // 0: warm-up
            let (terminal, seconds) = try runner.time(app, until: firstRow, program: "the app")
            if index > 0 { firstScreens.append(seconds) }
            terminal.drain(quiet: 0.3)
            if BenchRunner.debug && index == 0 { print(AppBenchmark.visibleText(terminal.output)) }
            for _ in 0..<pagesPerRun {
                let sent = MonotonicClock.seconds()
                terminal.send(AppBenchmark.pageDown)
                let burst = terminal.drain(quiet: 0.1)
                if let last = burst.lastByteTime, burst.bytes > 0 {
                    if index > 0 { pageDowns.append((last - sent) * 1000) }
                } else if problems.isEmpty {
                    problems.append("page down drew nothing")
                }
            }
            // One-row scrolls in the app itself: ↓ until the selection sits at the bottom, then count.
            for _ in 0..<14 {
                terminal.send(ScrollBytesBenchmark.down)
                terminal.drain(quiet: 0.05)
            }
            for _ in 0..<3 {
                terminal.send(ScrollBytesBenchmark.down)
                let burst = terminal.drain(quiet: 0.1)
                if index > 0 { scrollBytes.append(Double(burst.bytes)) }
            }
            terminal.quit("the app", problems: &problems, timeout: 3)
        }
        runner.results.setMedian("app_scroll_bytes", of: scrollBytes)
        runner.results.setMedian("first_screen_s", of: firstScreens)
        runner.results.setMedian("first_screen_cold_s", of: coldScreens)
        runner.results.setMedian("page_down_ms", of: pageDowns)
        for problem in problems { runner.results.note("app: \(problem)") }
    }

    /// The name of the first bank of the Date tab: newest closing date, then
    /// name case-insensitively, then id (the Date tab's order).
    static func firstBankName(store: String) throws -> String {
        var options = Database.Options()
        options.readOnly = true
        let database = try Database(path: store, options: options)
        let name = try database.scalar(
            """
            SELECT t0.name FROM failed_bank_info AS t0
            LEFT JOIN failed_bank_details AS t1 ON t1.info_id = t0.id
            ORDER BY t1.close_date DESC, t0.name COLLATE NOCASE, t0.id LIMIT 1
            """
        )
        guard let text = name.string else { throw BenchError.failed("the store has no banks") }
        return text
    }

    /// The bytes to look for on screen for a bank name: its first word or
    /// words, up to 12 characters, never across a run of spaces (curses may
    /// draw those as a cursor movement).
    static func searchPattern(_ name: String) -> [UInt8] {
        var text = ""
        for character in name {
            if character == " " && text.hasSuffix(" ") { break }
            if text.count >= 12 { break }
            text.append(character)
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return Array(text.utf8)
    }

    /// Terminal output with escape sequences removed, for error messages.
    static func visibleText(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1b {
                i += 1
                if i < bytes.count && bytes[i] == 0x5b {  // CSI: parameters then a final byte 0x40–0x7e
                    i += 1
                    while i < bytes.count && !(0x40...0x7e).contains(bytes[i]) { i += 1 }
                } else if i < bytes.count && (0x20...0x2f).contains(bytes[i]) {  // ESC ( B and the like
                    i += 1
                }
                i += 1
                continue
            }
            if bytes[i] >= 0x20 || bytes[i] == 0x0a { out.append(bytes[i]) }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
