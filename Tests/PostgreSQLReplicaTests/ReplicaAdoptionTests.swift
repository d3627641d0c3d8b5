import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

/// A replica file left by a session that ended is taken over by the next one, and caught up
/// from the change history, when it is a copy of the same table made under the history
/// installed now; otherwise the table is copied again.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaAdoptionTests {
    /// A replica of `events` in `cache`, as a session makes it.
    static func replica(_ database: ReplicaTestDatabase, cache: String) -> PostgresReplica {
        PostgresReplica(
            connectionString: database.uri,
            table: ReplicaFollowTests.events,
            cacheDirectory: cache,
            applicationName: "replica-tests",
            timeout: 5,
            timeZone: "UTC"
        )
    }

    /// A session copies (and follows) `events`, then ends: its file, marked, is left under the
    /// name of a process that is gone. Returns the marked file's path.
    static func endedSession(_ database: ReplicaTestDatabase, cache: String, track: Bool) throws -> String {
        let replica = replica(database, cache: cache)
        if track { try replica.installTracking() }
        let table = try replica.load()
        replica.follow(track: track, status: { _ in })
        try database.psql("INSERT INTO events (ts, level, message) VALUES ('2024-03-01', 'info', 'seen')")
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == ReplicaFollowTests.serverRows(database) })
        replica.stop()
        try Database(path: table.path).execute("INSERT INTO pgreplica_state VALUES ('test-marker', 'old')")
        let ended = try ReplicaAdoptionTests.endedProcess()
        let left = table.path.replacingOccurrences(of: "-\(getpid()).sqlite", with: "-\(ended).sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: table.path + suffix) {
            try FileManager.default.moveItem(atPath: table.path + suffix, toPath: left + suffix)
        }
        try? FileManager.default.removeItem(atPath: table.path + "-shm")
        return left
    }

    /// The id of a process that has ended.
    static func endedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// Whether the replica file at `path` is the marked one an ended session left.
    static func isTheLeftFile(_ path: String) throws -> Bool {
        let rows = try Database(path: path).query(
            "SELECT value FROM pgreplica_state WHERE name = 'test-marker'"
        )
        return rows.first?.first == .text("old")
    }

    /// What changes on the server between the two sessions.
    static let changesBetweenSessions = """
        BEGIN;
        INSERT INTO events (ts, level, message) VALUES ('2024-04-01', 'error', 'while away');
        UPDATE events SET level = 'warn' WHERE id <= 3;
        DELETE FROM events WHERE id = 10;
        COMMIT;
        """

    @Test func aTrackedReplicaLeftByAnEndedSessionIsTakenOverAndCaughtUpFromTheHistory() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 50)
        let cache = try makeCacheDirectory()
        let left = try Self.endedSession(database, cache: cache, track: true)
        try database.psql(Self.changesBetweenSessions)
        let replica = Self.replica(database, cache: cache)
        let table = try replica.load()
        #expect(try Self.isTheLeftFile(table.path), "the file the ended session left is taken over, not copied again")
        #expect(!FileManager.default.fileExists(atPath: left))
        // Caught up before load returns: what `list` prints is the server's now.
        #expect(try ReplicaFollowTests.replicaRows(table) == ReplicaFollowTests.serverRows(database))
        #expect(try table.rowCount == ReplicaFollowTests.serverRows(database).count)
        // And followed from there: the next commit arrives as its own batch.
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        try database.psql("UPDATE events SET level = 'later' WHERE id = 20")
        let expected = try ReplicaFollowTests.serverRows(database)
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == expected })
        #expect(
            log.allBatches.map { ($0.inserted, $0.updated, $0.deleted, $0.isRefetch) }.first ?? (0, 0, 0, true) == (
                0, 1, 0, false
            )
        )
    }

    @Test func anUntrackedReplicaLeftByAnEndedSessionIsCopiedAgain() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 50)
        let cache = try makeCacheDirectory()
        let left = try Self.endedSession(database, cache: cache, track: false)
        try database.psql(Self.changesBetweenSessions)
        let table = try Self.replica(database, cache: cache).load()
        #expect(try !Self.isTheLeftFile(table.path), "without the history only a copy can tell what changed")
        #expect(!FileManager.default.fileExists(atPath: left))
        #expect(try ReplicaFollowTests.replicaRows(table) == ReplicaFollowTests.serverRows(database))
    }

    @Test func aReplicaOfATableWhoseColumnsChangedIsCopiedAgain() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 20)
        let cache = try makeCacheDirectory()
        let left = try Self.endedSession(database, cache: cache, track: false)
        try database.psql("ALTER TABLE events ADD COLUMN extra text DEFAULT 'x'")
        let table = try Self.replica(database, cache: cache).load()
        #expect(try !Self.isTheLeftFile(table.path))
        #expect(table.columns.map(\.name).contains("extra"))
        #expect(table.rowCount == 21)
        #expect(!FileManager.default.fileExists(atPath: left), "the untrusted file is removed")
    }

    @Test func aTrackedReplicaWhoseHistoryWasMadeAgainIsCopiedAgain() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 20)
        let cache = try makeCacheDirectory()
        _ = try Self.endedSession(database, cache: cache, track: true)
        let replica = Self.replica(database, cache: cache)
        // untrack, a change nobody records, --track again: the history cannot tell of that change.
        try replica.removeTracking()
        try database.psql("UPDATE events SET level = 'unrecorded' WHERE id = 5")
        try replica.installTracking()
        let table = try replica.load()
        #expect(try !Self.isTheLeftFile(table.path))
        #expect(try ReplicaFollowTests.replicaRows(table) == ReplicaFollowTests.serverRows(database))
    }
}
