import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The browser over a PostgreSQL table in tmux, its stderr on the terminal as when a person
/// runs it: what the server says never lands on the screen behind curses' back.
@Suite(
    .serialized,
    .enabled(
        if: PostgresFixture.tmuxUnavailableReason == nil,
        Comment(rawValue: PostgresFixture.tmuxUnavailableReason ?? "")
    )
)
struct PostgresScreenTests {
    static let schema = """
        CREATE TABLE student (id bigint PRIMARY KEY, name text NOT NULL, subject text NOT NULL);
        INSERT INTO student SELECT n, 'Student ' || n, (ARRAY['Art', 'Math'])[1 + n % 2] FROM generate_series(1, 40) AS n;
        """

    @Test func aServerMessageWhileBrowsingLeavesTheScreenAsARedrawDrawsIt() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--section", "subject", "--track"],
            standardErrorToTerminal: true
        )
        defer { tmux.close() }
        try tmux.waitFor("Art (20)", timeout: 15)
        try tmux.waitUntilSettled()
        // The follower waits for the history's notifications: its backend's FATAL arrives while it is idle.
        try fixture.server.terminateBackends(applicationName: "fetchedtable")
        // It reconnects within a backoff (0.25 s); the status line may say so for three seconds.
        usleep(1_500_000)
        try tmux.waitUntil("the connection back") { !$0.contains("Reconnecting") && !$0.contains("Connected again") }
        let screen = try tmux.waitUntilSettled()
        tmux.press("C-l")
        usleep(300_000)
        let redrawn = try tmux.waitUntilSettled()
        #expect(!screen.contains("FATAL") && !screen.contains("terminating connection"), "\(screen)")
        #expect(screen == redrawn, "before Ctrl-L:\n\(screen)\nafter:\n\(redrawn)")
    }
}
