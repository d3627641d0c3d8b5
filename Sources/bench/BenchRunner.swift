import CLIKit
import CSVImport
import FailedBanksKit
import Foundation
import TestSupport
import Timekeeping

/// Runs the chosen measurement groups over one generated data set and
/// prints the table (and writes the JSON).
///
/// The CSV is generated once with the repository's seeded generator; the
/// store the controller and app groups read is the last import's output, so
/// every figure is about the same data.
///
///     let runner = try BenchRunner(configuration: BenchConfiguration())
///     exit(runner.run())
final class BenchRunner {
    let configuration: BenchConfiguration
    var results: BenchResults
    let workspace: Workspace
    /// This executable, for re-running itself as a child.
    let executablePath: String
    /// `BENCH_DEBUG=1`: print the frames, terminal output and byte streams behind the figures.
    static let debug = getenv("BENCH_DEBUG").map { String(cString: $0) != "" && String(cString: $0) != "0" } ?? false
    /// The seed of the generated list (fixed: same bytes every run).
    static let seed: UInt64 = 2024

    private var csvPath: String?
    private var storePath: String?

    init(configuration: BenchConfiguration) throws {
        self.configuration = configuration
        self.results = BenchResults(rows: configuration.rows)
        self.workspace = try Workspace()
        self.workspace.keep = configuration.keep
        self.executablePath =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
    }

    /// Runs every chosen group, prints the table, writes the JSON; returns the exit status.
    func run() -> Int32 {
        let started = MonotonicClock.seconds()
        let loadBefore = BenchRunner.loadAverage()
        log(
            "\(configuration.rows) rows; groups: \(configuration.groups.map(\.rawValue).joined(separator: ", ")); folder \(workspace.directory)"
        )
        for group in configuration.groups {
            let groupStart = MonotonicClock.seconds()
            do {
                try measure(group)
            } catch {
                results.note("\(group.rawValue): \(error)")
                log("\(group.rawValue): \(error)")
            }
            log(String(format: "%@ done in %.1f s", group.rawValue, MonotonicClock.seconds() - groupStart))
        }
        let report = Report(results: results, groups: configuration.groups)
        print("")
        print(report.table)
        for note in results.notes { print("- \(note)") }
        let summary = report.summary
        print(
            String(
                format: "\n%d targets met, %d missed, %d not measured; %d rows; total %.1f s",
                summary.met,
                summary.missed,
                summary.unmeasured,
                configuration.rows,
                MonotonicClock.seconds() - started
            )
        )
        print(
            "machine: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs; load average \(loadBefore) at start, \(BenchRunner.loadAverage()) at end"
        )
        if configuration.keep { print("kept \(workspace.directory)") }
        workspace.cleanUp()
        if let jsonPath = configuration.jsonPath {
            guard FileText.store(results.json(keys: jsonKeys), at: jsonPath) else {
                printError("cannot write \(jsonPath): \(String(cString: strerror(errno)))")
                return ExitStatus.cantCreate
            }
        }
        if configuration.strict {
            let missing = jsonKeys.filter { results[$0] == nil && groupRan(forKey: $0) }
            if !missing.isEmpty {
                printError("not measured: \(missing.joined(separator: ", "))")
                return ExitStatus.software
            }
        }
        return ExitStatus.ok
    }

    /// The keys of the JSON object: the app groups' when one of them ran (or none did), the `generic`
    /// and `postgres` groups' when they ran.
    private var jsonKeys: [String] {
        let generic = configuration.groups.contains(.generic)
        let postgres = configuration.groups.contains(.postgres)
        let stash = configuration.groups.contains(.stash)
        let query = configuration.groups.contains(.query)
        let others =
            configuration.groups.contains { !$0.hasOwnKeys } || !configuration.groups.contains(where: \.hasOwnKeys)
        return (others ? BenchResults.keys : []) + (generic ? BenchResults.genericKeys : [])
            + (postgres ? BenchResults.postgresKeys : []) + (stash ? BenchResults.stashKeys : [])
            + (query ? BenchResults.queryKeys : [])
    }

    /// Whether the group that produces `key` was chosen for this run.
    private func groupRan(forKey key: String) -> Bool {
        guard let group = BenchConfiguration.Group.containing(key: key) else { return true }
        return configuration.groups.contains(group)
    }

    private func measure(_ group: BenchConfiguration.Group) throws {
        switch group {
        case .import: try ImportBenchmark(runner: self).run()
        case .fetch: try FetchBenchmark(runner: self).run()
        case .change: try ChangeBenchmark(runner: self).run()
        case .rss: try FetchMemoryBenchmark(runner: self).run()
        case .frame:
            try FrameBenchmark(runner: self).run()
            try GridFrameBenchmark(runner: self).run()
            try PostToFrameBenchmark(runner: self).run()
        case .scroll: try ScrollBytesBenchmark(runner: self).run()
        case .app: try AppBenchmark(runner: self).run()
        case .visidata: try VisiDataBenchmark(runner: self).run()
        case .generic: try GenericBenchmark(runner: self).run()
        case .postgres: try PostgresBenchmark(runner: self).run()
        case .stash: try StashReimportBenchmark(runner: self).run()
        case .query: try QueryBenchmark(runner: self).run()
        }
    }

    // MARK: Shared data

    /// The generated CSV (made on first use).
    func csv() throws -> String {
        if let csvPath { return csvPath }
        let path = workspace.path("banks.csv")
        let (seconds, _) = try MonotonicClock.measure {
            try BankListGenerator(seed: BenchRunner.seed).write(rows: configuration.rows, to: path)
        }
        log(
            String(
                format: "generated %@ (%d rows, %.1f MB) in %.1f s",
                path,
                configuration.rows,
                Double(workspace.size(path)) / 1_048_576,
                seconds
            )
        )
        csvPath = path
        return path
    }

    /// The failedbanks store of the generated CSV: the import group's last
    /// output, or made here (untimed) when that group did not run.
    func store() throws -> String {
        if let storePath { return storePath }
        let path = workspace.path("big.sqlite")
        workspace.removeDatabase(path)
        let result = try ChildProcess.run(failedbanksCommand(["import", try csv(), "--db", path]), captureOutput: true)
        if result.succeeded {
            log(String(format: "built the store in %.1f s", result.seconds))
        } else {
            // Keep the other groups measurable while the command line is broken: the same importer, in-process.
            results.note(
                "store: 'failedbanks import' failed (status \(result.status): \(lastLine(result.errorOutput))); the store was built with BankImporter in-process"
            )
            workspace.removeDatabase(path)
            let (seconds, _) = try MonotonicClock.measure {
                try BankImporter(store: try FailedBankStore.open(path: path)).importFile(try csv())
            }
            log(String(format: "built the store in-process in %.1f s", seconds))
        }
        storePath = path
        return path
    }

    /// Adopts `path` as the store later groups read (the import group's output).
    func adoptStore(_ path: String) {
        let target = workspace.path("big.sqlite")
        if path != target {
            workspace.removeDatabase(target)
            for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                rename(path + suffix, target + suffix)
            }
        }
        storePath = target
    }

    // MARK: Programs

    /// The command line that runs `failedbanks` with `arguments`: the
    /// executable beside `bench` when it was linked after the last change to
    /// the package's sources (so it runs the same code), else `bench` itself
    /// running the same `FailedBanksCommand` as a child (`--child failedbanks`).
    func failedbanksCommand(_ arguments: [String]) -> [String] {
        [failedbanksProgram.path] + failedbanksProgram.prefix + arguments
    }

    private(set) lazy var failedbanksProgram: (path: String, prefix: [String]) = {
        if let explicit = configuration.failedbanksPath {
            log("measuring \(explicit)")
            return (explicit, [])
        }
        let sibling = (executablePath as NSString).deletingLastPathComponent + "/failedbanks"
        if access(sibling, X_OK) == 0, let siblingTime = modificationTime(sibling) {
            let sourcesTime = newestSourceTime()
            if siblingTime >= sourcesTime {
                log("measuring \(sibling)")
                return (sibling, [])
            }
            log("\(sibling) is older than the sources; measuring 'bench --child failedbanks' (same code as this bench)")
        } else {
            log("no failedbanks beside bench; measuring 'bench --child failedbanks' (same code as this bench)")
        }
        return (executablePath, ["--child", "failedbanks"])
    }()

    /// The newest modification time of the package's sources outside `Sources/bench`
    /// (the package root is found from this file's path at build time); 0 when not found.
    func newestSourceTime() -> Double {
        let sources = ((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        guard let enumerator = FileManager.default.enumerator(atPath: sources) else { return 0 }
        var newest = 0.0
        while let relative = enumerator.nextObject() as? String {
            if relative.hasPrefix("bench/") { continue }
            if let time = modificationTime(sources + "/" + relative) { newest = max(newest, time) }
        }
        return newest
    }

    /// This program re-executed as the named child.
    func childCommand(_ name: String, _ arguments: [String]) -> [String] {
        [executablePath, "--child", name] + arguments
    }

    func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// The 1, 5 and 15 minute load averages from `/proc/loadavg` (other people's work on a shared machine).
    static func loadAverage() -> String {
        guard let text = FileText.contents(of: "/proc/loadavg") else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    // MARK: Output

    /// A progress line on stderr (the table goes to stdout).
    func log(_ message: String) {
        writeStandardError("bench: \(message)\n")
    }

    /// The reference import: the `sqlite3` shell's `.import` of `csv` into table `table` of a new
    /// database, removed after it; what the shell says on failure is noted under `group`. The
    /// shell's process when it succeeded, nil otherwise.
    func sqliteImport(_ sqlite3: String, csv: String, table: String, group: String) throws -> ChildProcess.Result? {
        let db = workspace.path("\(group)-sqlite-import.db")
        workspace.removeDatabase(db)
        let result = try ChildProcess.run(
            [sqlite3, db, "-cmd", ".mode csv", ".import \(csv) \(table)"],
            captureOutput: true
        )
        workspace.removeDatabase(db)
        if !result.succeeded || !result.errorOutput.isEmpty {
            results.note("\(group): sqlite3 .import said: \(lastLine(result.errorOutput)) (status \(result.status))")
        }
        return result.succeeded ? result : nil
    }

    func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? "(no message)"
    }
}
