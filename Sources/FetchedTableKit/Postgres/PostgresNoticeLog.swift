import CLIKit
import Foundation
import PostgreSQLClient

/// The server's notices to every connection of the process (a `WARNING`, `FATAL: terminating
/// connection…` that arrived while idle, `NOTICE: trigger … does not exist, skipping`): kept
/// here instead of printed by libpq over the browser's screen. The browser prints the last few
/// on stderr once the terminal is the shell's again; `watch` (whose stderr is no screen) prints
/// each as it comes.
///
///     connection.noticeHandler = PostgresNoticeLog.shared.record
final class PostgresNoticeLog: @unchecked Sendable {
    /// The process's log.
    static let shared = PostgresNoticeLog()

    private let lock = NSLock()
    private var lines: [String] = []
    private var printsAsTheyCome = false

    /// Keeps `notice` (called on the thread of the connection that read it).
    @Sendable func record(_ notice: PostgresNotice) {
        let line = "the server said: \(notice)"
        let printNow = lock.withLock {
            if !printsAsTheyCome { lines.append(line) }
            return printsAsTheyCome
        }
        if printNow { writeStandardError("\(ProgramName.current): \(line)\n") }
    }

    /// From now on each notice is printed on stderr as it comes (`watch`), not kept.
    func printAsTheyCome() { lock.withLock { printsAsTheyCome = true } }

    /// The notices kept so far, oldest first, and forgets them.
    func take() -> [String] {
        lock.withLock {
            defer { lines = [] }
            return lines
        }
    }
}
