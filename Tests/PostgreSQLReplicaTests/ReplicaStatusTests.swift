import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

/// A follower says why the list stopped: a table whose columns changed on the server (a
/// column renamed or added) is `.tableChanged`, to be copied again — not a reconnect that never
/// ends; a server that answers no (SELECT revoked) is `.refused` with what to do; a server that
/// does not answer is `.reconnecting` with its last error.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaStatusTests {
    static func replica(_ database: ReplicaTestDatabase, uri: String? = nil) throws -> PostgresReplica {
        PostgresReplica(
            connectionString: uri ?? database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory(),
            applicationName: "status-tests",
            timeout: 5,
            timeZone: "UTC"
        )
    }

    static let schema = """
        CREATE TABLE events (id int PRIMARY KEY, level text, message text);
        INSERT INTO events SELECT n, 'info', 'event ' || n FROM generate_series(1, 20) AS n;
        """

    @Test(arguments: [true, false])
    func aColumnRenamedOnTheServerIsATableChangeNotAReconnect(track: Bool) throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let replica = try Self.replica(database)
        if track { try replica.installTracking() }
        _ = try replica.load()
        let log = FollowerLog()
        replica.follow(track: track, status: { log.record($0) })
        defer { replica.stop() }
        try database.psql(
            "ALTER TABLE events RENAME COLUMN message TO text; INSERT INTO events VALUES (21, 'warn', 'x')"
        )
        let changed = eventually(seconds: 30) {
            log.allStatuses.contains { if case .tableChanged = $0 { true } else { false } }
        }
        #expect(changed, "\(log.allStatuses)")
        let reason = log.allStatuses.compactMap { if case .tableChanged(let reason) = $0 { reason } else { nil } }.first
        #expect(reason == "the column message of public.events was renamed text")
    }

    @Test func aColumnAddedOnTheServerIsATableChange() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let replica = try Self.replica(database)
        _ = try replica.load()
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) })
        defer { replica.stop() }
        try database.psql("ALTER TABLE events ADD COLUMN host text")
        #expect(
            eventually(seconds: 30) {
                log.allStatuses.contains {
                    $0 == .tableChanged(reason: "the columns of public.events changed: host added")
                }
            },
            "\(log.allStatuses)"
        )
    }

    @Test func selectRevokedIsARefusalThatSaysWhatToDo() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let role = "reader_\(database.name)"
        try database.psql("CREATE ROLE \(role) LOGIN; GRANT SELECT ON events TO \(role)")
        let replica = try Self.replica(database, uri: database.server.uri(database: database.name, user: role))
        _ = try replica.load()
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) })
        defer { replica.stop() }
        try database.psql("REVOKE SELECT ON events FROM \(role); INSERT INTO events VALUES (21, 'warn', 'x')")
        let refused = eventually(seconds: 30) {
            log.allStatuses.contains { if case .refused = $0 { true } else { false } }
        }
        #expect(refused, "\(log.allStatuses)")
        let said =
            log.allStatuses.compactMap { status -> String? in
                if case .refused(_, let reason, let advice) = status { "\(reason) — \(advice)" } else { nil }
            }.first ?? ""
        #expect(said.contains("permission denied for table events"), "\(said)")
        #expect(said.contains("GRANT SELECT ON public.events"), "\(said)")
        #expect(!log.reconnected, "a refusal is no reconnect: \(log.allStatuses)")
    }
}
