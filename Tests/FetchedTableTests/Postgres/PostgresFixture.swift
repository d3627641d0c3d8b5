import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

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

    /// A database on `server` (the test process's shared one by default: a test that stops,
    /// freezes or restarts its server passes one of its own).
    init(server: PostgresTestServer? = nil) throws {
        self.server = try server ?? PostgresTestServer.shared()
        database = try self.server.makeDatabase()
        directory = TemporaryDirectory.create("pgface")
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
        try server.psql(sql, database: database, user: user).trimmingCharacters(in: .whitespacesAndNewlines)
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

    /// Starts `fetchedtable arguments` in a new tmux server (`extra` in its environment); the
    /// shell around it records the exit status in `exit.txt`. Its stderr goes to `app.stderr`,
    /// or with `standardErrorToTerminal` to the terminal, as when a person runs it: whatever it
    /// writes there lands on the screen.
    func launch(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        width: Int = 80,
        height: Int = 24,
        standardErrorToTerminal: Bool = false
    ) throws -> TmuxSession {
        guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
        let script = directory.appendingPathComponent("run-\(UUID().uuidString.prefix(6)).sh")
        let quoted = ([binary] + arguments).map(TableFixture.shellQuote).joined(separator: " ")
        let text = """
            #!/bin/sh
            cd \(TableFixture.shellQuote(directory.path))
            rm -f exit.txt
            \(quoted)\(standardErrorToTerminal ? "" : " 2> app.stderr")
            echo "$?" > exit.txt
            printf '\\nEXITED\\n'
            exec sleep 3600

            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        return try TmuxSession(
            command: ["/bin/sh", script.path],
            width: width,
            height: height,
            environment: environment.merging(extra) { $1 }
        )
    }

    /// `fetchedtable watch arguments` in the background, its stdout into a file; returns its pid.
    func startWatch(_ arguments: [String]) throws -> (pid: Int32, output: URL) {
        guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
        let output = directory.appendingPathComponent("watch-\(UUID().uuidString.prefix(6)).jsonl")
        let pidFile = directory.appendingPathComponent("watch.pid")
        let command = ([binary, "watch"] + arguments).map(TableFixture.shellQuote).joined(separator: " ")
        let variables = environment.map { "\($0.key)=\(TableFixture.shellQuote($0.value))" }.joined(separator: " ")
        let q = TableFixture.shellQuote
        // Detached: Foundation's Process would wait for the background program (and hand it a blocked SIGTERM).
        _ = try ProcessRunner.runDetaching(
            "/bin/sh",
            [
                "-c",
                "(env \(variables) \(command) > \(q(output.path)) 2>\(q(output.path + ".stderr")) < /dev/null & echo $! > \(q(pidFile.path)))",
            ]
        )
        let pid = Int32(
            try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        guard let pid else { throw EndToEndError("watch did not start") }
        return (pid, output)
    }

    /// The lines written to `output` so far.
    func lines(_ output: URL) -> [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Polls `condition` until it holds (``generousDeadline`` at most).
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(generousDeadline)
        while !((try? condition()) ?? false) {
            if Date() > deadline { throw EndToEndError("timed out waiting for \(what)") }
            usleep(30_000)
        }
    }

    /// The exit status the pane's shell recorded, once it has.
    func exitStatus() -> Int32? {
        let file = directory.appendingPathComponent("exit.txt").path
        var status: Int32?
        try? waitUntil("the exit status") {
            status = (try? String(contentsOfFile: file, encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        return status
    }
}
