import CLIKit
import Foundation

/// What one `bench` run measures, parsed from its command line.
///
///     let configuration = try BenchConfiguration(arguments: ["--rows", "10000", "--only", "import,fetch"])
struct BenchConfiguration {
    /// The measurement groups, in the order they run; `--only` takes these names.
    enum Group: String, CaseIterable {
        case `import`, fetch, change, rss, frame, scroll, app, visidata
        /// `fetchedtable` over data no app made: at 10 million rows when named in `--only` (or with `--table-rows`), else at `--rows`.
        case generic
        /// `fetchedtable --pg` over a throwaway PostgreSQL server: at 1 million rows when named in `--only`, else at `--rows`.
        case postgres
        /// `mystash import` of an export the stash already holds: at 100,000 entries when named in
        /// `--only` or in a large run, else at `--rows`.
        case stash
        /// `fetchedtable --query` over the `generic` group's events and services: a join of `--rows` rows.
        case query

        /// Groups whose keys are their own (not the app groups' `BenchResults.keys`).
        var hasOwnKeys: Bool { [.generic, .postgres, .stash, .query].contains(self) }

        /// Groups that need the generated store on disk.
        var needsStore: Bool { [.fetch, .change, .rss, .app].contains(self) }

        /// The groups of a run without `--only`.
        static var defaults: [Self] { allCases }
    }

    var rows = 1_000_000
    var jsonPath: String?
    var groups: [Group] = Group.defaults
    /// Keep the temporary folder (CSV and stores) for inspection.
    var keep = false
    /// Run the `failedbanks` program at this path instead of the one beside `bench`.
    var failedbanksPath: String?
    /// Multiplies every run count (0.5 for a quick look, 2 for a steadier one).
    var runScale = 1.0
    /// Exit with status 70 when a figure could not be measured (for CI: the program must not rot).
    var strict = false
    /// `generic`: rows of the events table (the CSV has a tenth of them): `--table-rows`, else
    /// 10 million when `--only` names the group (the full run), else `--rows` (so that a quick
    /// run stays quick).
    var tableRows: Int { explicitTableRows ?? (genericNamed ? 10_000_000 : rows) }
    private var explicitTableRows: Int?
    /// Whether `--only` named the `generic` group (or one of its keys).
    private var genericNamed = false
    /// `generic`: whether `--only` named nothing of the group but its CSV keys
    /// (`csv1m_first_screen_s`, `csv1m_ready_ratio`): only the CSV part runs, without the 10M table.
    private(set) var genericCSVOnly = false
    /// `--only edit_cell_ms`: the generic group's cell edit part alone (``EditCellBenchmark``).
    private(set) var genericEditOnly = false
    /// `--only pgquery1m_ready_ratio`: the postgres group's query part alone (``PostgresQueryBenchmark``).
    private(set) var postgresQueryOnly = false
    /// `postgres`: rows of the server's events table: 1 million when `--only` names the group and
    /// `--rows` is not given, else `--rows` (`--rows 20000 --only postgres`: a quick look).
    var postgresRows: Int { postgresNamed && !rowsGiven ? 1_000_000 : rows }
    /// Whether `--rows` was given.
    private var rowsGiven = false
    /// Whether `--only` named the `postgres` group (or one of its keys).
    private var postgresNamed = false
    /// `stash`: entries of the stash re-imported: 100,000 when `--only` names the group or the run is large, else `--rows`.
    var stashEntries: Int { stashNamed || isLarge ? 100_000 : rows }
    /// Whether `--only` named the `stash` group (or its key).
    private var stashNamed = false
    /// `generic`: where the events database and CSV are kept between runs.
    var cacheDirectory: String?
    /// `generic`: the `fetchedtable` program to measure (default: beside `bench`).
    var fetchedtablePath: String?
    /// `--binaries DIR`: the folder the measured `failedbanks` and `fetchedtable` come from (the
    /// installed package's `/usr/bin`, or a staging root whose `usr/bin` holds them);
    /// `--failedbanks` and `--fetchedtable` still name one program each.
    var binariesDirectory: String?

    static let spec = CommandSpec(
        name: "bench",
        summary:
            "Measure every speed and memory target of the project side by side, with the references measured in the same run.",
        usage: "[--rows N] [--json PATH] [--only NAME,…] [--keep] [--strict] [--run-scale X] [--binaries DIR]",
        options: [
            OptionSpec("--rows", value: "N", help: "rows of generated data (default 1000000; CI uses 10000)"),
            OptionSpec("--json", value: "PATH", help: "also write the figures as one JSON object"),
            OptionSpec(
                "--only",
                value: "NAME,…",
                help: "run only these groups: " + Group.allCases.map(\.rawValue).joined(separator: ", ")
            ),
            OptionSpec("--keep", value: nil, help: "keep the temporary folder with the CSV and the stores"),
            OptionSpec(
                "--failedbanks",
                value: "PATH",
                help: "the failedbanks executable to measure (default: beside bench, else bench itself)"
            ),
            OptionSpec(
                "--binaries",
                value: "DIR",
                help:
                    "measure the failedbanks and fetchedtable in DIR (or DIR/usr/bin): e.g. /usr/bin after installing the package"
            ),
            OptionSpec("--run-scale", value: "X", help: "multiply the number of timed runs (default 1)"),
            OptionSpec("--strict", value: nil, help: "exit with status 70 when any figure could not be measured"),
            OptionSpec(
                "--table-rows",
                value: "N",
                help:
                    "generic: rows of the events table (default 10000000 with --only generic, else --rows; the CSV has N/10)"
            ),
            OptionSpec(
                "--cache",
                value: "DIR",
                help: "generic: where its data are kept between runs (default ~/.cache/fetchedtable-bench)"
            ),
            OptionSpec(
                "--fetchedtable",
                value: "PATH",
                help: "generic: the fetchedtable executable to measure (default: beside bench)"
            ),
        ],
        epilogue: """
            Run it in release: swift run -c release bench --rows 1000000 --json out.json
            bench --compare BEFORE.json AFTER.json prints each shared key's change and exits 1
            when a ratio (_ratio, _speedup) got more than 10 % worse.
            Internal: 'bench --child failedbanks ARGS…', '--child fetch-rss --db PATH',
            '--child scroll-tty' are the child processes bench starts for isolated measurements.
            """
    )

    init() {}

    init(arguments: [String]) throws {
        let parsed = try parseArguments(arguments, spec: BenchConfiguration.spec)
        if let text = parsed.value("--rows") {
            guard let n = Int(text.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")),
                n >= 100
            else {
                throw CommandLineError.usage("bench: --rows must be a whole number ≥ 100 (got '\(text)')")
            }
            rows = n
            rowsGiven = true
        }
        jsonPath = parsed.value("--json")
        if let only = parsed.value("--only") {
            var chosen: [Group] = []
            for name in only.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty
            {
                guard let group = Group(rawValue: name) ?? Group.containing(key: name) else {
                    throw CommandLineError.usage(
                        "bench: unknown group '\(name)' for --only (groups: \(Group.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                if !chosen.contains(group) { chosen.append(group) }
            }
            groups = Group.allCases.filter(chosen.contains)
            genericNamed = chosen.contains(.generic)
            let names = Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            let genericNames = names.filter { Group(rawValue: $0) == .generic || Group.containing(key: $0) == .generic }
            genericCSVOnly = !genericNames.isEmpty && genericNames.allSatisfy(BenchResults.csvKeys.contains)
            genericEditOnly = !genericNames.isEmpty && genericNames.allSatisfy(BenchResults.editKeys.contains)
            postgresNamed = chosen.contains(.postgres)
            let postgresNames = names.filter {
                Group(rawValue: $0) == .postgres || Group.containing(key: $0) == .postgres
            }
            postgresQueryOnly =
                !postgresNames.isEmpty && postgresNames.allSatisfy(BenchResults.postgresQueryKeys.contains)
            stashNamed = chosen.contains(.stash)
        }
        if let text = parsed.value("--table-rows") {
            guard let n = Int(text.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")),
                n >= 1000
            else {
                throw CommandLineError.usage("bench: --table-rows must be a whole number ≥ 1000 (got '\(text)')")
            }
            explicitTableRows = n
        }
        cacheDirectory = parsed.value("--cache")
        if let directory = parsed.value("--binaries") {
            binariesDirectory = try Self.programsDirectory(directory)
        }
        fetchedtablePath = parsed.value("--fetchedtable") ?? binariesDirectory.map { $0 + "/fetchedtable" }
        keep = parsed.flag("--keep")
        strict = parsed.flag("--strict")
        failedbanksPath = parsed.value("--failedbanks") ?? binariesDirectory.map { $0 + "/failedbanks" }
        if let text = parsed.value("--run-scale") {
            guard let x = Double(text), x > 0 else {
                throw CommandLineError.usage("bench: --run-scale must be a positive number (got '\(text)')")
            }
            runScale = x
        }
    }

    /// The folder of `--binaries DIR`: DIR when both measured programs are there, else DIR/usr/bin
    /// (a package's staging root); a usage error naming the folder and the missing program otherwise.
    static func programsDirectory(_ directory: String) throws -> String {
        let programs = ["failedbanks", "fetchedtable"]
        let holdsBoth = { (folder: String) in programs.allSatisfy { access(folder + "/" + $0, X_OK) == 0 } }
        for candidate in [directory, directory + "/usr/bin"] where holdsBoth(candidate) { return candidate }
        let missing = programs.filter { access(directory + "/" + $0, X_OK) != 0 }
        throw CommandLineError.usage(
            "bench: --binaries \(directory): no executable \(missing.joined(separator: " or ")) there (nor in its usr/bin)"
        )
    }

    /// Timed runs for a measurement: `cheap` on small data, `expensive` at a million rows, scaled by `--run-scale`.
    func runs(small: Int, large: Int) -> Int {
        let base = rows >= 200_000 ? large : small
        return max(1, Int((Double(base) * runScale).rounded()))
    }

    var isLarge: Bool { rows >= 200_000 }
}

extension BenchConfiguration.Group {
    /// The group that produces a JSON key (so `--only fetch_rss_mb` works too).
    static func containing(key: String) -> Self? {
        switch key {
        case "import_s", "sqlite_import_s", "import_ratio", "import_cpu_ratio", "import_peak_rss_mb": return .import
        case "fetch_s", "raw_query_s", "fetch_ratio", "fetch_cached_s", "cache_ratio": return .fetch
        case "change1_ms", "first_change_after_fetch_ms", "change1000_ms", "refetch_diff1_ms", "refetch_diff1000_ms",
            "change1_speedup", "change1000_speedup":
            return .change
        case "fetch_rss_mb": return .rss
        case "frame_1m_ms", "frame_100_ms", "frame_ratio", "grid_frame_ms", "grid_hscroll_ms", "post_to_frame_ms":
            return .frame
        case "scroll_bytes": return .scroll
        case "first_screen_s", "page_down_ms": return .app
        case _ where BenchResults.genericKeys.contains(key): return .generic
        case _ where BenchResults.postgresKeys.contains(key): return .postgres
        case _ where BenchResults.stashKeys.contains(key): return .stash
        case _ where BenchResults.queryKeys.contains(key): return .query
        default: return nil
        }
    }
}
