import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import Synchronization
import Testing

/// `PostgresReplica.cancelLoad()`: a copy waiting on the server is cancelled there and the load
/// throws, not copying again; one asked before the load stops it before it copies.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaCancelTests {
    /// What a load on another thread ended with: nil until it ended, then its error (or "copied").
    final class Outcome: Sendable {
        let ended = Mutex<String?>(nil)
    }

    static func replica(_ database: ReplicaTestDatabase) throws -> PostgresReplica {
        // A statement timeout longer than the test: only the cancel ends the wait for the lock.
        PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "t"),
            cacheDirectory: try makeCacheDirectory(),
            applicationName: "copier",
            timeout: 600
        )
    }

    @Test func aCopyWaitingForALockIsCancelledOnTheServerAndTheLoadThrows() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a')")
        let replica = try Self.replica(database)
        let holder = try database.connect(applicationName: "holder")
        try holder.execute("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let outcome = Outcome()
        let thread = Thread {
            // With a status, a lost server is retried: the cancel must end it all the same.
            do {
                _ = try replica.load(status: { _ in })
                outcome.ended.withLock { $0 = "copied" }
            } catch {
                outcome.ended.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        func waiting() throws -> String {
            try database.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'copier' AND wait_event_type = 'Lock'"
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try waitUntil("the copy waits for the lock") {
            try waiting() != "0" || outcome.ended.withLock { $0 } != nil
        }
        #expect(outcome.ended.withLock { $0 } == nil, "the load waits for the lock")
        replica.cancelLoad()
        // The lock is still held: only the cancel ends the load.
        try waitUntil("the load ended") { outcome.ended.withLock { $0 } != nil }
        let ended = try #require(outcome.ended.withLock { $0 })
        #expect(ended != "copied", "\(ended)")
        #expect(try waiting() == "0")
        #expect(!FileManager.default.fileExists(atPath: replica.path))
    }

    @Test func aCancelBeforeTheLoadStopsItBeforeItCopies() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a')")
        let replica = try Self.replica(database)
        replica.cancelLoad()
        #expect(throws: ReplicaError.self) { try replica.load(status: { _ in }) }
        #expect(!FileManager.default.fileExists(atPath: replica.path))
    }

    /// Polls `condition` (a generous deadline: the machine is loaded).
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            if Date() > deadline { throw ReplicaError.cache(path: "", message: "timed out waiting until \(what)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
