import Foundation

/// Bytes written to a real 80×24 terminal for a one-row scroll of a
/// subtitle-style table (target: ≤ 2 KB, which needs ncurses to scroll
/// with line insert/delete or a scroll region rather than repaint).
///
/// Runs `bench --child scroll-tty` under a pseudo-terminal, presses ↓ until
/// the selection sits at the bottom margin and every further ↓ scrolls the
/// table by one row, then counts the bytes each further ↓ produces (read
/// from the master until the terminal is quiet for 150 ms). Key: `scroll_bytes`
/// (median over several such scrolls).
struct ScrollBytesBenchmark {
    let runner: BenchRunner
    /// ↓ as an xterm in keypad-transmit mode sends it (terminfo `kcud1`).
    static let down: [UInt8] = [0x1b, 0x4f, 0x42]

    func run() throws {
        let tty = try PseudoTerminal(
            runner.childCommand("scroll-tty", ["--rows", "10000"]),
            environment: ["TERM": "xterm-256color"],
            rows: 24,
            columns: 80
        )
        defer {
            tty.send(Array("q".utf8))
            tty.finish(timeout: 2)
        }
        guard tty.waitFor(Array("Bank".utf8), timeout: 20) != nil else {
            throw BenchError.failed(
                "the table did not appear in the terminal: \(AppBenchmark.visibleText(tty.output).suffix(200))"
            )
        }
        let first = tty.drain(quiet: 0.3)
        // 24 lines hold about 11 two-line rows: 20 presses put the selection at the bottom margin.
        for _ in 0..<20 {
            tty.send(ScrollBytesBenchmark.down)
            tty.drain(quiet: 0.05)
        }
        tty.drain(quiet: 0.2)
        var counts: [Double] = []
        for _ in 0..<runner.configuration.runs(small: 9, large: 9) {
            tty.send(ScrollBytesBenchmark.down)
            let burst = tty.drain(quiet: 0.15)
            counts.append(Double(burst.bytes))
        }
        if counts.allSatisfy({ $0 == 0 }) {
            throw BenchError.failed("↓ drew nothing (first screen was \(first.bytes + tty.output.count) bytes)")
        }
        runner.log("scroll bytes per ↓: \(counts.map { String(Int($0)) }.joined(separator: ", "))")
        if BenchRunner.debug {
            let tail = Array(tty.output.suffix(Int(counts.last ?? 0)))
            print(String(decoding: tail, as: UTF8.self).debugDescription)
        }
        runner.results.setMedian("scroll_bytes", of: counts)
    }
}
