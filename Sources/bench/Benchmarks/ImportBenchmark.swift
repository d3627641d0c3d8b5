import Foundation
import SQLiteStore

/// `failedbanks import` of the generated CSV into an empty store, beside the
/// `sqlite3` shell's `.import` of the same file into a plain table.
///
/// Both are child processes timed from spawn to reap, interleaved run by
/// run so that a noisy neighbour hurts both alike. The peak resident set of
/// our import comes from `wait4`'s `ru_maxrss`, the kernel's figure for the
/// child (which, because `posix_spawn` uses `vfork`, is at least this
/// process's own peak: kept small here, and noted when it could matter).
/// The last import's store becomes the store of the later groups. Keys:
/// `import_s`, `sqlite_import_s`, `import_ratio`, `import_peak_rss_mb`.
struct ImportBenchmark {
    let runner: BenchRunner

    func run() throws {
        let csv = try runner.csv()
        guard let sqlite3 = ChildProcess.which("sqlite3") else {
            runner.results.note("import: the sqlite3 shell is not installed (apt-get install sqlite3); no reference")
            return try measure(csv: csv, sqlite3: nil)
        }
        try measure(csv: csv, sqlite3: sqlite3)
    }

    private func measure(csv: String, sqlite3: String?) throws {
        // Warm the page cache with the file so the first run does not pay for the disk.
        runner.workspace.warm(csv)
        // posix_spawn uses vfork: the kernel counts this process's peak in each
        // child's ru_maxrss, so a child's figure is max(ours, its own).
        let benchPeak = ProcessMemory.peakResidentKilobytes() ?? 0
        let runs = runner.configuration.runs(small: 5, large: 5)
        var ours: [Double] = []
        var theirs: [Double] = []
        var oursCPU: [Double] = []
        var theirsCPU: [Double] = []
        var peak = 0
        var lastStore: String?
        var failure: String?
        for index in 0...runs {  // index 0 is the warm-up
            var lastOurs: Double?
            var lastTheirs: Double?
            if let sqlite3, let result = try runner.sqliteImport(sqlite3, csv: csv, table: "t", group: "import") {
                lastTheirs = result.seconds
                if index > 0 {
                    theirs.append(result.seconds)
                    theirsCPU.append(result.cpuSeconds)
                }
            }
            if failure == nil {
                let db = runner.workspace.path("import-\(index).sqlite")
                runner.workspace.removeDatabase(db)
                let result = try ChildProcess.run(
                    runner.failedbanksCommand(["import", csv, "--db", db]),
                    captureOutput: true
                )
                if result.succeeded {
                    lastOurs = result.seconds
                    if index > 0 {
                        ours.append(result.seconds)
                        oursCPU.append(result.cpuSeconds)
                        peak = max(peak, result.peakResidentKilobytes)
                    }
                    if let lastStore { runner.workspace.removeDatabase(lastStore) }
                    lastStore = db
                } else {
                    runner.workspace.removeDatabase(db)
                    failure =
                        "failedbanks import failed (status \(result.status)): \(runner.lastLine(result.errorOutput + result.output))"
                }
            }
            runner.log(
                "import run \(index == 0 ? "warm-up" : String(index)): ours \(lastOurs.map { String(format: "%.2f s", $0) } ?? "-"), sqlite3 \(lastTheirs.map { String(format: "%.2f s", $0) } ?? "-")"
            )
        }
        runner.results.setMedian("sqlite_import_s", of: theirs)
        if let failure {
            runner.results.note("import: \(failure)")
            return
        }
        runner.results.setMedian("import_s", of: ours)
        runner.results.runs["import_peak_rss_mb"] = ours.count
        if peak > 0 { runner.results["import_peak_rss_mb"] = Double(peak) / 1024 }
        if peak > 0 && peak <= benchPeak {
            runner.results.note(
                String(
                    format: "import: peak RSS %.1f MB is bench's own peak (inherited through vfork), an upper bound",
                    Double(peak) / 1024
                )
            )
        }
        runner.results.setRatio("import_ratio", "import_s", "sqlite_import_s")
        if let a = Statistics.median(oursCPU), let b = Statistics.median(theirsCPU) {
            if b > 0 { runner.results["import_cpu_ratio"] = a / b }
            runner.results.note(
                String(format: "import: CPU time (user + system, median) ours %.2f s, sqlite3 %.2f s", a, b)
            )
        }
        if let lastStore {
            let count = try ImportBenchmark.bankCount(lastStore)
            if count != runner.configuration.rows {
                runner.results.note("import: the store holds \(count) banks, not \(runner.configuration.rows)")
            }
            runner.adoptStore(lastStore)
        }
    }

    /// Rows of `failed_bank_info` (the connection is closed on return).
    static func bankCount(_ path: String) throws -> Int {
        var options = Database.Options()
        options.readOnly = true
        let database = try Database(path: path, options: options)
        return Int(try database.scalar("SELECT count(*) FROM failed_bank_info").int64 ?? 0)
    }
}
