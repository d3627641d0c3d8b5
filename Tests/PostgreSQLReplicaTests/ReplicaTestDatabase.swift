import Foundation
import PostgreSQLClient
import TestSupport

/// A database of its own on the process's shared throwaway server.
struct ReplicaTestDatabase {
    let server: PostgresTestServer
    let name: String

    init() throws {
        server = try PostgresTestServer.shared()
        name = try server.makeDatabase()
    }

    /// A database in `encoding` (`createdb -E LATIN1 -T template0 --locale=C`).
    init(encoding: String) throws {
        server = try PostgresTestServer.shared()
        name = try server.makeDatabase(encoding: encoding)
    }

    var uri: String { server.uri(database: name) }

    func connect(applicationName: String? = "tests") throws -> PostgresConnection {
        try PostgresConnection(uri, applicationName: applicationName, timeZone: "UTC", timeout: 10)
    }

    @discardableResult
    func psql(_ sql: String) throws -> String { try server.psql(sql, database: name) }
}

/// Whether a throwaway server can run here (Debian's `postgresql` binaries).
let serverAvailable = PostgresTestServer.isAvailable
