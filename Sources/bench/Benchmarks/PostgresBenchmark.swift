import Foundation
import PostgreSQLClient
import TestSupport
import Timekeeping

/// The PostgreSQL group, `bench --only postgres`: `fetchedtable` over a
/// server table, on a throwaway server of its own.
///
/// The server is the tests' (``PostgresTestServer``): Debian's binaries,
/// `initdb` into a temporary folder (as the `postgres` user when bench runs
/// as root), listening only on a Unix socket there, `fsync=off`; stopped and
/// removed at the end. Its database holds
/// `events(id bigserial PRIMARY KEY, ts timestamptz, level text, service text, message text)`
/// with 1,000,000 rows made on the server by `generate_series` (``PostgresEvents``)
/// and an index on `ts`, and `events_small`, the first 1,000 rows of the same.
/// Each part is measured by its own type:
///
/// - ``PostgresScreenBenchmark``: `pg1m_first_screen_s`, `pg1m_ready_ratio` and
///   `pg1m_rss_bytes_per_row`, through the `fetchedtable` executable under a pty;
/// - ``PostgresChangeBenchmark``: `pg_change1_ms` and `pg_change1000_ms`, through
///   `fetchedtable watch --track`;
/// - ``PostgresQueryBenchmark``: `pgquery1m_ready_ratio`, through `fetchedtable --pg --query`
///   (`--only pgquery1m_ready_ratio`: this part alone).
///
/// Without the server binaries every key is `null`, with a note. Run alone
/// (`--only postgres`) the table has a million rows unless `--rows` is given;
/// in a run of every group it follows `--rows`.
struct PostgresBenchmark {
    let runner: BenchRunner

    var rows: Int { runner.configuration.postgresRows }

    func run() throws {
        guard PostgresTestServer.isAvailable else {
            throw BenchError.missing(
                "postgres: no PostgreSQL server binaries (Debian's postgresql in /usr/lib/postgresql/<version>/bin); its keys are null"
            )
        }
        let (startSeconds, server) = try MonotonicClock.measure { try PostgresTestServer() }
        defer { server.close() }
        runner.log(String(format: "postgres: throwaway server in %@ started in %.1f s", server.directory, startSeconds))
        let database = try server.makeDatabase()
        let (loadSeconds, _) = try MonotonicClock.measure {
            try server.psql(PostgresEvents.script(table: "events", rows: rows), database: database)
            try server.psql(
                PostgresEvents.script(table: "events_small", rows: PostgresEvents.smallRows),
                database: database
            )
        }
        runner.log(String(format: "postgres: made events (%d rows) and events_small in %.1f s", rows, loadSeconds))
        if rows != 1_000_000 {
            runner.results.note("postgres: \(rows) rows in the table (the keys are named for 1M)")
        }
        let target = PostgresBenchTarget(server: server, database: database, command: fetchedtable(), runner: runner)
        if !runner.configuration.postgresQueryOnly {
            part("screen") { try PostgresScreenBenchmark(target: target, rows: rows).run() }
            part("change") { try PostgresChangeBenchmark(target: target, rows: rows).run() }
        }
        part("query") { try PostgresQueryBenchmark(target: target, rows: rows).run() }
    }

    /// Runs one part; its failure becomes a note and the others go on.
    private func part(_ name: String, _ body: () throws -> Void) {
        let started = MonotonicClock.seconds()
        do {
            try body()
        } catch {
            runner.results.note("postgres \(name): \(error)")
            runner.log("postgres \(name): \(error)")
        }
        runner.log(String(format: "postgres %@ done in %.1f s", name, MonotonicClock.seconds() - started))
    }

    /// The command line that runs `fetchedtable`: `--fetchedtable PATH`, else the
    /// executable beside `bench` when it was linked after the last change to the
    /// sources, else `bench --child fetchedtable` (the same `FetchedTableCommand`).
    private func fetchedtable() -> [String] {
        if let explicit = runner.configuration.fetchedtablePath { return [explicit] }
        let sibling = (runner.executablePath as NSString).deletingLastPathComponent + "/fetchedtable"
        if access(sibling, X_OK) == 0, let linked = runner.modificationTime(sibling),
            linked >= runner.newestSourceTime()
        {
            runner.log("postgres: measuring \(sibling)")
            return [sibling]
        }
        runner.log("postgres: no up-to-date fetchedtable beside bench; measuring 'bench --child fetchedtable'")
        return runner.childCommand("fetchedtable", [])
    }
}

/// The PostgreSQL group's server, database and program: what each of its parts needs.
struct PostgresBenchTarget {
    let server: PostgresTestServer
    let database: String
    /// The command line that runs `fetchedtable` (its arguments follow).
    let command: [String]
    let runner: BenchRunner

    /// libpq's environment for `fetchedtable --pg`: the socket folder, port, user and
    /// database; `TZ=UTC`, so `timestamptz` values read the same every run.
    var environment: [String: String] {
        [
            "PGHOST": server.socketDirectory, "PGPORT": String(server.port), "PGUSER": PostgresTestServer.superuser,
            "PGDATABASE": database, "TZ": "UTC", "TERM": "xterm-256color",
        ]
    }

    /// A connection of bench's own (the reference fetch, the other client's writes).
    func connect(applicationName: String) throws -> PostgresConnection {
        try PostgresConnection(
            server.uri(database: database),
            applicationName: applicationName,
            timeZone: "UTC",
            timeout: 60
        )
    }

    /// The `message` of the first row of `table` in the order `order` (a unique text: see ``PostgresEvents``).
    func message(of table: String, order: String) throws -> String {
        let result = try connect(applicationName: "bench").query(
            "SELECT message FROM \(table) ORDER BY \(order) LIMIT 1"
        )
        guard result.rowCount == 1, let text = result.text(row: 0, column: 0) else {
            throw BenchError.failed("postgres: \(table) is empty")
        }
        return text
    }

    /// `fetchedtable` with `arguments` over this database, as ``BenchRunner/start(_:)`` launches it:
    /// an 80×24 pseudo-terminal, an empty cache folder (nothing an earlier launch copied helps).
    func screen(_ arguments: [String]) -> ScreenLaunch {
        ScreenLaunch(command: command + arguments, environment: environment)
    }

    /// Starts ``screen(_:)``.
    func launch(_ arguments: [String]) throws -> PseudoTerminal {
        try runner.start(screen(arguments))
    }
}
