import Foundation
import SQLiteStore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `fetchedtable` while its server fails, each fault with nothing lost: its
/// connections terminated while another client commits 100 rows, the server crashed
/// (`pg_ctl stop -m immediate`) and started again, the server frozen with SIGSTOP (keys
/// answered all along, `Reconnecting…` with the time since the last contact), and a
/// delete and its undo sent while the server is frozen (the row stays until it answers).
/// A test that stops, freezes or restarts its server has one of its own. Serialized: the
/// machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? ""))
)
struct PostgresFaultTests {
    static let events = """
        CREATE TABLE events (id bigserial PRIMARY KEY, level text NOT NULL);
        INSERT INTO events (level) SELECT 'old' FROM generate_series(1, 10);
        """

    /// Terminates every `fetchedtable` backend of the fixture's database; psql prints how many.
    static let terminateBrowsers = """
        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'fetchedtable' AND pid <> pg_backend_pid();
        """

    @Test(arguments: [true, false])
    func watchGetsAllOfAHundredRowsCommittedWhileItsConnectionsAreTerminated(track: Bool) throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresFaultTests.events)
        let watch = try fixture.startWatch([fixture.uri, "--table", "events"] + (track ? ["--track"] : []))
        defer { kill(watch.pid, SIGTERM) }
        try PostgresFaultTests.waitUntilFollowing(fixture, watch: watch)
        // 100 commits of a row each, the browser's connections terminated at the 30th and the 70th.
        var script = ""
        for n in 1...100 {
            if n == 30 || n == 70 { script += PostgresFaultTests.terminateBrowsers + "\n" }
            script += "INSERT INTO events (level) VALUES ('new \(n)');\n"
        }
        let terminated = try fixture.psql(script).split(separator: "\n").compactMap { Int($0) }
        #expect(terminated.first ?? 0 >= 1, "the follower's connection was terminated: \(terminated)")
        try PostgresFaultTests.waitUntilWatchHasTheServersRows(fixture, watch: watch)
        let stderr = PostgresFaultTests.standardError(of: watch)
        #expect(stderr.contains("reconnecting to"), "\(stderr)")
        #expect(try fixture.psql("SELECT count(*) FROM events WHERE level LIKE 'new %'") == "100")
    }

    @Test(arguments: [true, false])
    func watchCatchesUpAfterTheServerCrashesAndStartsAgain(track: Bool) throws {
        try PostgresFaultTests.withServerOfItsOwn(schema: PostgresFaultTests.events) { server, fixture in
            let watch = try fixture.startWatch([fixture.uri, "--table", "events"] + (track ? ["--track"] : []))
            defer { kill(watch.pid, SIGTERM) }
            try PostgresFaultTests.waitUntilFollowing(fixture, watch: watch)
            // Committed just before the crash: the watch may not have read them yet.
            try fixture.psql("INSERT INTO events (level) SELECT 'before' FROM generate_series(1, 20)")
            try server.stop()
            try fixture.waitUntil("watch to say it reconnects") {
                PostgresFaultTests.standardError(of: watch).contains("reconnecting to")
            }
            try server.start()
            try fixture.psql("INSERT INTO events (level) SELECT 'after' FROM generate_series(1, 20)")
            try PostgresFaultTests.waitUntilWatchHasTheServersRows(fixture, watch: watch)
            #expect(try fixture.psql("SELECT count(*) FROM events") == "51")
            try fixture.waitUntil("watch to say it is connected again") {
                PostgresFaultTests.standardError(of: watch).contains("connected to \(fixture.uri) again")
            }
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aFrozenServerShowsReconnectingWhileKeysAreAnsweredThenTheBrowserCatchesUp() throws {
        try PostgresFaultTests.withServerOfItsOwn(schema: PostgresEndToEndTests.schema) { server, fixture in
            let tmux = try PostgresFaultTests.launchFollowingBrowser(fixture)
            defer { tmux.close() }
            try server.suspend()
            let frozen = Date()
            try tmux.waitUntil("Reconnecting… with the time since the last contact") {
                $0.contains("Reconnecting…") && $0.contains("s since last contact")
            }
            // Keys are answered while the server is frozen: the detail screen opens from the copy, and closes.
            try PostgresFaultTests.openAndCloseTheDetail(tmux, listShowing: "Math (2)")
            tmux.send("Down")
            try tmux.waitFor("Reconnecting…")
            let left = 5 - Date().timeIntervalSince(frozen)
            if left > 0 { usleep(useconds_t(left * 1_000_000)) }
            try server.resume()
            try fixture.psql("INSERT INTO student (id, name, subject, number) VALUES (6, 'Zed', 'Zoology', 1)")
            try tmux.waitFor("Zoology (1)", timeout: 30)
            try tmux.waitUntil("the status line live again") { !$0.contains("Reconnecting…") }
            tmux.send("q")
            #expect(fixture.exitStatus() == 0)
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aServerFrozenDuringTheCopyShowsReconnectingWhileKeysAreAnsweredThenTheCopyIsMadeWhole() throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let fixture = try PostgresFixture(server: server)
        defer { fixture.remove() }
        // Rows enough for a copy of seconds: the server is frozen while it runs.
        try fixture.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, level text NOT NULL, message text);
            INSERT INTO events (level, message)
            SELECT 'level ' || (n % 3), n || ' ' || repeat('x', 100) FROM generate_series(1, 600000) AS n;
            """
        )
        let tmux = try fixture.launch([fixture.uri, "--table", "events", "--section", "level", "--title", "message"])
        defer { tmux.close() }
        try tmux.waitUntil("the copy under way", timeout: 60) {
            $0.contains("Copying… ") && !$0.contains("Copying… 0 rows")
        }
        try server.suspend()
        let frozen = Date()
        var resumed = false
        defer { if !resumed { try? server.resume() } }
        let reconnecting = try tmux.waitUntil("Reconnecting… on the copy's screen", timeout: 15) {
            $0.contains("Reconnecting…") && $0.contains("s since last contact")
        }
        #expect(reconnecting.contains("Copying…"), "\(reconnecting)")
        // Keys are answered while the server is frozen: the first page (level 0: ids 3, 6, 9…) scrolls.
        #expect(reconnecting.contains("3 xxx") && !reconnecting.contains("93 xxx"), "\(reconnecting)")
        for _ in 0..<30 { tmux.send("Down") }
        let scrolled = try tmux.waitUntil("the first page scrolled, the copy waiting") {
            $0.contains("93 xxx") && $0.contains("Copying…")
        }
        #expect(!scrolled.contains("level 0 ("), "\(scrolled)")
        let left = 5 - Date().timeIntervalSince(frozen)
        if left > 0 { usleep(useconds_t(left * 1_000_000)) }
        try server.resume()
        resumed = true
        // The copy is made again: every row, the first section counted as the server counts it.
        let total = try fixture.psql("SELECT count(*) FROM events")
        let first = try fixture.psql("SELECT count(*) FROM events WHERE level = 'level 0'")
        let whole = try tmux.waitFor("/\(total)", timeout: 120)
        #expect(whole.contains("level 0 (\(first))"), "\(whole)")
        try tmux.waitUntil("the status line live again") { !$0.contains("Reconnecting…") }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func theNextSessionOfATrackedTableTakesOverTheCopyAndReadsWhatChangedFromTheHistory() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresFaultTests.events)
        // A session that copies the table (and tracks it), then ends.
        let watch = try fixture.startWatch([fixture.uri, "--table", "events", "--track"])
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        kill(watch.pid, SIGTERM)
        try fixture.waitUntil("the watch to end") { kill(watch.pid, 0) != 0 }
        let left = try PostgresFaultTests.replicaFiles(fixture)
        try #require(left.count == 1, "\(left)")
        try PostgresFaultTests.markReplica(left[0], version: 4242)
        try fixture.psql("INSERT INTO events (level) VALUES ('while away'); DELETE FROM events WHERE id = 1")
        // The next session: the rows as the server has them now, from the file the first one left.
        let result = try fixture.run(["list", fixture.uri, "--table", "events", "--title", "level", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("while away"))
        #expect(try fixture.psql("SELECT count(*) FROM events") == "10")
        #expect(result.standardOutput.split(separator: "\n").count == 11, "\(result.standardOutput)")  // a header line
        let now = try PostgresFaultTests.replicaFiles(fixture)
        #expect(now.count == 1 && now != left, "\(now)")
        #expect(try PostgresFaultTests.replicaMark(now[0]) == 4242, "the file was taken over, not copied again")
    }

    /// The paths of the replica files in the fixture's cache.
    static func replicaFiles(_ fixture: PostgresFixture) throws -> [String] {
        let folder = fixture.directory.appendingPathComponent("cache/fetchedtable/postgres").path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }
            .map { "\(folder)/\($0)" }
    }

    /// Marks the replica file at `path` (`PRAGMA user_version`, which a copy leaves 0).
    static func markReplica(_ path: String, version: Int) throws {
        try Database(path: path).execute("PRAGMA user_version = \(version)")
    }

    /// The mark of the replica file at `path`.
    static func replicaMark(_ path: String) throws -> Int64? {
        try Database(path: path).scalar("PRAGMA user_version").int64
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func qQuitsWhileTheServerIsFrozen() throws {
        try PostgresFaultTests.withServerOfItsOwn(schema: PostgresEndToEndTests.schema) { server, fixture in
            let tmux = try PostgresFaultTests.launchFollowingBrowser(fixture)
            defer { tmux.close() }
            try server.suspend()
            try tmux.waitFor("Reconnecting…")
            tmux.send("q")
            try tmux.waitFor("EXITED")
            #expect(fixture.exitStatus() == 0)
            // Still frozen: the program did not wait for it.
            #expect(try PostgresFaultTests.isStopped(server), "the server was resumed before the exit")
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aDeleteAndItsUndoOnAFrozenServerKeepKeysAnsweredAndTheRowUntilTheServerSays() throws {
        try PostgresFaultTests.withServerOfItsOwn(schema: PostgresEndToEndTests.schema) { server, fixture in
            let tmux = try fixture.launch(
                [fixture.uri, "--table", "student", "--section", "subject", "--title", "name"]
            )
            defer { tmux.close() }
            try tmux.waitFor("Art (2)", timeout: 15)
            // The first row (Brook, Art), deleted while the server is frozen.
            try server.suspend()
            tmux.send("d")
            try tmux.waitFor("Delete")
            tmux.send("Enter")
            try tmux.waitUntil("the delete on its way") {
                $0.contains("Deleting Brook…") || $0.contains("Reconnecting…")
            }
            // Keys are answered while the server has not said yes, and the row stays.
            let waiting = try PostgresFaultTests.openAndCloseTheDetail(tmux, listShowing: "Art (2)")
            #expect(waiting.contains("Brook"), "\(waiting)")
            try server.resume()
            try tmux.waitFor("Art (1)", timeout: 30)
            #expect(try fixture.psql("SELECT count(*) FROM student WHERE id = 2") == "0")
            try tmux.waitUntil("the status line live again") { !$0.contains("Reconnecting…") }
            // Its undo, sent while the server is frozen again.
            try server.suspend()
            tmux.send("u")
            try tmux.waitUntil("the undo on its way") {
                $0.contains("Undoing: Deleted Brook…") || $0.contains("Reconnecting…")
            }
            try PostgresFaultTests.openAndCloseTheDetail(tmux, listShowing: "Art (1)")
            try server.resume()
            try tmux.waitFor("Art (2)", timeout: 30)
            #expect(
                try fixture.psql("SELECT name, subject, number, fee FROM student WHERE id = 2") == "Brook|Art|1|99.00"
            )
            tmux.send("q")
            #expect(fixture.exitStatus() == 0)
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aTableChosenFromTheListWhileTheServerIsFrozenOpensOnceItAnswersAndKeysAreAnsweredMeanwhile() throws {
        try PostgresFaultTests.withServerOfItsOwn(schema: PostgresEndToEndTests.schema) { server, fixture in
            let tmux = try fixture.launch(["--pg"], environment: fixture.pgEnvironment())
            defer { tmux.close() }
            try tmux.waitFor("teacher", timeout: 15)
            try tmux.waitFor("1/3")
            try server.suspend()
            tmux.send("Enter")  // math, the first
            try tmux.waitFor("Opening math…")
            tmux.send("Down")
            try tmux.waitFor("2/3")
            try server.resume()
            try tmux.waitFor("Cyril", timeout: 30)
            tmux.send("q")
            #expect(fixture.exitStatus() == 0)
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aDeleteTheServerRefusesIsSaidInTheStatusLineAndTheRowStays() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        try fixture.psql("CREATE TABLE note (student bigint REFERENCES student (id)); INSERT INTO note VALUES (2)")
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--section", "subject", "--title", "name"],
            width: 150
        )
        defer { tmux.close() }
        try tmux.waitFor("Art (2)", timeout: 15)
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        let refused = try tmux.waitFor("Could not delete Brook", timeout: 15)
        #expect(refused.contains("violates foreign key constraint"), "\(refused)")
        #expect(refused.contains("Art (2)") && refused.contains("Brook"), "\(refused)")
        #expect(try fixture.psql("SELECT count(*) FROM student WHERE id = 2") == "1")
        tmux.send("u")
        try tmux.waitFor("Nothing to undo")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    // MARK: Steps

    /// Runs `body` with a fixture on a server of its own, which it may stop, freeze or restart,
    /// `schema` loaded; the server is resumed and removed after it (``PostgresTestServer/close()``).
    static func withServerOfItsOwn(
        schema: String,
        _ body: (PostgresTestServer, PostgresFixture) throws -> Void
    ) throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let fixture = try PostgresFixture(server: server)
        defer { fixture.remove() }
        try fixture.psql(schema)
        try body(server, fixture)
    }

    /// Opens the selected row's detail screen (Enter) and closes it (Escape): keys answered.
    /// Returns the list shown again, which shows `section`.
    @discardableResult
    static func openAndCloseTheDetail(_ tmux: TmuxSession, listShowing section: String) throws -> String {
        tmux.send("Enter")
        try tmux.waitFor("enrolled")
        tmux.press("Escape")
        return try tmux.waitUntil("the list again") { !$0.contains("enrolled") && $0.contains(section) }
    }

    /// The browser on the students by subject, tracking, once it follows the server's changes.
    static func launchFollowingBrowser(_ fixture: PostgresFixture) throws -> TmuxSession {
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--section", "subject", "--title", "name", "--track"]
        )
        do {
            try tmux.waitFor("Math (2)", timeout: 15)
            try waitUntilBrowserFollows(fixture, tmux: tmux)
        } catch {
            tmux.close()
            throw error
        }
        return tmux
    }

    /// Whether the server's postmaster is stopped (state `T` in `/proc/<pid>/stat`).
    static func isStopped(_ server: PostgresTestServer) throws -> Bool {
        let pidFile = try String(contentsOfFile: "\(server.dataDirectory)/postmaster.pid", encoding: .utf8)
        let pid = try #require(pidFile.split(separator: "\n").first)
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let state = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ").first
        return state == "T"
    }

    /// Waits until a row another client inserts reaches the watch: its follower is connected and live.
    static func waitUntilFollowing(_ fixture: PostgresFixture, watch: (pid: Int32, output: URL)) throws {
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        try fixture.psql("INSERT INTO events (level) VALUES ('first')")
        try fixture.waitUntil("the first insert's batch") { fixture.lines(watch.output).count >= 2 }
    }

    /// Waits until a row another client inserts reaches the browser (a new section): its follower is live.
    static func waitUntilBrowserFollows(_ fixture: PostgresFixture, tmux: TmuxSession) throws {
        try fixture.psql("INSERT INTO student (id, name, subject, number) VALUES (9, 'Yuri', 'Yoga', 1)")
        try tmux.waitFor("Yoga (1)", timeout: 30)
    }

    /// Waits until the ids the watch has printed (the snapshot's, then each batch's inserts less
    /// its deletes) are the server's; on a timeout, says which are missing.
    static func waitUntilWatchHasTheServersRows(_ fixture: PostgresFixture, watch: (pid: Int32, output: URL)) throws {
        let expected = Set(try fixture.psql("SELECT id FROM events").split(separator: "\n").compactMap { Int($0) })
        do {
            try fixture.waitUntil("every row in the watch") { ids(in: fixture.lines(watch.output)) == expected }
        } catch {
            let seen = ids(in: fixture.lines(watch.output))
            throw EndToEndError(
                "\(error): missing \(expected.subtracting(seen).sorted()), extra \(seen.subtracting(expected).sorted()); "
                    + "stderr: \(standardError(of: watch))"
            )
        }
    }

    /// The ids of `watch`'s lines: the snapshot's, plus each batch's inserts, less its deletes.
    static func ids(in lines: [String]) -> Set<Int> {
        var ids = Set<Int>()
        for line in lines {
            guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            if json["type"] as? String == "snapshot" {
                for section in json["sections"] as? [[String: Any]] ?? [] {
                    ids.formUnion((section["ids"] as? [Int]) ?? [])
                }
            }
            for object in json["objects"] as? [[String: Any]] ?? [] {
                guard let id = object["id"] as? Int else { continue }
                switch object["change"] as? String {
                case "insert": ids.insert(id)
                case "delete": ids.remove(id)
                default: break
                }
            }
        }
        return ids
    }

    /// What the watch wrote on stderr so far.
    static func standardError(of watch: (pid: Int32, output: URL)) -> String {
        (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
    }
}
