import Foundation
import SQLiteStore

/// The app a person runs, in a real terminal: `failedbanks --db big.sqlite`
/// under a pseudo-terminal (TERM=xterm-256color, 80×24).
///
/// - `first_screen_s`: from just before the spawn until the first row of the
///   Date tab (the newest bank, found with plain SQL) has been written to the
///   terminal.
/// - `page_down_ms`: a PgDn key (`ESC [ 6 ~`) written to the terminal, until
///   the last byte of the redraw it causes (the output burst ends when
///   nothing more arrives for 100 ms; that quiet wait is not counted).
struct AppBenchmark {
    let runner: BenchRunner
    static let pageDown: [UInt8] = [0x1b, 0x5b, 0x36, 0x7e]

    func run() throws {
        let store = try runner.store()
        let name = try AppBenchmark.firstBankName(store: store)
        let pattern = AppBenchmark.searchPattern(name)
        let runs = runner.configuration.runs(small: 5, large: 5)
        let pagesPerRun = 5
        var firstScreens: [Double] = []
        var pageDowns: [Double] = []
        var problems: [String] = []
        for index in 0...runs {  // 0: warm-up (page cache, dynamic loader)
            let tty = try PseudoTerminal(runner.failedbanksCommand(["--db", store]),
                                         environment: ["TERM": "xterm-256color"], rows: 24, columns: 80)
            guard let shown = tty.waitFor(pattern, timeout: 60) else {
                let status = tty.finish(timeout: 0.5)
                let screen = AppBenchmark.visibleText(tty.output)
                throw BenchError.failed("the app did not show '\(String(decoding: pattern, as: UTF8.self))' within 60 s (status \(status)); it wrote: \(screen.suffix(300))")
            }
            if index > 0 { firstScreens.append(shown - tty.startTime) }
            tty.drain(quiet: 0.3)
            if BenchRunner.debug && index == 0 { print(AppBenchmark.visibleText(tty.output)) }
            for _ in 0..<pagesPerRun {
                let sent = Clock.now()
                tty.send(AppBenchmark.pageDown)
                let burst = tty.drain(quiet: 0.1)
                if let last = burst.lastByteTime, burst.bytes > 0 {
                    if index > 0 { pageDowns.append((last - sent) * 1000) }
                } else if problems.isEmpty {
                    problems.append("page down drew nothing")
                }
            }
            tty.send(Array("q".utf8))
            let status = tty.finish(timeout: 3)
            if status != 0 && problems.count < 3 { problems.append("the app exited with status \(status) after q") }
        }
        runner.results["first_screen_s"] = Statistics.median(firstScreens)
        runner.results.runs["first_screen_s"] = firstScreens.count
        runner.results["page_down_ms"] = Statistics.median(pageDowns)
        runner.results.runs["page_down_ms"] = pageDowns.count
        for problem in problems { runner.results.note("app: \(problem)") }
    }

    /// The name of the first bank of the Date tab: newest closing date, then
    /// name case-insensitively, then id (issue 4's order).
    static func firstBankName(store: String) throws -> String {
        var options = Database.Options()
        options.readOnly = true
        let database = try Database(path: store, options: options)
        let name = try database.scalar("""
            SELECT t0.name FROM failed_bank_info AS t0
            LEFT JOIN failed_bank_details AS t1 ON t1.info_id = t0.id
            ORDER BY t1.close_date DESC, t0.name COLLATE NOCASE, t0.id LIMIT 1
            """)
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
