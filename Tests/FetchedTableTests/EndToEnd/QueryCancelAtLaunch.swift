import Foundation
import TestSupport
import Testing

/// The check shared by the SQLite and PostgreSQL launch-cancel tests: the first run's progress
/// screen shows, Esc cancels it, and the program exits with status 130 saying so on stderr.
///
/// - Parameters:
///   - tmux: the session running `fetchedtable … --query SLOW`.
///   - exitStatus: the program's exit status, once it ended (the fixture's).
///   - directory: the fixture's folder, where the program's `app.stderr` is written.
func expectEscCancelsTheQueryAtLaunch(
    _ tmux: TmuxSession,
    exitStatus: () -> Int32?,
    directory: URL
) throws {
    _ = try tmux.waitUntil("the query's progress", timeout: 20) { $0.contains("Running…") && $0.contains(" s · ") }
    tmux.press("Escape")
    #expect(exitStatus() == 130)
    let stderr = try String(contentsOfFile: directory.appendingPathComponent("app.stderr").path, encoding: .utf8)
    #expect(stderr.contains("the query was cancelled"), "\(stderr)")
}
