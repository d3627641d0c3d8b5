import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import Synchronization
import TestSupport
import Testing

/// A load of a table another session holds locked waits as long as the lock is held, tells its
/// `lockWaitHandler` who holds it (pid, application_name, role), never counts the wait as a
/// server out of reach, and copies once the lock is released.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaLockWaitTests {
    /// What a load on another thread reported and ended with.
    final class Reports: Sendable {
        let waits = Mutex<[ReplicaLockWait?]>([])
        let statuses = Mutex<[ReplicaStatus]>([])
        let ended = Mutex<String?>(nil)
    }

    @Test func aLoadWaitingForALockSaysWhoHoldsItAndCopiesOnceItIsReleased() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a'), (2, 'b')")
        // The replica's usual timeout: a wait for a lock longer than it is no server out of reach.
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "t"),
            cacheDirectory: try makeCacheDirectory(),
            applicationName: "copier",
            timeout: 2
        )
        let reports = Reports()
        replica.lockWaitHandler = { wait in reports.waits.withLock { $0.append(wait) } }
        let holder = try database.connect(applicationName: "holder")
        try holder.execute("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        let thread = Thread {
            do {
                let preview = try replica.firstPage(orderBy: [], limit: 10)
                let table = try replica.load(status: { status in reports.statuses.withLock { $0.append(status) } })
                reports.ended.withLock { $0 = "copied \(preview.rows.count) then \(table.rowCount)" }
            } catch {
                reports.ended.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        // Reported for longer than the replica's timeout: it still waits, and says who holds the lock.
        try waitUntil("waits reported for 3 s") {
            guard case .some(.some(let wait)) = reports.waits.withLock({ $0.last }) else {
                return reports.ended.withLock { $0 } != nil
            }
            return -wait.since.timeIntervalSinceNow > 3
        }
        #expect(reports.ended.withLock { $0 } == nil, "the load waits for the lock")
        let wait = try #require(reports.waits.withLock { $0.first } ?? nil)
        #expect(wait.table == TableName(schema: "public", name: "t"))
        let holders = wait.holders.map { "\($0.pid) \($0.applicationName ?? "-") \($0.user ?? "-") \($0.holdsTheLock)" }
        #expect(holders == ["\(holder.backendPID) holder \(PostgresTestServer.superuser) true"])
        #expect(reports.statuses.withLock { $0 }.isEmpty, "no reconnecting while the lock is held")
        try holder.execute("COMMIT")
        try waitUntil("the load ended") { reports.ended.withLock { $0 } != nil }
        #expect(reports.ended.withLock { $0 } == "copied 2 then 2")
        #expect(reports.waits.withLock { $0.last } == .some(nil), "told once the lock was had")
    }

    @Test func aCancelEndsAWaitForALockAtOnceAndLeavesNoStatementWaiting() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a')")
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "t"),
            cacheDirectory: try makeCacheDirectory(),
            applicationName: "copier"
        )
        let reports = Reports()
        replica.lockWaitHandler = { wait in reports.waits.withLock { $0.append(wait) } }
        let holder = try database.connect(applicationName: "holder")
        try holder.execute("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let thread = Thread {
            do {
                _ = try replica.load()
                reports.ended.withLock { $0 = "copied" }
            } catch {
                reports.ended.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        try waitUntil("a wait reported") { !reports.waits.withLock { $0 }.isEmpty }
        replica.cancelLoad()
        try waitUntil("the load ended") { reports.ended.withLock { $0 } != nil }
        #expect(reports.ended.withLock { $0 } != "copied")
        // The other tests run meanwhile, in databases of their own.
        let left = try database.psql(
            """
            SELECT query FROM pg_stat_activity
            WHERE application_name = 'copier' AND state = 'active' AND datname = current_database()
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(left == "", "\(left) \(reports.ended.withLock { $0 } ?? "")")
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
