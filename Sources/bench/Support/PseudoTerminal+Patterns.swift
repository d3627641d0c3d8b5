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
}
