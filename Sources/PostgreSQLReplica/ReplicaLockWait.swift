import Foundation
import PostgreSQLClient

/// A load of a replica waiting for a lock another session holds on its table (`LOCK TABLE … IN
/// ACCESS EXCLUSIVE MODE`, an `ALTER TABLE`, `TRUNCATE`, `VACUUM FULL` in a transaction not yet
/// ended): what ``PostgresReplica/lockWaitHandler`` is told, each half second until the lock is
/// released, so that a person knows why nothing comes and who holds it.
///
///     replica.lockWaitHandler = { wait in
///         guard let wait, let holder = wait.holders.first else { return }
///         print("waiting for a lock on \(wait.table) held by pid \(holder.pid)")
///     }
public struct ReplicaLockWait: Hashable, Sendable {
    /// A session holding (or queued ahead for) a lock that keeps the table from being read.
    public struct Holder: Hashable, Sendable {
        /// Its server process (`pg_stat_activity.pid`).
        public let pid: Int32
        /// Its `application_name` (`psql`…), when it gave one and the role may read it.
        public let applicationName: String?
        /// The role it is connected as, when the role may read it.
        public let user: String?
        /// True: it holds the lock; false: it waits for it too, ahead of the load.
        public let holdsTheLock: Bool
    }

    /// The table waited for.
    public let table: TableName
    /// The sessions in the way, holders first; empty when the server did not say (a prepared
    /// transaction holds the lock, or one on a table the view reads).
    public let holders: [Holder]
    /// When the load began to wait.
    public let since: Date

    /// Milliseconds each try to take the lock waits (`lock_timeout`) before the sessions in the
    /// way are read again and reported: a load never has a statement waiting longer on the server.
    static let tryMilliseconds = 500

    /// Tries to take `table`'s `ACCESS SHARE` lock (what a read takes) within ``tryMilliseconds``,
    /// in a transaction of its own, then lets it go: false when another session holds a lock
    /// that keeps it from being read. True as well when the table cannot be locked to find out
    /// (not a table or view, no privilege, no such table): its statements say why themselves.
    ///
    /// - Throws: the connection's failures, and a cancel (SQLSTATE `57014`).
    static func tryLock(_ table: TableName, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        do {
            try connection.transaction {
                try connection.execute(
                    "SET LOCAL lock_timeout = \(tryMilliseconds); LOCK TABLE \(table.quoted) IN ACCESS SHARE MODE"
                )
            }
            return true
        } catch PostgresError.statementFailed(let state, _, _) where state == "55P03" {
            return false
        } catch PostgresError.statementFailed(let state, _, _) where !state.hasPrefix("57") && !state.hasPrefix("08") {
            return true
        } catch let error as PostgresError {
            throw error
        } catch {
            return true
        }
    }

    /// The sessions holding, or queued for, an `ACCESS EXCLUSIVE` lock on `table` (or a table
    /// the view reads): the only mode that keeps a read waiting. `pg_locks` and
    /// `pg_stat_activity` are readable by any role; what it may not see comes back NULL.
    static func holders(of table: TableName, on connection: PostgresConnection) throws(PostgresError) -> [Holder] {
        let result = try connection.query(
            """
            WITH relations AS (
                SELECT to_regclass($1) AS oid
                UNION
                SELECT d.refobjid FROM pg_rewrite r
                JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
                    AND d.refclassid = 'pg_class'::regclass
                WHERE r.ev_class = to_regclass($1)
            )
            SELECT l.pid, a.application_name, a.usename, bool_or(l.granted)
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'relation' AND l.mode = 'AccessExclusiveLock'
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND l.relation IN (SELECT oid FROM relations) AND l.pid <> pg_backend_pid()
            GROUP BY l.pid, a.application_name, a.usename
            ORDER BY bool_or(l.granted) DESC, l.pid
            """,
            [table.quoted]
        )
        return (0..<result.rowCount).map { row in
            Holder(
                pid: Int32(result.int64(row: row, column: 0) ?? 0),
                applicationName: result.text(row: row, column: 1).flatMap { $0.isEmpty ? nil : $0 },
                user: result.text(row: row, column: 2),
                holdsTheLock: result.text(row: row, column: 3) == "t"
            )
        }
    }
}
