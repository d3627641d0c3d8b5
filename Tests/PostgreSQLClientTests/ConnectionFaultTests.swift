import PostgreSQLChangeFeed
import PostgreSQLClient
import TestSupport
import Testing

/// Each test here has a server of its own: it stops, freezes or kills it.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ConnectionFaultTests {
    @Test func aFrozenServerTimesOutAStatementAndTheConnectionResetsAfterItWakes() throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let connection = try PostgresConnection(server.uri(), timeout: 10)
        try server.suspend()
        let error = try #require(throws: PostgresError.self) { try connection.query("SELECT 1", timeout: 0.3) }
        #expect(error == .timedOut(seconds: 0.3, sql: "SELECT 1"))
        #expect(!connection.isConnected)
        try server.resume()
        try connection.reset(timeout: 10)
        #expect(try connection.query("SELECT 1", timeout: 10).rows == [[.integer(1)]])
    }

    @Test func aTerminatedBackendIsConnectionLostAndResetReconnectsAndListensAgain() throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let connection = try PostgresConnection(server.uri(), applicationName: "victim", timeout: 10)
        try connection.listen("changes")
        let before = connection.backendPID
        #expect(try server.terminateBackends(applicationName: "victim") == 1)
        let error = try #require(throws: PostgresError.self) { try connection.query("SELECT 1", timeout: 10) }
        guard case .connectionLost = error else {
            Issue.record("expected connectionLost, got \(error)")
            return
        }
        try connection.reset(timeout: 10)
        #expect(connection.backendPID != before)
        try server.psql("NOTIFY changes, 'again'")
        var arrived: [PostgresNotification] = []
        while arrived.isEmpty { arrived = try connection.waitForNotifications(timeout: 10) }
        #expect(arrived.map(\.payload) == ["again"])
    }

    @Test func aRestartedServerIsReachedAgainByResetAndTheFeedLosesNothing() throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let connection = try PostgresConnection(server.uri(), timeout: 10)
        try connection.execute("CREATE TABLE t (id int PRIMARY KEY, v text)")
        let feed = ChangeFeed(table: TableName(schema: "public", name: "t"), keyColumns: ["id"])
        try feed.install(on: connection)
        let position = try feed.currentPosition(on: connection)
        try server.psql("INSERT INTO t SELECT n, 'before' FROM generate_series(1, 10) n")
        try server.stop()
        #expect(throws: PostgresError.self) { try connection.query("SELECT 1", timeout: 10) }
        #expect(throws: PostgresError.self) { try connection.reset(timeout: 10) }
        try server.start()
        try server.psql("INSERT INTO t SELECT n, 'after' FROM generate_series(11, 20) n")
        try connection.reset(timeout: 10)
        #expect(try connection.query("SELECT 3", timeout: 10).rows == [[.integer(3)]])
        let batch = try feed.read(after: position, on: connection)
        #expect(batch.changes.map(\.key) == (1...20).map { ["\($0)"] })
    }
}
