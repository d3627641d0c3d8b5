import Foundation
import TestSupport

/// A database of its own on the test process's throwaway PostgreSQL server, and the built
/// `fetchedtable` run against it: with a URL, or with `--pg` and libpq's environment
/// (``pgEnvironment``). HOME is a temporary folder (no `~/.pgpass` of the machine's).
///
///     let fixture = try PostgresFixture()
///     defer { fixture.remove() }
///     try fixture.psql("CREATE TABLE t (id int PRIMARY KEY)")
///     let result = try fixture.run(["list", fixture.uri, "--table", "t"])
final class PostgresFixture {
    /// Why these tests cannot run here, or nil when they can.
    static let unavailableReason: String? = {
        if let reason = TableFixture.unavailableReason { return reason }
        if !PostgresTestServer.isAvailable { return "no PostgreSQL server binaries (Debian's postgresql package)" }
        return nil
    }()
    static var isAvailable: Bool { unavailableReason == nil }
    static var tmuxUnavailableReason: String? { unavailableReason ?? TableFixture.tmuxUnavailableReason }

    let server: PostgresTestServer
    /// The database's name.
    let database: String
    /// HOME and the cache of every run.
    let directory: URL

    init() throws {
        server = try PostgresTestServer.shared()
        database = try server.makeDatabase()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pgface-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The database's URL as `user` (the superuser by default), with `password` when given.
    func uri(user: String = PostgresTestServer.superuser, password: String? = nil) -> String {
        server.uri(database: database, user: user, password: password)
    }
    var uri: String { uri() }

    /// libpq's environment naming the database, as `--pg` reads it.
    func pgEnvironment(user: String = PostgresTestServer.superuser) -> [String: String] {
        [
            "PGHOST": server.socketDirectory, "PGPORT": String(server.port), "PGUSER": user, "PGDATABASE": database,
        ]
    }

    /// Runs SQL through `psql` as the superuser (or `user`).
    @discardableResult
    func psql(_ sql: String, user: String = PostgresTestServer.superuser) throws -> String {
        try server.psql(sql, database: database, user: user)
    }

    /// The environment of every run: a private HOME and cache, a UTF-8 locale, a terminal type, no PG variables.
    var environment: [String: String] {
        [
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen", "HOME": directory.path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path, "TZ": "UTC",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    /// Runs `fetchedtable arguments` to completion without a terminal, `extra` added to its environment.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
        guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
        return try ProcessRunner.run(binary, arguments, environment: environment.merging(extra) { $1 })
    }
}
