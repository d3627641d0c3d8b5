import Foundation
import PostgreSQLClient
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A table another session holds locked (`LOCK TABLE t IN ACCESS EXCLUSIVE MODE` in an open
/// transaction): the browser comes up at once and says who holds the lock, Esc or `q` quits at
/// once leaving no statement on the server, the table opens once the lock goes; `list` and
/// `watch` say on stderr why nothing comes, and Ctrl-C leaves no statement on the server.
@Suite(.serialized)
struct PostgresLockWaitTests {
    static let schema = """
        CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL);
        CREATE TABLE zoo (id bigint PRIMARY KEY, animal text);
        INSERT INTO t VALUES (1, 'Ada'), (2, 'Brook');
        INSERT INTO zoo VALUES (1, 'yak');
        """

    /// A session holding `t` locked, as `psql` would after `BEGIN; LOCK TABLE t …`.
    static func lockT(_ fixture: PostgresFixture) throws -> PostgresConnection {
        try fixture.lockHolder("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
    }

    /// What the loading screen says while `holder` holds the lock.
    static func waitingText(_ holder: PostgresConnection) -> String {
        "Waiting for a lock on t held by another session (pid \(holder.backendPID): lock-holder, user postgres)"
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil), arguments: ["q", "Escape"])
    func aLaunchTableLockedByAnotherSessionSaysWhoHoldsItAndQuitsAtOnce(key: String) throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let holder = try Self.lockT(fixture)
        defer { _ = try? holder.execute("ROLLBACK") }
        let tmux = try fixture.launch([fixture.uri, "--table", "t"], width: 120, height: 12)
        defer { tmux.close() }
        // Before the fix the terminal stayed blank: the launch's check of t waited for the lock.
        let waiting = try tmux.waitUntilWhole("the waiting screen", timeout: 15) {
            $0.contains(Self.waitingText(holder)) && $0.contains("Waiting for a lock…")
        }
        #expect(!waiting.contains("Reconnecting"), "\(waiting)")
        if key == "q" { tmux.send("q") } else { tmux.press(key) }
        // Exited while the lock is still held, with its statement cancelled on the server.
        _ = try tmux.waitUntil("the program exited", timeout: 10) { $0.contains("EXITED") }
        #expect(fixture.exitStatus() == 0)
        try fixture.waitUntil("no statement of fetchedtable's on the server") {
            try fixture.fetchedtableStatementsOnTheServer() == 0
        }
        #expect(
            try fixture.psql(
                """
                SELECT count(*) FROM pg_locks
                WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            ) == "0"
        )
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aLaunchTableOpensOnceTheLockIsReleased() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let holder = try Self.lockT(fixture)
        let tmux = try fixture.launch([fixture.uri, "--table", "t"], width: 120, height: 12)
        defer { tmux.close() }
        _ = try tmux.waitUntilWhole("the waiting screen", timeout: 15) { $0.contains(Self.waitingText(holder)) }
        try holder.execute("COMMIT")
        let opened = try tmux.waitUntilWhole("t opened", timeout: 20) {
            $0.contains("Ada") && $0.contains("Brook") && !$0.contains("Waiting")
        }
        #expect(!opened.contains("lock"), "\(opened)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    /// The table list comes up while t is locked (its count of t is not waited for); Enter on t
    /// waits, saying so; `q` then quits at once and cancels the copy on the server (before the
    /// fix Esc did, `q` left its statement waiting for the lock).
    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func qWhileATableFromTheListWaitsForALockCancelsItOnTheServer() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let holder = try Self.lockT(fixture)
        defer { _ = try? holder.execute("ROLLBACK") }
        let tmux = try fixture.launch([fixture.uri], width: 120, height: 12)
        defer { tmux.close() }
        let list = try tmux.waitUntilWhole("the server's tables", timeout: 15) {
            $0.contains("zoo") && $0.contains("1 row")
        }
        let lines = list.screenLines
        let t = try #require(lines.firstIndex { $0.contains(" t ") || $0.hasSuffix(" t") || $0.contains("│ t") })
        // Its line says why it has no count (the detail may be on the line under its name).
        #expect(lines[t...].prefix(2).contains { $0.contains("locked by another session") }, "\(list)")
        let zoo = try #require(lines.firstIndex { $0.contains("zoo") })
        if zoo < t { tmux.press("Down") }
        tmux.press("Enter")
        _ = try tmux.waitUntilWhole("the waiting screen", timeout: 15) { $0.contains(Self.waitingText(holder)) }
        tmux.send("q")
        _ = try tmux.waitUntil("the program exited", timeout: 10) { $0.contains("EXITED") }
        #expect(fixture.exitStatus() == 0)
        try fixture.waitUntil("no statement of fetchedtable's on the server") {
            try fixture.fetchedtableStatementsOnTheServer() == 0
        }
    }

    /// `list`: one line on stderr after a short wait naming who holds the lock, then the rows
    /// once it is released.
    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func listSaysOnStandardErrorThatItWaitsForALockThenPrintsTheRows() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let holder = try Self.lockT(fixture)
        let tmux = try fixture.launch(["list", fixture.uri, "--table", "t"], width: 120, height: 12)
        defer { tmux.close() }
        let stderr = fixture.directory.appendingPathComponent("app.stderr")
        let message =
            "fetchedtable list: waiting for a lock on t held by another session "
            + "(pid \(holder.backendPID): lock-holder, user postgres); Ctrl-C stops"
        try fixture.waitUntil("the message on stderr") {
            ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains(message)
        }
        #expect(!tmux.capture().contains("EXITED"))
        try holder.execute("COMMIT")
        let done = try tmux.waitUntil("the rows listed", timeout: 20) { $0.contains("EXITED") }
        #expect(done.contains("Ada") && done.contains("Brook"), "\(done)")
        #expect(fixture.exitStatus() == 0)
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(said.components(separatedBy: "waiting for a lock").count == 2, "said once: \(said)")
    }

    /// `watch`: the same line; Ctrl-C (SIGINT) while it waits ends it and its statement on the server.
    @Test(.enabled(if: PostgresFixture.isAvailable))
    func ctrlCWhileWatchWaitsForALockEndsItAndItsStatementOnTheServer() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let holder = try Self.lockT(fixture)
        defer { _ = try? holder.execute("ROLLBACK") }
        let watch = try fixture.startWatch([fixture.uri, "--table", "t"])
        defer { kill(watch.pid, SIGKILL) }
        let stderr = URL(fileURLWithPath: watch.output.path + ".stderr")
        let message =
            "fetchedtable watch: waiting for a lock on t held by another session "
            + "(pid \(holder.backendPID): lock-holder, user postgres); Ctrl-C stops"
        try fixture.waitUntil("the message on stderr") {
            ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains(message)
        }
        kill(watch.pid, SIGINT)
        // Ended while the lock is still held (before the fix Ctrl-C waited for the copy).
        try fixture.waitUntil("watch ended") { kill(watch.pid, 0) != 0 }
        try fixture.waitUntil("no statement of fetchedtable's on the server") {
            try fixture.fetchedtableStatementsOnTheServer() == 0
        }
        #expect(fixture.lines(watch.output).isEmpty)
    }
}
