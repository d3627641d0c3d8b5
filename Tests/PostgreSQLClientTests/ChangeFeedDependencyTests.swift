import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import TestSupport
import Testing

/// The feed never fails a write to the tracked table: what its triggers need cannot be
/// dropped from under them alone, and `uninstall` removes whatever is left.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ChangeFeedDependencyTests {
    static let events = TableName(schema: "public", name: "events")

    static func trackedEvents() throws -> (TestDatabase, PostgresConnection, ChangeFeed) {
        let database = try TestDatabase()
        try database.psql("CREATE TABLE events (id int PRIMARY KEY, level text); INSERT INTO events VALUES (1, 'a')")
        let connection = try database.connect()
        let feed = ChangeFeed(table: events, keyColumns: ["id"])
        try feed.install(on: connection)
        return (database, connection, feed)
    }

    @Test func droppingTheHistoryIsRefusedAndWithCascadeTheTableStaysWritable() throws {
        let (database, connection, feed) = try Self.trackedEvents()
        #expect(throws: PostgresError.self) { try connection.execute("DROP TABLE changefeed_history") }
        try connection.execute("DROP TABLE changefeed_history CASCADE")
        try connection.execute("INSERT INTO events VALUES (2, 'b'); UPDATE events SET level = 'c'; DELETE FROM events")
        #expect(try !feed.isInstalled(on: connection))
        try feed.uninstall(on: connection)
        let left = try connection.query(
            """
            SELECT to_regprocedure('changefeed_history_capture()') IS NULL,
                   to_regprocedure('changefeed_history_tracks(oid)') IS NULL,
                   to_regclass('changefeed_history_tables') IS NULL
            """
        )
        #expect(left.rows == [[.boolean(true), .boolean(true), .boolean(true)]])
        _ = database
    }

    @Test func droppingTheRegistryWithCascadeLeavesTheTableWritable() throws {
        let (_, connection, feed) = try Self.trackedEvents()
        #expect(throws: PostgresError.self) { try connection.execute("DROP TABLE changefeed_history_tables") }
        try connection.execute("DROP TABLE changefeed_history_tables CASCADE")
        try connection.execute("INSERT INTO events VALUES (2, 'b'); TRUNCATE events")
        #expect(try !feed.isInstalled(on: connection))
    }

    @Test func aRenamedKeyColumnIsFollowedAndATableThatLosesItsKeyIsReadAgainWhole() throws {
        let (_, connection, feed) = try Self.trackedEvents()
        var position = try feed.currentPosition(on: connection)
        try connection.execute("ALTER TABLE events RENAME COLUMN id TO event_id; INSERT INTO events VALUES (2, 'b')")
        var batch = try feed.read(after: position, on: connection)
        #expect(batch.changes.map(\.key) == [["2"]])
        position = batch.position
        try connection.execute("ALTER TABLE events DROP CONSTRAINT events_pkey; UPDATE events SET level = 'x'")
        batch = try feed.read(after: position, on: connection)
        #expect(batch.needsRefetch)
    }

    @Test func disabledTriggersOrTriggersMadeAgainNeedARefetch() throws {
        let (_, connection, feed) = try Self.trackedEvents()
        let position = try feed.currentPosition(on: connection)
        try connection.execute(
            "BEGIN; ALTER TABLE events DISABLE TRIGGER USER; INSERT INTO events VALUES (9, 'unseen'); "
                + "ALTER TABLE events ENABLE TRIGGER USER; COMMIT"
        )
        let batch = try feed.read(after: position, on: connection)
        #expect(batch.changes.isEmpty)
        #expect(batch.needsRefetch, "the triggers were off for a while: the row is in no history")
        #expect(!batch.position.installation.isEmpty)
        try feed.uninstall(on: connection)
        let gone = try feed.read(after: batch.position, on: connection)
        #expect(gone.needsRefetch && gone.position.installation.isEmpty)
    }

    @Test func aPartitionedTableIsTrackedThroughEveryPartition() throws {
        let database = try TestDatabase()
        try database.psql(
            """
            CREATE TABLE readings (id int, day int, value text, PRIMARY KEY (id, day)) PARTITION BY RANGE (day);
            CREATE TABLE readings_1 PARTITION OF readings FOR VALUES FROM (0) TO (10);
            CREATE TABLE readings_2 PARTITION OF readings FOR VALUES FROM (10) TO (20);
            """
        )
        let connection = try database.connect()
        let feed = ChangeFeed(table: TableName(schema: "public", name: "readings"), keyColumns: ["id", "day"])
        try feed.install(on: connection)
        let start = try feed.currentPosition(on: connection)
        try database.psql(
            """
            INSERT INTO readings VALUES (1, 1, 'through the parent');
            INSERT INTO readings_2 VALUES (2, 12, 'straight into a partition');
            UPDATE readings_1 SET value = 'changed' WHERE id = 1;
            """
        )
        let batch = try feed.read(after: start, on: connection)
        #expect(
            batch.changes.map { "\($0.operation.rawValue) \($0.key)" } == [
                "INSERT [\"1\", \"1\"]", "INSERT [\"2\", \"12\"]", "UPDATE [\"1\", \"1\"]",
            ]
        )
        // A partition attached later has no triggers: the feed is not whole until --track runs again.
        try database.psql("CREATE TABLE readings_3 PARTITION OF readings FOR VALUES FROM (20) TO (30)")
        #expect(try !feed.isInstalled(on: connection))
        #expect(try feed.installation(on: connection).isIncomplete)
        #expect(try feed.install(on: connection) == .installed)
        #expect(try feed.isInstalled(on: connection))
        #expect(try !feed.installation(on: connection).isIncomplete)
        try feed.uninstall(on: connection)
        #expect(try !feed.installation(on: connection).isIncomplete, "none is not some")
        let triggers = try connection.query(
            "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'changefeed_history%'"
        )
        #expect(triggers.int64(row: 0, column: 0) == 0)
    }

    @Test func installingTwiceChangesNothingReadersFollow() throws {
        let (_, connection, feed) = try Self.trackedEvents()
        let position = try feed.currentPosition(on: connection)
        #expect(try feed.install(on: connection) == .alreadyInstalled)
        try connection.execute("INSERT INTO events VALUES (3, 'c')")
        let batch = try feed.read(after: position, on: connection)
        #expect(!batch.needsRefetch)
        #expect(batch.changes.map(\.key) == [["3"]])
    }

    /// What an earlier version installed: its history, and a `SECURITY DEFINER` capture function
    /// every role could execute, with the label, channel and key columns in the triggers' arguments.
    static func installTheEarlierVersion(on table: String, key: String, database: TestDatabase) throws {
        try database.psql(
            """
            CREATE TABLE IF NOT EXISTS changefeed_history (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, table_name text NOT NULL,
                operation text NOT NULL CHECK (operation IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')),
                key text[] NOT NULL, changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id());
            CREATE OR REPLACE FUNCTION changefeed_history_capture() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $capture$
            DECLARE label text := TG_ARGV[0]; channel text := TG_ARGV[1]; key_list text;
            BEGIN
                SELECT string_agg(format('%I::text', k), ', ') INTO key_list FROM unnest(TG_ARGV[2:]) AS k;
                IF TG_OP = 'TRUNCATE' THEN
                    INSERT INTO public.changefeed_history (table_name, operation, key) VALUES (label, 'TRUNCATE', '{}');
                ELSE
                    EXECUTE format('INSERT INTO public.changefeed_history (table_name, operation, key)
                                    SELECT $1, %L, ARRAY[%s] FROM %I', TG_OP, key_list,
                                   CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END) USING label;
                END IF;
                PERFORM pg_notify(channel, label);
                RETURN NULL;
            END $capture$;
            CREATE TRIGGER changefeed_history_insert AFTER INSERT ON \(table) REFERENCING NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION changefeed_history_capture('"public"."\(table)"', 'changefeed_history', '\(key)');
            CREATE TRIGGER changefeed_history_update AFTER UPDATE ON \(table) REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION changefeed_history_capture('"public"."\(table)"', 'changefeed_history', '\(key)');
            CREATE TRIGGER changefeed_history_delete AFTER DELETE ON \(table) REFERENCING OLD TABLE AS old_rows
                FOR EACH STATEMENT EXECUTE FUNCTION changefeed_history_capture('"public"."\(table)"', 'changefeed_history', '\(key)');
            CREATE TRIGGER changefeed_history_truncate AFTER TRUNCATE ON \(table)
                FOR EACH STATEMENT EXECUTE FUNCTION changefeed_history_capture('"public"."\(table)"', 'changefeed_history', '\(key)');
            """
        )
    }

    @Test func aHistoryTheEarlierVersionInstalledIsUpgradedInPlace() throws {
        let database = try TestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id int PRIMARY KEY, level text);
            CREATE TABLE notes (id int PRIMARY KEY, body text);
            """
        )
        try Self.installTheEarlierVersion(on: "events", key: "id", database: database)
        try Self.installTheEarlierVersion(on: "notes", key: "id", database: database)
        let connection = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        let found = try feed.installation(on: connection)
        #expect(found.isInstalled && found.isOutdated)
        try connection.execute("INSERT INTO events VALUES (1, 'before')")
        #expect(try feed.install(on: connection) == .upgraded(tables: ["\"public\".\"notes\""]))
        #expect(try !feed.installation(on: connection).isOutdated)
        let notes = ChangeFeed(table: TableName(schema: "public", name: "notes"), keyColumns: ["id"])
        #expect(try notes.isInstalled(on: connection) && !notes.installation(on: connection).isOutdated)
        let function = try connection.query(
            """
            SELECT prosecdef, has_function_privilege('public', oid, 'EXECUTE')
            FROM pg_proc WHERE oid = 'changefeed_history_capture()'::regprocedure
            """
        )
        #expect(function.rows == [[.boolean(false), .boolean(false)]])
        // The history kept its rows, and both tables are recorded by the new function.
        let start = try notes.currentPosition(on: connection)
        try connection.execute("INSERT INTO notes VALUES (5, 'after')")
        #expect(try notes.read(after: start, on: connection).changes.map(\.key) == [["5"]])
        #expect(try connection.query("SELECT count(*) FROM changefeed_history").int64(row: 0, column: 0) == 2)
    }
}
