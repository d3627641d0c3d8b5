import Foundation
import Timekeeping

extension PseudoTerminal {
    /// Reads until one of `patterns` appears in the output after offset `from`.
    /// Returns which one and the Clock time of the chunk that completed it; nil at
    /// the timeout or when the program closed the terminal first.
    ///
    ///     if let (which, at) = tty.waitForAny([Array("2026-12-01T00:01:00".utf8)], timeout: 60) { … }
    func waitForAny(_ patterns: [[UInt8]], from: Int = 0, timeout: Double) -> (index: Int, time: Double)? {
        let deadline = MonotonicClock.seconds() + timeout
        var searched = from
        let longest = patterns.map(\.count).max() ?? 0
        while true {
            for (index, pattern) in patterns.enumerated()
            where PseudoTerminal.find(pattern, in: output, from: searched) != nil {
                return (index, MonotonicClock.seconds())
            }
            searched = max(from, output.count - longest + 1)
            let remaining = deadline - MonotonicClock.seconds()
            if remaining <= 0 || isClosed { return nil }
            readChunk(timeout: min(remaining, 0.5))
        }
    }

    /// Sends `keys` every 0.1 s until one of `patterns` appears in what the program writes after
    /// them: the Clock time it was seen; nil at the timeout or when the program closed the terminal.
    /// With a key that repaints every cell (Ctrl-L), a row's text arrives whole (ncurses otherwise
    /// writes only the cells that changed, and a row's text may never appear in one piece); at most
    /// 0.1 s late.
    ///
    ///     tty.sendUntilAny(Array("G".utf8) + [0x0c], shows: [Array("oldest".utf8)], timeout: 300)
    func sendUntilAny(_ keys: [UInt8], shows patterns: [[UInt8]], timeout: Double) -> Double? {
        let deadline = MonotonicClock.seconds() + timeout
        while MonotonicClock.seconds() < deadline && !isClosed {
            let from = output.count
            send(keys)
            if let (_, seen) = waitForAny(patterns, from: from, timeout: 0.1) { return seen }
        }
        return nil
    }

    /// Ends `program` (its name in messages): `q`, or SIGTERM with `terminate`, then waits for
    /// the exit (SIGTERM after `timeout` seconds); a status other than 0 goes to `problems` (the
    /// first three).
    func quit(_ program: String, problems: inout [String], terminate: Bool = false, timeout: Double = 5) {
        if terminate { kill(pid, SIGTERM) } else { send(Array("q".utf8)) }
        let status = finish(timeout: timeout)
        if status != 0 && problems.count < 3 {
            problems.append("\(program) exited with status \(status)" + (terminate ? "" : " after q"))
        }
    }

    /// The error of `program`, which `what` (did not show a row in time): it is ended, and the
    /// error says its exit status and the end of what it wrote.
    func failure(_ program: String, _ what: String) -> BenchError {
        let status = finish(timeout: 0.5)
        let screen = AppBenchmark.visibleText(output)
        return BenchError.failed("\(program) \(what) (status \(status)); it wrote: \(screen.suffix(300))")
    }
}
