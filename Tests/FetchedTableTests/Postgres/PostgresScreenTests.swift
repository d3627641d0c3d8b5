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
        // A server of its own: its connections are terminated, and no other test's must be.
        let server = try PostgresTestServer()
        defer { server.close() }
        let fixture = try PostgresFixture(server: server)
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

    @Test func aColumnRenamedWhileBrowsingIsCopiedAgainAndTheListStaysLive() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let tmux = try fixture.launch([fixture.uri, "--table", "student", "--sort", "name", "--track"])
        defer { tmux.close() }
        // The list of the copy, not the first page shown while it is made.
        try tmux.waitUntil("the copy's list", timeout: 15) { $0.contains("Student 1") && !$0.contains("Copying") }
        try fixture.psql("ALTER TABLE student RENAME COLUMN subject TO topic")
        try fixture.psql("INSERT INTO student VALUES (100, 'Newcomer', 'Music')")
        let screen: String
        do {
            screen = try tmux.waitFor("Newcomer", timeout: 30)
        } catch {
            let stderr =
                (try? String(contentsOf: fixture.directory.appendingPathComponent("app.stderr"), encoding: .utf8)) ?? ""
            throw EndToEndError("\(error)\nstderr: \(stderr)")
        }
        #expect(screen.contains("Music"), "the new row with its renamed column: \(screen)")
        try fixture.psql("UPDATE student SET topic = 'Drama' WHERE id = 100")
        let updated = try tmux.waitFor("Drama", timeout: 30)
        #expect(!updated.contains("Reconnecting"), "\(updated)")
    }

    @Test func aRefusalIsSaidWithWhatToDoNotAsAReconnect() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let reader = "reader_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student TO \(reader)")
        let tmux = try fixture.launch([fixture.uri(user: reader), "--table", "student", "--sort", "name"])
        defer { tmux.close() }
        try tmux.waitUntil("the copy's list", timeout: 15) { $0.contains("Student 1") && !$0.contains("Copying") }
        try fixture.psql(
            "REVOKE SELECT ON student FROM \(reader); INSERT INTO student VALUES (100, 'Newcomer', 'Music')"
        )
        let screen = try tmux.waitFor("The server refuses", timeout: 30)
        #expect(screen.contains("permission denied"), "\(screen)")
        #expect(!screen.contains("Reconnecting"), "\(screen)")
    }

    @Test func watchCopiesATableAgainWhenAColumnIsRenamed() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let watch = try fixture.startWatch([fixture.uri, "--table", "student", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        try fixture.psql("ALTER TABLE student RENAME COLUMN subject TO topic")
        try fixture.psql("INSERT INTO student VALUES (100, 'Newcomer', 'Music')")
        do {
            try fixture.waitUntil("a new snapshot with the new row") {
                fixture.lines(watch.output).dropFirst().contains { $0.contains("snapshot") && $0.contains(",100]") }
            }
        } catch {
            let stderr = (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
            throw EndToEndError("\(error); stderr: \(stderr); stdout: \(fixture.lines(watch.output))")
        }
        let stderr = (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
        #expect(
            stderr.contains("the column subject of public.student was renamed topic: copying it again"),
            "\(stderr)"
        )
    }

    @Test func theGridAndTheDetailOfARowSayOnceWhichZoneItsTimesAreIn() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(
            """
            CREATE TABLE visit (id int PRIMARY KEY, who text, at timestamptz, day date);
            INSERT INTO visit VALUES (1, 'Ada', '2024-07-01 10:00:00+00', '2024-07-01');
            """
        )
        let tmux = try fixture.launch([fixture.uri, "--table", "visit"], environment: ["TZ": "Europe/Paris"])
        defer { tmux.close() }
        let grid = try tmux.waitUntil("the copy's list", timeout: 15) { $0.contains("Ada") && !$0.contains("Copying") }
        #expect(grid.contains("at (Europe/Paris)"), "the grid's header names the zone: \(grid)")
        tmux.press("Enter")
        let detail = try tmux.waitFor("at (Europe/Paris)")
        #expect(detail.contains("2024-07-01 12:00:00"), "the time in that zone: \(detail)")
        #expect(!detail.contains("day ("), "a date has no zone: \(detail)")
    }
}
