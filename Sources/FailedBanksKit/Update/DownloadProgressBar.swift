import BulkImport
import Foundation
import Glibc

/// A one-line progress bar on standard error while the list downloads:
/// the bytes so far (of the total, with a bar, when the server said), drawn
/// only when standard error is a terminal, first after a quarter of a second
/// (a fast download never shows it), erased at the end.
///
///     let bar = DownloadProgressBar(label: "www.fdic.gov")
///     _ = try BankListDownloader().download(request, progress: bar.update)
///     bar.finish()
final class DownloadProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private let lock = NSLock()
    private var drawn = false
    private var lastDraw = 0.0

    init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.enabled = enabled
    }

    /// Draws the bar for `progress` (from any thread), at most ten times a second.
    func update(_ progress: BankListDownloader.Progress) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(started)
        lock.withLock {
            guard elapsed >= 0.25, elapsed - lastDraw >= 0.1 || !drawn else { return }
            lastDraw = elapsed
            drawn = true
            write("\r" + DownloadProgressBar.line(label: label, progress: progress, width: 80) + "\u{1B}[K")
        }
    }

    /// Erases the bar.
    func finish() {
        lock.withLock {
            guard drawn else { return }
            drawn = false
            write("\r\u{1B}[K")
        }
    }

    /// `www.fdic.gov: 12 KB of 45 KB [#####-----------] 26%`, fitted to `width` columns.
    static func line(label: String, progress: BankListDownloader.Progress, width: Int) -> String {
        let text = "\(label): \(size(progress.received))"
        guard let expected = progress.expected, expected > 0 else {
            return ImportProgressBar.fitted(text, width: width)
        }
        let fraction = min(1, Double(progress.received) / Double(expected))
        let tail = " \(Int((fraction * 100).rounded(.down)))%"
        return ImportProgressBar.fitted(text + " of \(size(expected))", bar: fraction, tail: tail, width: width)
    }

    /// "812 bytes", "45 KB", "1.2 MB".
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return "\(bytes / 1024) KB" }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
