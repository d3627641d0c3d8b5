import Glibc

/// A one-line progress bar on standard error for long imports:
/// rows, rows per second, a bar with the percentage, and the time left.
///
/// Drawn only when standard error is a terminal, first after half a second
/// (short imports never show it), redrawn with `\r` at most ten times a
/// second, and erased when the file is done.
///
///     let bar = ImportProgressBar(label: "students.csv")
///     bar.update(ImportProgress(rows: 10, bytesRead: 5, totalBytes: 10, elapsed: 1, isFinished: false))
///     bar.finish()
public final class ImportProgressBar {
    private let label: String
    private let enabled: Bool
    private var drawn = false
    private var lastDraw = 0.0

    /// A bar named `label`, drawn when `enabled` (by default, when standard error is a terminal).
    public init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.enabled = enabled
    }

    /// Draws `progress` (at most ten times a second; erases the bar when it is the last report).
    public func update(_ progress: ImportProgress) {
        guard enabled else { return }
        if progress.isFinished {
            finish()
            return
        }
        guard progress.elapsed >= 0.5, progress.elapsed - lastDraw >= 0.1 || !drawn else { return }
        lastDraw = progress.elapsed
        drawn = true
        writeStandardErrorRaw(
            "\r" + ImportProgressBar.line(label: label, progress: progress, width: terminalWidth()) + "\u{1B}[K"
        )
    }

    /// Erases the bar.
    public func finish() {
        guard drawn else { return }
        drawn = false
        writeStandardErrorRaw("\r\u{1B}[K")
    }

    /// The text of the bar (without the carriage return), fitted to `width` columns.
    public static func line(label: String, progress: ImportProgress, width: Int) -> String {
        let rate = Int(progress.rowsPerSecond.rounded())
        let text = "\(label): \(grouped(progress.rows)) rows, \(grouped(rate)) rows/s"
        guard let fraction = progress.fraction else { return fitted(text, width: width) }
        var tail = " \(Int((fraction * 100).rounded(.down)))%"
        if let left = progress.secondsLeft { tail += ", ETA \(duration(left))" }
        return fitted(text, bar: fraction, tail: tail, width: width)
    }

    /// Any progress line: `text`, a bar filled to `fraction` when one fits (5 to 30 columns), then
    /// `tail`, cut to `width` columns: an import's line, or any other (a download's).
    ///
    ///     ImportProgressBar.fitted("file.csv: 10 rows", bar: 0.5, tail: " 50%", width: 40)
    package static func fitted(_ text: String, bar fraction: Double? = nil, tail: String = "", width: Int) -> String {
        var line = text
        if let fraction {
            let barWidth = max(0, min(30, width - text.count - tail.count - 4))
            if barWidth >= 5 {
                let filled = Int((Double(barWidth) * fraction).rounded(.down))
                line +=
                    " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
                    + "]"
            }
        }
        line += tail
        return String(line.prefix(max(10, width - 1)))
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s < 60 ? "\(s) s" : "\(s / 60) min \(s % 60) s"
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    private func writeStandardErrorRaw(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}
