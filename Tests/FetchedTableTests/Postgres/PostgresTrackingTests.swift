import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--track` and `untrack` as a team uses them: another role reads the history the owner
/// installed, `untrack` under a running `watch --track` is neither undone nor loses a row,
/// the history of an earlier fetchedtable is upgraded with one line, another role's history
/// is refused naming it, and the local copies are the user's alone.
@Suite(
    .serialized,
    .enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? ""))
)
struct PostgresTrackingTests {
    static let schema = """
        CREATE TABLE student (id bigint PRIMARY KEY, name text NOT NULL, subject text NOT NULL);
        INSERT INTO student VALUES (1, 'Ada', 'Math'), (2, 'Brook', 'Art');
        """

    static func stderr(of watch: (pid: Int32, output: URL)) -> String {
        (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
    }

    @Test func anotherRolesTrackReadsTheHistoryTheOwnerInstalled() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let reader = "reader_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student TO \(reader)")
        // The owner installs the history (a watch, which --track applies to), and leaves.
        let owner = try fixture.startWatch([fixture.uri, "--table", "student", "--track"])
        try fixture.waitUntil("the owner's snapshot line") { fixture.lines(owner.output).count >= 1 }
        kill(owner.pid, SIGTERM)
        let watch = try fixture.startWatch([
            fixture.uri(user: reader), "--table", "student", "--section", "subject", "--track",
        ])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        try fixture.psql("INSERT INTO student VALUES (3, 'Cyril', 'Zoology')")
        do {
            try fixture.waitUntil("the insert's batch") { fixture.lines(watch.output).count >= 2 }
        } catch {
            throw EndToEndError("no batch line; watch's stderr: \(Self.stderr(of: watch))")
        }
        #expect(fixture.lines(watch.output)[1].contains("Zoology"))
        #expect(Self.stderr(of: watch).isEmpty, "\(Self.stderr(of: watch))")
    }

    @Test func untrackUnderARunningWatchIsNotUndoneAndLosesNoRow() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let before = try fixture.server.schemaDump(database: fixture.database)
        let watch = try fixture.startWatch([fixture.uri, "--table", "student", "--section", "subject", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        let untrack = try fixture.run(["untrack", fixture.uri, "--table", "student"])
        #expect(untrack.status == 0, "\(untrack.standardError)")
        #expect(untrack.standardOutput.contains("they do not install the triggers again"), "\(untrack.standardOutput)")
        try fixture.psql("INSERT INTO student VALUES (3, 'Cyril', 'Zoology')")
        do {
            try fixture.waitUntil("the insert's batch") {
                fixture.lines(watch.output).contains { $0.contains("Zoology") }
            }
        } catch {
            throw EndToEndError("the row never came; watch's stderr: \(Self.stderr(of: watch))")
        }
        try fixture.waitUntil("the notice on stderr") { Self.stderr(of: watch).contains("polling public.student") }
        #expect(Self.stderr(of: watch).contains("was removed (untrack)"), "\(Self.stderr(of: watch))")
        #expect(try fixture.server.schemaDump(database: fixture.database) == before, "not installed again")
    }

    @Test func theHistoryOfAnEarlierFetchedtableIsUpgradedWithOneLine() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        try fixture.psql(Self.earlierVersion)
        let watch = try fixture.startWatch([fixture.uri, "--table", "student", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        let stderr = Self.stderr(of: watch)
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(stderr.contains("upgraded public.fetchedtable_history"), "\(stderr)")
        let function = try fixture.psql(
            """
            SELECT prosecdef, has_function_privilege('public', oid, 'EXECUTE')
            FROM pg_proc WHERE oid = 'fetchedtable_history_capture()'::regprocedure
            """
        )
        #expect(function == "f|f")
        kill(watch.pid, SIGTERM)
        let again = try fixture.startWatch([fixture.uri, "--table", "student", "--track"])
        defer { kill(again.pid, SIGTERM) }
        try fixture.waitUntil("the second snapshot line") { fixture.lines(again.output).count >= 1 }
        #expect(Self.stderr(of: again).isEmpty, "once: \(Self.stderr(of: again))")
    }

    /// Issue 39 item 10: an earlier fetchedtable's history granted nothing, and another role's
    /// `--track` failed on "permission denied for table fetchedtable_history". It is told the
    /// GRANT to run (or to have the owner upgrade it); once granted, it follows the table and
    /// says in one line that only the owner can upgrade the history.
    @Test func anotherRolesTrackOfAnEarlierHistoryIsToldTheGrantThenFollows() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        try fixture.psql(Self.earlierVersion)
        let reader = "reader_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student TO \(reader)")
        let before = try fixture.server.schemaDump(database: fixture.database)
        let refused = try fixture.run(["watch", fixture.uri(user: reader), "--table", "student", "--track"])
        #expect(refused.status == 77, "\(refused.standardError)")
        let grant = "GRANT SELECT ON \"public\".\"fetchedtable_history\" TO \"\(reader)\""
        #expect(refused.standardError.contains("the role \(reader) may not read public.fetchedtable_history"))
        #expect(refused.standardError.contains("postgres can run --track once to upgrade it"))
        #expect(refused.standardError.contains(grant), "\(refused.standardError)")
        #expect(try fixture.server.schemaDump(database: fixture.database) == before, "nothing was changed")
        try fixture.psql(grant)
        let watch = try fixture.startWatch([fixture.uri(user: reader), "--table", "student", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        let stderr = Self.stderr(of: watch)
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(stderr.contains("postgres should run --track once to upgrade it"), "\(stderr)")
        try fixture.psql("INSERT INTO student VALUES (3, 'Cyril', 'Zoology')")
        do {
            try fixture.waitUntil("the insert's batch") {
                fixture.lines(watch.output).contains { $0.contains("\"change\":\"insert\",\"id\":3") }
            }
        } catch {
            throw EndToEndError(
                "the row never came: \(fixture.lines(watch.output)); watch's stderr: \(Self.stderr(of: watch))"
            )
        }
    }

    @Test func aHistoryAnotherRoleMadeIsRefusedNamingThatRole() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let other = "other_\(fixture.database)"
        try fixture.psql(
            """
            CREATE ROLE \(other) LOGIN; GRANT CREATE ON SCHEMA public TO \(other);
            SET ROLE \(other);
            CREATE TABLE public.fetchedtable_history (sequence bigint, table_name text, operation text, key text[],
                                                      changed_at timestamptz, transaction_id xid8);
            """
        )
        let result = try fixture.run(["watch", fixture.uri, "--table", "student", "--track"])
        #expect(result.status == 77, "\(result.standardError)")
        #expect(
            result.standardError.contains("public.fetchedtable_history belongs to the role \(other)"),
            "\(result.standardError)"
        )
        #expect(try fixture.psql("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'student'::regclass") == "0")
    }

    @Test func theCopiesOfServerTablesAreTheUsersAlone() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let cache = fixture.directory.appendingPathComponent("cache/fetchedtable").path
        mkdir(fixture.directory.appendingPathComponent("cache").path, 0o755)
        mkdir(cache, 0o755)  // as an earlier version left it
        let result = try fixture.run(["list", fixture.uri, "--table", "student"])
        #expect(result.status == 0, "\(result.standardError)")
        func mode(_ path: String) -> mode_t {
            var info = stat()
            lstat(path, &info)
            return info.st_mode & 0o777
        }
        #expect(mode(cache) == 0o700)
        #expect(mode(cache + "/postgres") == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/postgres")
        #expect(!files.isEmpty)
        for file in files { #expect(mode(cache + "/postgres/" + file) == 0o600, "\(file)") }
    }

    @Test func aViewIsTrackedThroughItsTablesAndUntrackedLikewise() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema + "CREATE VIEW math AS SELECT id, name FROM student WHERE subject = 'Math';")
        let before = try fixture.server.schemaDump(database: fixture.database)
        let watch = try fixture.startWatch([fixture.uri, "--table", "math", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        #expect(try fixture.psql("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'student'::regclass") == "4")
        try fixture.psql("INSERT INTO student VALUES (3, 'Cyril', 'Math')")
        do {
            try fixture.waitUntil("the insert's batch") { fixture.lines(watch.output).count >= 2 }
        } catch {
            throw EndToEndError("no batch line; watch's stderr: \(Self.stderr(of: watch))")
        }
        #expect(fixture.lines(watch.output)[1].contains("insert"), "\(fixture.lines(watch.output))")
        kill(watch.pid, SIGTERM)
        let untrack = try fixture.run(["untrack", fixture.uri, "--table", "math"])
        #expect(untrack.status == 0, "\(untrack.standardError)")
        #expect(untrack.standardOutput.contains("the tables of math (student) have no"), "\(untrack.standardOutput)")
        #expect(try fixture.server.schemaDump(database: fixture.database) == before)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func untrackUnderTheBrowserSaysItPollsFromNowOnAndLosesNoRow() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let tmux = try fixture.launch([fixture.uri, "--table", "student", "--section", "subject", "--track"])
        defer { tmux.close() }
        try tmux.waitFor("Math (1)", timeout: 15)
        let untrack = try fixture.run(["untrack", fixture.uri, "--table", "student"])
        #expect(untrack.status == 0, "\(untrack.standardError)")
        try fixture.psql("INSERT INTO student VALUES (3, 'Cyril', 'Zoology')")
        try tmux.waitFor("The change history was removed (untrack): polling public.student", timeout: 15)
        try tmux.waitFor("Zoology (1)", timeout: 30)
        #expect(try fixture.psql("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'student'::regclass") == "0")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aViewOfTheCurrentTimeSaysItIsNotLiveAndWhenItWasChecked() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(
            Self.schema + """
                ALTER TABLE student ADD COLUMN seen timestamptz NOT NULL DEFAULT '2000-01-01';
                CREATE VIEW recent AS SELECT id, name, subject FROM student WHERE seen > now() - interval '1 hour';
                """
        )
        let tmux = try fixture.launch([fixture.uri, "--table", "recent", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitFor("Not live: it reads the function now(); checked", timeout: 15)
        try fixture.psql("UPDATE student SET seen = now() WHERE id = 2")
        try tmux.waitFor("Brook", timeout: 30)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    /// What an earlier fetchedtable installed on `student`: a `SECURITY DEFINER` capture function
    /// every role could execute, the label, channel and key in the triggers' arguments.
    static let earlierVersion = """
        CREATE TABLE fetchedtable_history (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, table_name text NOT NULL,
            operation text NOT NULL CHECK (operation IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')),
            key text[] NOT NULL, changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id());
        CREATE FUNCTION fetchedtable_history_capture() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $capture$
        BEGIN
            INSERT INTO public.fetchedtable_history (table_name, operation, key) VALUES (TG_ARGV[0], 'TRUNCATE', '{}');
            PERFORM pg_notify(TG_ARGV[1], TG_ARGV[0]);
            RETURN NULL;
        END $capture$;
        CREATE TRIGGER fetchedtable_history_insert AFTER INSERT ON student REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION fetchedtable_history_capture('"public"."student"', 'fetchedtable_history', 'id');
        CREATE TRIGGER fetchedtable_history_update AFTER UPDATE ON student REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION fetchedtable_history_capture('"public"."student"', 'fetchedtable_history', 'id');
        CREATE TRIGGER fetchedtable_history_delete AFTER DELETE ON student REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION fetchedtable_history_capture('"public"."student"', 'fetchedtable_history', 'id');
        CREATE TRIGGER fetchedtable_history_truncate AFTER TRUNCATE ON student
            FOR EACH STATEMENT EXECUTE FUNCTION fetchedtable_history_capture('"public"."student"', 'fetchedtable_history', 'id');
        """
}
