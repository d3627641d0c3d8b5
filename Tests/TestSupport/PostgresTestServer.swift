import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: Debian's binaries, a cluster made
/// by `initdb` in a temporary folder, listening only on a Unix socket in that
/// folder — never the system cluster, never a TCP port.
///
/// `initdb` refuses to run as root, so when the tests run as root (as CI does)
/// the cluster belongs to the `postgres` system user that Debian's package
/// creates, and every server program runs through `runuser`. The superuser of
/// the cluster is always `postgres`; local connections are trusted, except for
/// members of the role ``passwordRole``, who must give a password (SCRAM), so
/// a test can see authentication refused.
///
///     @Test(.enabled(if: PostgresTestServer.isAvailable)) func roundTrip() throws {
///         let server = try PostgresTestServer.shared()
///         let database = try server.makeDatabase()
///         try server.psql("CREATE TABLE t (id int PRIMARY KEY)", database: database)
///     }
///
/// ``shared()`` is one server for the whole test process (stopped and removed
/// when the process exits); a test that stops, suspends or restarts its server
/// makes its own with ``init()`` and calls ``close()`` at the end.
public final class PostgresTestServer: @unchecked Sendable {
    /// A failure to set up or drive the server, with the program's output.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The group role whose members authenticate with a password.
    public static let passwordRole = "password_login"
    /// The cluster's superuser.
    public static let superuser = "postgres"

    /// The folder of Debian's server binaries (`/usr/lib/postgresql/<version>/bin`,
    /// the newest version), or nil when none is installed.
    public static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let usable = versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
        return usable.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    /// Whether a throwaway server can be made here: the binaries exist and,
    /// as root, the `postgres` user exists to own the cluster.
    public static let isAvailable: Bool = {
        guard binaries != nil else { return false }
        if getuid() != 0 { return true }
        return getpwnam(superuser) != nil && runuser != nil
    }()

    /// `runuser` (util-linux), which root uses to run the server programs as `postgres`.
    private static let runuser: String? = {
        ProcessRunner.which("runuser")
            ?? ["/usr/sbin/runuser", "/sbin/runuser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The folder of the cluster, its socket and its log.
    public let directory: String
    /// The data directory (`directory/data`).
    public var dataDirectory: String { "\(directory)/data" }
    /// The folder holding the server's Unix socket (`host=` for libpq).
    public var socketDirectory: String { directory }
    /// The port number that names the socket file (no TCP port is opened).
    public let port: Int
    private let bin: String
    private var closed = false

    /// A connection URI for `database` as `user` (the superuser by default).
    public func uri(database: String = "postgres", user: String = superuser, password: String? = nil) -> String {
        let credentials = password.map { "\(user):\($0)" } ?? user
        let host = socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketDirectory
        return "postgresql://\(credentials)@\(host):\(port)/\(database)"
    }

    /// Makes a cluster and starts it (about a second).
    public init() throws {
        guard let bin = PostgresTestServer.binaries else { throw Failure("PostgreSQL server binaries not found") }
        self.bin = bin
        port = Int.random(in: 20_000...60_000)
        directory = try PostgresTestServer.makeDirectory()
        do {
            try startWatchdog()
            try initializeCluster()
            try start()
            try psql("CREATE ROLE \(PostgresTestServer.passwordRole) NOLOGIN")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    nonisolated(unsafe) private static var sharedServer: PostgresTestServer?
    private static let sharedLock = NSLock()

    /// One server for the whole test process, started on first use and
    /// stopped and removed when the process exits.
    public static func shared() throws -> PostgresTestServer {
        try sharedLock.withLock {
            if let sharedServer { return sharedServer }
            let server = try PostgresTestServer()
            sharedServer = server
            atexit { PostgresTestServer.sharedServer?.close() }
            return server
        }
    }

    nonisolated(unsafe) private static var databaseCounter = 0

    /// Creates an empty database of its own for one test and returns its name.
    public func makeDatabase() throws -> String {
        let n = PostgresTestServer.sharedLock.withLock {
            PostgresTestServer.databaseCounter += 1
            return PostgresTestServer.databaseCounter
        }
        let name = "test_\(n)"
        try psql("CREATE DATABASE \(name)")
        return name
    }

    /// Creates an empty database of its own in `encoding` (`LATIN1`, `WIN1252`, `SQL_ASCII`),
    /// from `template0` with the `C` locale — `createdb -E LATIN1 -T template0 --locale=C` —
    /// and returns its name.
    public func makeDatabase(encoding: String) throws -> String {
        let n = PostgresTestServer.sharedLock.withLock {
            PostgresTestServer.databaseCounter += 1
            return PostgresTestServer.databaseCounter
        }
        let name = "test_\(n)_\(encoding.lowercased())"
        try psql("CREATE DATABASE \(name) ENCODING '\(encoding)' TEMPLATE template0 LOCALE 'C'")
        return name
    }

    // MARK: Life cycle

    /// Starts the server (again) and waits until it accepts connections.
    public func start() throws {
        let options = [
            "-c listen_addresses=''", "-c unix_socket_directories='\(socketDirectory)'", "-c port=\(port)",
            // fsync off only matters if the machine crashes; commits stay synchronous so that
            // `pg_ctl stop -m immediate` loses nothing that was committed, as on a real server.
            "-c fsync=off", "-c full_page_writes=off",
        ].joined(separator: " ")
        try serverProgram(
            "pg_ctl",
            ["-D", dataDirectory, "-l", "\(directory)/server.log", "-w", "-o", options, "start"]
        )
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`): a crash, as far
    /// as clients can tell.
    public func stop() throws {
        try serverProgram("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
    }

    /// Freezes the server and every backend with SIGSTOP: connections stay
    /// open and nothing answers.
    public func suspend() throws { try signalServer(SIGSTOP) }

    /// Undoes ``suspend()`` with SIGCONT.
    public func resume() throws { try signalServer(SIGCONT) }

    /// Terminates the backends of every other connection whose
    /// `application_name` is `applicationName` (all of them when nil) and
    /// returns how many there were.
    @discardableResult
    public func terminateBackends(applicationName: String? = nil) throws -> Int {
        let filter = applicationName.map { "AND application_name = '\($0.replacingOccurrences(of: "'", with: "''"))'" }
        let output = try psql(
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' \(filter ?? "")
            """
        )
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Stops the server if it runs and removes its folder.
    public func close() {
        guard !closed else { return }
        closed = true
        try? resume()
        if FileManager.default.fileExists(atPath: "\(dataDirectory)/postmaster.pid") { try? stop() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Clients

    /// Runs SQL through `psql` as `user` (unaligned, tuples only, stopping at
    /// the first error) and returns what it printed.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", user: String = superuser) throws -> String {
        let result = try ProcessRunner.run(
            "\(bin)/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)", "-U", user,
                "-d", database, "-f", "-",
            ],
            input: sql,
            environment: clientEnvironment
        )
        guard result.status == 0 else { throw Failure("psql failed (\(result.status)): \(result.standardError)") }
        return result.standardOutput
    }

    /// The schema of `database` as `pg_dump --schema-only` prints it (without
    /// the `\restrict` fence lines, whose key is random).
    public func schemaDump(database: String) throws -> String {
        let result = try ProcessRunner.run(
            "\(bin)/pg_dump",
            ["--schema-only", "-h", socketDirectory, "-p", "\(port)", "-U", PostgresTestServer.superuser, database],
            environment: clientEnvironment
        )
        guard result.status == 0 else { throw Failure("pg_dump failed (\(result.status)): \(result.standardError)") }
        // Recent pg_dump versions fence the script with `\restrict <random key>` lines, new every run.
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ") }
            .joined(separator: "\n")
    }

    /// The environment for client programs: this process's, without any
    /// libpq variable that could point them elsewhere.
    private var clientEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
    }

    // MARK: Setup steps

    private static func makeDirectory() throws -> String {
        let path = TemporaryDirectory.create("pgtest").path
        chmod(path, 0o700)
        if getuid() == 0, let owner = getpwnam(superuser) {
            chown(path, owner.pointee.pw_uid, owner.pointee.pw_gid)
            // The folder above must let the postgres user through.
            var parent = (path as NSString).deletingLastPathComponent
            while parent != "/" && !parent.isEmpty {
                var info = stat()
                if stat(parent, &info) == 0 && info.st_mode & 0o001 == 0 {
                    throw Failure("\(parent) is not searchable by the \(superuser) user")
                }
                parent = (parent as NSString).deletingLastPathComponent
            }
        }
        return path
    }

    /// A detached shell that outlives a test process killed before it could
    /// clean up (a signal, a crash, a debugger's stop): once this process is
    /// gone it kills the server (SIGKILL works on a SIGSTOPped one too) and
    /// removes the folder.
    private func startWatchdog() throws {
        let script = """
            (while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
             pidfile='\(dataDirectory)/postmaster.pid'
             if [ -f "$pidfile" ]; then
                 postmaster=$(head -n 1 "$pidfile")
                 for stat in /proc/[0-9]*/stat; do
                     set -- $(cat "$stat" 2>/dev/null)
                     [ "$4" = "$postmaster" ] && kill -KILL "$1"
                 done
                 kill -KILL "$postmaster"
             fi
             rm -rf '\(directory)') >/dev/null 2>&1 &
            """
        let result = try ProcessRunner.runDetaching("/bin/sh", ["-c", script])
        guard result.status == 0 else { throw Failure("the watchdog did not start: \(result.standardOutput)") }
    }

    private func initializeCluster() throws {
        try serverProgram(
            "initdb",
            [
                "-D", dataDirectory, "-U", PostgresTestServer.superuser, "-A", "trust", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync", "--no-instructions",
            ]
        )
        let access = """
            local all +\(PostgresTestServer.passwordRole) scram-sha-256
            local all all trust

            """
        // Written in place: the file keeps its owner (postgres) when root writes it.
        try access.write(toFile: "\(dataDirectory)/pg_hba.conf", atomically: false, encoding: .utf8)
    }

    /// Runs one of the server's programs, as the `postgres` user when root.
    private func serverProgram(_ name: String, _ arguments: [String]) throws {
        let program = "\(bin)/\(name)"
        let result: ProcessResult
        if getuid() == 0 {
            result = try ProcessRunner.runDetaching(
                PostgresTestServer.runuser ?? "/usr/sbin/runuser",
                ["-u", PostgresTestServer.superuser, "--", program] + arguments
            )
        } else {
            result = try ProcessRunner.runDetaching(program, arguments)
        }
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
            throw Failure(
                "\(name) failed (\(result.status)): \(result.standardOutput)\(result.standardError)\n\(log.suffix(2000))"
            )
        }
    }

    /// Sends `signal` to the postmaster and to every process it started:
    /// each backend is a session of its own (it calls `setsid`), so there is
    /// no one process group to signal.
    private func signalServer(_ signal: Int32) throws {
        guard let text = try? String(contentsOfFile: "\(dataDirectory)/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first,
            let postmaster = pid_t(first.trimmingCharacters(in: .whitespaces))
        else { throw Failure("the server is not running") }
        let children = PostgresTestServer.children(of: postmaster)
        // Stopping: the postmaster first, so it starts nothing new; waking: it last.
        let order = signal == SIGCONT ? children + [postmaster] : [postmaster] + children
        for pid in order where kill(pid, signal) != 0 && errno != ESRCH {
            throw Failure("kill(\(pid), \(signal)) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// The processes whose parent is `parent`, from `/proc/<pid>/stat`.
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // pid (comm) state ppid …; comm may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == parent else { return nil }
            return pid
        }
    }
}
