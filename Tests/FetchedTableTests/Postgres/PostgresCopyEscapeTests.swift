import Foundation
import PostgreSQLClient
import TestSupport
import Testing

/// Esc while a server table opened from the table list is still being copied: the list stays,
/// the copy is cancelled on the server and never shown, and Enter opens the table again.
@Suite(.serialized)
struct PostgresCopyEscapeTests {
    static let schema = """
        CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL);
        CREATE TABLE zoo (id bigint PRIMARY KEY, animal text);
        INSERT INTO t VALUES (1, 'Ada'), (2, 'Brook');
        INSERT INTO zoo VALUES (1, 'yak');
        """

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func escWhileATableIsCopiedCancelsTheCopyKeepsTheListAndEnterOpensItAgain() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCopyEscapeTests.schema)
        let tmux = try fixture.launch([fixture.uri], width: 100, height: 12)
        defer { tmux.close() }
        let list = try tmux.waitUntil("the server's tables", timeout: 15) { $0.contains("zoo") && $0.contains("rows") }
        let lines = list.screenLines
        let t = try #require(lines.firstIndex { $0.contains(" t ") || $0.hasSuffix(" t") || $0.contains("│ t") })
        let zoo = try #require(lines.firstIndex { $0.contains("zoo") })
        if zoo < t { tmux.press("Down") }

        // Another session holds t: its copy waits on the server, the loading screen shown.
        let holder = try fixture.lockHolder("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the loading screen", timeout: 15) { $0.contains("Copying") }
        try fixture.waitUntilFetchedtableWaitsForALock()

        tmux.press("Escape")
        let back = try tmux.waitUntilWhole("the table list again", timeout: 10) {
            $0.contains("zoo") && !$0.contains("Copying")
        }
        #expect(!back.contains("Ada"), "\(back)")
        #expect(back.contains("Stopped opening t"), "\(back)")
        // Cancelled on the server while the lock is still held: nothing of ours waits for it.
        try fixture.waitUntil("the copy's statement cancelled on the server") {
            try fixture.fetchedtableStatementsWaitingForALock() == 0
        }
        try holder.execute("COMMIT")
        // Once the lock is gone nothing copies t behind the list: no statement of ours runs, the list stays.
        try fixture.waitUntil("no statement of fetchedtable's running") {
            try fixture.fetchedtableStatementsOnTheServer() == 0
        }
        let still = try tmux.waitUntilWhole("the table list still", timeout: 10) { $0.contains("zoo") }
        #expect(!still.contains("Ada") && !still.contains("Copying"), "\(still)")

        tmux.press("Enter")
        _ = try tmux.waitUntilWhole("t opened", timeout: 20) {
            $0.contains("Ada") && $0.contains("Brook") && !$0.contains("Copying")
        }
        tmux.press("Escape")
        _ = try tmux.waitUntilWhole("the table list after t", timeout: 10) { $0.contains("zoo") && !$0.contains("Ada") }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    /// `--table` has no list to go back to: Esc on its loading screen quits, as `q` does, at once
    /// and with 0, the copy's statement cancelled on the server (before: Esc did nothing, and `q`
    /// left the statement waiting there).
    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func escWhileTheLaunchTableIsCopiedQuitsAtOnceAndCancelsTheCopy() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCopyEscapeTests.schema)
        // A view whose rows wait for an advisory lock holds the copy (its first page) on the server.
        try fixture.psql(
            """
            CREATE FUNCTION gate() RETURNS boolean LANGUAGE plpgsql VOLATILE AS
                $$ BEGIN PERFORM pg_advisory_xact_lock_shared(42); RETURN true; END $$;
            CREATE VIEW gated AS SELECT id, name FROM t WHERE gate();
            """
        )
        let holder = try fixture.lockHolder("SELECT pg_advisory_lock(42)")
        defer { _ = try? holder.execute("SELECT pg_advisory_unlock(42)") }
        let tmux = try fixture.launch([fixture.uri, "--table", "gated"], width: 100, height: 12)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the loading screen", timeout: 15) { $0.contains("Copying") }
        try fixture.waitUntilFetchedtableWaitsForALock()
        tmux.press("Escape")
        _ = try tmux.waitUntil("the program exited while the copy still waits", timeout: 10) { $0.contains("EXITED") }
        #expect(fixture.exitStatus() == 0)
        try fixture.waitUntil("the copy's statement cancelled on the server") {
            try fixture.fetchedtableStatementsWaitingForALock() == 0
        }
    }
}
