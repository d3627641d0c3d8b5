import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import TestSupport
import Testing

/// The feed's objects give no role a privilege: the attacks of the third security audit,
/// made by a second role with no more than CONNECT and the default TEMP privilege.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ChangeFeedSecurityTests {
    static let events = TableName(schema: "public", name: "events")

    /// A database with `events` (tracked by the superuser, as the worst case) and `secrets`, and a
    /// role of its own (roles are the cluster's) that may only connect and make temporary tables.
    struct Scene {
        let database: TestDatabase
        let role: String
        let tracker: PostgresConnection
        let feed = ChangeFeed(table: ChangeFeedSecurityTests.events, keyColumns: ["id"])

        init() throws {
            database = try TestDatabase()
            role = "mallory_\(database.name)"
            try database.psql(
                """
                CREATE TABLE events (id int PRIMARY KEY, level text);
                INSERT INTO events VALUES (1, 'info'), (2, 'info');
                CREATE TABLE secrets (id int PRIMARY KEY, secret text);
                INSERT INTO secrets VALUES (1, 'the launch code');
                CREATE ROLE \(role) LOGIN;
                """
            )
            tracker = try database.connect()
            try feed.install(on: tracker)
        }

        func connect(as user: String) throws -> PostgresConnection {
            try PostgresConnection(database.server.uri(database: database.name, user: user), timeout: 10)
        }

        /// Runs each statement as far as the server lets it; the refusals are the point.
        func attempt(_ statements: [String], on connection: PostgresConnection) {
            for statement in statements { _ = try? connection.execute(statement) }
        }
    }

    @Test func aTriggerOnATemporaryTableCannotRunTheCaptureFunctionAsTheTracker() throws {
        let scene = try Scene()
        let mallory = try scene.connect(as: scene.role)
        // A key type whose cast to text is the attacker's function: run as the function's owner it grants.
        scene.attempt(
            [
                "CREATE TYPE pg_temp.bait AS (n int)",
                """
                CREATE FUNCTION pg_temp.bait_text(pg_temp.bait) RETURNS text LANGUAGE plpgsql AS $$
                BEGIN EXECUTE 'GRANT SELECT ON public.secrets TO \(scene.role)'; RETURN 'x'; END $$
                """,
                "CREATE CAST (pg_temp.bait AS text) WITH FUNCTION pg_temp.bait_text(pg_temp.bait)",
                "CREATE TEMP TABLE trap (k pg_temp.bait PRIMARY KEY)",
                """
                CREATE TRIGGER trap_insert AFTER INSERT ON pg_temp.trap REFERENCING NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION public.changefeed_history_capture('"pg_temp"."trap"', 'changefeed_history', 'k')
                """,
                "INSERT INTO pg_temp.trap VALUES (ROW(1))",
            ],
            on: mallory
        )
        let granted = try scene.tracker.query(
            "SELECT has_table_privilege($1, 'public.secrets', 'SELECT')",
            [scene.role]
        )
        #expect(granted.rows == [[.boolean(false)]])
        #expect(throws: PostgresError.self) { try mallory.query("SELECT secret FROM public.secrets") }
    }

    @Test func noRoleCanExecuteTheCaptureFunctionOrWriteTheRegistry() throws {
        let scene = try Scene()
        let rights = try scene.tracker.query(
            """
            SELECT has_function_privilege($1, 'public.changefeed_history_capture()', 'EXECUTE'),
                   (SELECT prosecdef FROM pg_proc WHERE oid = 'public.changefeed_history_capture()'::regprocedure),
                   has_table_privilege($1, 'public.changefeed_history_tables', 'INSERT, UPDATE, DELETE, TRUNCATE'),
                   has_table_privilege($1, 'public.changefeed_history', 'UPDATE, DELETE, TRUNCATE')
            """,
            [scene.role]
        )
        #expect(rights.rows == [[.boolean(false), .boolean(false), .boolean(false), .boolean(false)]])
    }

    @Test func aRoleThatCannotWriteATrackedTableCannotForgeItsHistory() throws {
        let scene = try Scene()
        let start = try scene.feed.currentPosition(on: scene.tracker)
        let mallory = try scene.connect(as: scene.role)
        scene.attempt(
            [
                // Through the capture function, under the tracked table's label…
                "CREATE TEMP TABLE decoy (id int PRIMARY KEY)",
                """
                CREATE TRIGGER decoy_truncate AFTER TRUNCATE ON pg_temp.decoy FOR EACH STATEMENT
                EXECUTE FUNCTION public.changefeed_history_capture('"public"."events"', 'changefeed_history', 'id')
                """,
                "TRUNCATE pg_temp.decoy",
                // … and straight into the history.
                """
                INSERT INTO public.changefeed_history (table_name, operation, key)
                VALUES ('"public"."events"', 'TRUNCATE', '{}')
                """,
            ],
            on: mallory
        )
        let batch = try scene.feed.read(after: start, on: scene.tracker)
        #expect(batch.changes.isEmpty)
        #expect(!batch.needsRefetch)
    }

    @Test func aWriterOfOneTrackedTableRecordsItsOwnChangesButCannotForgeAnother() throws {
        let scene = try Scene()
        try scene.database.psql(
            """
            CREATE TABLE notes (id int PRIMARY KEY, body text);
            GRANT SELECT, INSERT, UPDATE ON notes TO \(scene.role);
            """
        )
        let notes = ChangeFeed(table: TableName(schema: "public", name: "notes"), keyColumns: ["id"])
        try notes.install(on: scene.tracker)
        let start = try notes.currentPosition(on: scene.tracker)
        let eventsStart = try scene.feed.currentPosition(on: scene.tracker)
        let writer = try scene.connect(as: scene.role)
        try writer.execute("INSERT INTO notes VALUES (7, 'by the writer')")
        #expect(try notes.read(after: start, on: scene.tracker).changes.map(\.key) == [["7"]])
        #expect(throws: PostgresError.self) {
            try writer.execute(
                """
                INSERT INTO public.changefeed_history (table_name, operation, key)
                VALUES ('"public"."events"', 'TRUNCATE', '{}')
                """
            )
        }
        #expect(try !scene.feed.read(after: eventsStart, on: scene.tracker).needsRefetch)
    }

    @Test func aHistoryTableMadeByAnotherRoleIsRefusedNamingItsOwner() throws {
        let database = try TestDatabase()
        let role = "mallory_\(database.name)"
        try database.psql(
            """
            CREATE TABLE events (id int PRIMARY KEY, level text);
            CREATE ROLE \(role) LOGIN;
            GRANT CREATE ON SCHEMA public TO \(role);
            """
        )
        let mallory = try PostgresConnection(database.server.uri(database: database.name, user: role), timeout: 10)
        try mallory.execute(
            """
            CREATE TABLE public.changefeed_history (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, table_name text NOT NULL,
                operation text NOT NULL, key text[] NOT NULL, changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id())
            """
        )
        let tracker = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        #expect {
            try feed.install(on: tracker)
        } throws: { error in
            guard let refusal = error as? ChangeFeedError, case .ownedByAnotherRole(let object, let owner) = refusal
            else { return false }
            return object == "the table public.changefeed_history" && owner == role
                && refusal.description.contains(role)
        }
        #expect(try !feed.isInstalled(on: tracker))
        let triggers = try tracker.query("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'events'::regclass")
        #expect(triggers.int64(row: 0, column: 0) == 0)
    }

    @Test func aCaptureFunctionMadeByAnotherRoleIsRefusedNamingItsOwner() throws {
        let database = try TestDatabase()
        let role = "mallory_\(database.name)"
        try database.psql(
            """
            CREATE TABLE events (id int PRIMARY KEY, level text);
            CREATE ROLE \(role) LOGIN;
            GRANT CREATE ON SCHEMA public TO \(role);
            """
        )
        let mallory = try PostgresConnection(database.server.uri(database: database.name, user: role), timeout: 10)
        try mallory.execute(
            "CREATE FUNCTION public.changefeed_history_capture() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$"
        )
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        #expect {
            try feed.install(on: try database.connect())
        } throws: { error in
            guard case .ownedByAnotherRole(let object, let owner) = error as? ChangeFeedError else { return false }
            return object == "the function public.changefeed_history_capture()" && owner == role
        }
    }

    @Test func aReaderWithoutPrivilegesOnTheHistorySeesOnlyTheTablesItMayRead() throws {
        let scene = try Scene()
        try scene.database.psql(
            """
            CREATE TABLE notes (id int PRIMARY KEY, body text);
            GRANT SELECT ON events TO \(scene.role);
            """
        )
        let notes = ChangeFeed(table: TableName(schema: "public", name: "notes"), keyColumns: ["id"])
        try notes.install(on: scene.tracker)
        let reader = try scene.connect(as: scene.role)
        let start = try scene.feed.currentPosition(on: reader)
        try scene.database.psql(
            "UPDATE events SET level = 'warn' WHERE id = 2; INSERT INTO notes VALUES (1, 'private')"
        )
        #expect(try scene.feed.read(after: start, on: reader).changes.map(\.key) == [["2"]])
        #expect(try notes.read(after: start, on: reader).changes.isEmpty)
        #expect(try reader.query("SELECT count(*) FROM public.changefeed_history").int64(row: 0, column: 0) == 1)
    }
}
