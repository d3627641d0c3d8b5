import Foundation
import PostgreSQLClient
import TestSupport
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct PostgresConnectionTests {
    @Test func connectsFromAURIAndSetsTheApplicationName() throws {
        let database = try TestDatabase()
        let connection = try database.connect(applicationName: "fetchedtable")
        let row = try connection.query("SELECT current_database(), current_setting('application_name')").rows[0]
        #expect(row == [.text(database.name), .text("fetchedtable")])
        #expect(connection.isConnected)
        #expect(connection.socket >= 0)
        #expect(connection.serverVersion >= 100_000)
    }

    @Test func uriParametersGoToLibpqUnchangedAndItsApplicationNameWins() throws {
        let database = try TestDatabase()
        let uri = database.uri + "?application_name=mine&connect_timeout=5&options=-c%20work_mem%3D7MB"
        let connection = try PostgresConnection(uri, applicationName: "fetchedtable")
        let row = try connection.query("SELECT current_setting('application_name'), current_setting('work_mem')").rows[
            0
        ]
        #expect(row == [.text("mine"), .text("7MB")])
    }

    @Test func connectsWithLibpqsEnvironmentAndPgpass() throws {
        let database = try TestDatabase()
        try database.psql(
            "CREATE ROLE alice LOGIN PASSWORD 'sésame s3cret' IN ROLE \(PostgresTestServer.passwordRole)"
        )
        let folder = TemporaryDirectory("pgpass")
        defer { folder.remove() }
        let passfile = folder.path("pgpass")
        try "*:*:\(database.name):alice:sésame s3cret\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        chmod(passfile, 0o600)
        // Only this test sets PG* variables; every other test names host, port, user and database in its URI.
        let variables = [
            "PGHOST": database.server.socketDirectory, "PGPORT": "\(database.server.port)", "PGUSER": "alice",
            "PGDATABASE": database.name, "PGPASSFILE": passfile,
        ]
        for (key, value) in variables { setenv(key, value, 1) }
        defer { for key in variables.keys { unsetenv(key) } }
        let connection = try PostgresConnection(nil, applicationName: "tests")
        let row = try connection.query("SELECT current_user, current_database()").rows[0]
        #expect(row == [.text("alice"), .text(database.name)])
    }

    @Test func aWrongPasswordIsAuthenticationRefusedAndNeverShown() throws {
        let database = try TestDatabase()
        try database.psql("CREATE ROLE bob LOGIN PASSWORD 'right' IN ROLE \(PostgresTestServer.passwordRole)")
        let uri = database.server.uri(database: database.name, user: "bob", password: "wr0ngSecret")
        #expect(ConnectionString.containsPassword(uri))
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(uri, timeout: 10) }
        guard case .authenticationRefused(let message) = error else {
            Issue.record("expected authenticationRefused, got \(error)")
            return
        }
        #expect(message.contains("password authentication failed for user \"bob\""))
        #expect(!message.contains("28P01"))
        #expect(!"\(error)".contains("wr0ngSecret"))
    }

    @Test func anUnknownRoleIsAuthenticationRefused() throws {
        let database = try TestDatabase()
        let uri = database.server.uri(database: database.name, user: "nobody")
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(uri, timeout: 10) }
        #expect(error == .authenticationRefused(message: error.message))
        #expect(error.message.contains("role \"nobody\" does not exist"))
    }

    @Test func nothingListeningIsCannotConnectWithLibpqsMessage() throws {
        let folder = TemporaryDirectory("nopg")
        defer { folder.remove() }
        let uri = "postgresql://carol:hunter2@%2F\(folder.path.dropFirst().replacing("/", with: "%2F")):5999/db"
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(uri, timeout: 10) }
        guard case .cannotConnect(let message) = error else {
            Issue.record("expected cannotConnect, got \(error)")
            return
        }
        #expect(message.contains("No such file or directory"))
        #expect(!message.contains("hunter2"))
    }

    @Test func parametersAreBoundNeverSpliced() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE note (id int PRIMARY KEY, body text)")
        let hostile = "x'); DROP TABLE note; --"
        try connection.query("INSERT INTO note VALUES ($1, $2)", ["1", hostile])
        try connection.query("INSERT INTO note VALUES ($1, $2)", ["2", nil])
        let rows = try connection.query("SELECT body FROM note ORDER BY id").rows
        #expect(rows == [[.text(hostile)], [.null]])
    }

    @Test func aRejectedStatementCarriesItsSQLState() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        let error = try #require(throws: PostgresError.self) { try connection.query("SELECT * FROM missing") }
        #expect(error.sqlState == "42P01")
        #expect(error.message.contains("relation \"missing\" does not exist"))
        // The connection stays usable.
        #expect(try connection.query("SELECT 1").rows == [[.integer(1)]])
    }

    @Test func aNotifyReachesAListeningConnection() throws {
        let database = try TestDatabase()
        let listener = try database.connect()
        try listener.listen("wake up")
        let sender = try database.connect()
        try sender.query("SELECT pg_notify('wake up', 'events')")
        var arrived: [PostgresNotification] = []
        while arrived.isEmpty { arrived = try listener.waitForNotifications(timeout: 10) }
        #expect(
            arrived.map { [$0.channel, $0.payload, "\($0.senderPID)"] } == [
                ["wake up", "events", "\(sender.backendPID)"]
            ]
        )
    }

    @Test func aRunningStatementCanBeCancelledFromAnotherThread() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        let canceller = try #require(connection.makeCanceller())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Keep asking until the statement is cancelled (a cancel before it starts is a no-op).
            while done.wait(timeout: .now() + 0.05) == .timedOut { canceller.cancel() }
        }
        let error = try #require(throws: PostgresError.self) { try connection.query("SELECT pg_sleep(30)") }
        done.signal()
        #expect(error.sqlState == "57014")
        #expect(try connection.query("SELECT 2").rows == [[.integer(2)]])
    }

    @Test func identifiersAreQuotedAsLibpqQuotesThem() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        for name in ["events", "Order", "a\"b", "sp ace", "ünï"] {
            #expect(connection.escapeIdentifier(name) == SQLIdentifier.quote(name))
        }
        #expect(SQLIdentifier.quote(schema: "public", name: "a\"b") == "\"public\".\"a\"\"b\"")
    }
}

extension PostgresError {
    var message: String {
        switch self {
        case .cannotConnect(let message), .authenticationRefused(let message), .connectionLost(let message): message
        case .statementFailed(_, let message, _): message
        case .timedOut: description
        }
    }
}
