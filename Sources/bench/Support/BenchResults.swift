import Foundation

/// Every figure of one benchmark run, by its JSON key.
///
/// The keys and their order are the contract of `--json`; a figure
/// that could not be measured stays `nil` and is written as JSON `null`.
///
///     var results = BenchResults(rows: 10_000)
///     results["import_s"] = 1.25
///     print(results.json)
struct BenchResults {
    /// The JSON keys in the order they are written.
    static let keys = [
        "rows",
        "import_s", "sqlite_import_s", "import_ratio", "import_cpu_ratio", "import_peak_rss_mb",
        "fetch_s", "raw_query_s", "fetch_ratio", "fetch_cached_s", "cache_ratio",
        "change1_ms", "first_change_after_fetch_ms", "change1000_ms", "refetch_diff1_ms", "refetch_diff1000_ms",
        "change1_speedup", "change1000_speedup", "fetch_rss_mb",
        "frame_1m_ms", "frame_100_ms", "frame_ratio", "grid_frame_ms", "grid_hscroll_ms", "post_to_frame_ms",
        "scroll_bytes",
        "first_screen_s", "page_down_ms",
    ]

    /// The JSON keys of the `generic` group, written when that group ran.
    static let genericKeys = [
        "table10m_first_screen_s", "table10m_fetch_ratio", "table10m_rss_bytes_per_row",
        "table10m_change1000_ms", "csv1m_first_screen_s", "csv1m_ready_ratio", "grid10m_first_screen_s",
        "freq10m_ratio", "freq_change1000_ms", "csv3m_cached_first_screen_s", "jsonl1m_ready_ratio",
        "visidata_ready_speedup", "edit_cell_ms",
    ]

    /// The `generic` group's keys that its CSV part measures (`--only` naming only these runs only that part).
    static let csvKeys: Set<String> = [
        "csv1m_first_screen_s", "csv1m_ready_ratio", "csv3m_cached_first_screen_s", "jsonl1m_ready_ratio",
        "visidata_ready_speedup",
    ]

    /// The `generic` group's key its cell edit part measures (`--only edit_cell_ms` runs only that part).
    static let editKeys: Set<String> = ["edit_cell_ms"]

    /// The JSON keys of the `stash` group, written when that group ran.
    static let stashKeys = ["stash_reimport100k_s"]

    /// The JSON keys of the `postgres` group, written when that group ran.
    static let postgresKeys = [
        "pg1m_first_screen_s", "pg1m_ready_ratio", "pg1m_rss_bytes_per_row", "pg_change1_ms", "pg_change1000_ms",
        "pgquery1m_ready_ratio",
    ]

    /// The `postgres` group's key its query part measures (`--only pgquery1m_ready_ratio` runs only that part).
    static let postgresQueryKeys: Set<String> = ["pgquery1m_ready_ratio"]

    /// The JSON keys of the `query` group, written when that group ran.
    static let queryKeys = ["query1m_ready_ratio", "query_change_ms", "query_rerun_ratio"]

    private var values: [String: Double] = [:]
    /// Figures shown in the table but not part of the JSON contract (VisiData).
    private(set) var extras: [String: Double] = [:]
    /// Why a figure is missing, or how it was obtained; shown under the table.
    private(set) var notes: [String] = []
    /// How many timed runs each median is over, by key.
    var runs: [String: Int] = [:]

    init(rows: Int) {
        values["rows"] = Double(rows)
    }

    subscript(key: String) -> Double? {
        get { values[key] ?? extras[key] }
        set {
            if BenchResults.keys.contains(key) || BenchResults.genericKeys.contains(key)
                || BenchResults.postgresKeys.contains(key) || BenchResults.stashKeys.contains(key)
                || BenchResults.queryKeys.contains(key)
            {
                values[key] = newValue
            } else {
                extras[key] = newValue
            }
        }
    }

    mutating func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }

    /// Sets `key` to the median of `values` times `scale` (1000: seconds as milliseconds), nil when
    /// there are none, and records how many runs it is over.
    mutating func setMedian(_ key: String, of values: [Double], scale: Double = 1) {
        self[key] = Statistics.median(values).map { $0 * scale }
        runs[key] = values.count
    }

    /// Computes `key = numerator / denominator` when both are present and the denominator is positive.
    mutating func setRatio(_ key: String, _ numerator: String, _ denominator: String) {
        guard let n = self[numerator], let d = self[denominator], d > 0 else { return }
        self[key] = n / d
    }

    /// One JSON object with exactly `BenchResults.keys`, in order.
    var json: String { json(keys: BenchResults.keys) }

    /// One JSON object with exactly `keys`, in order.
    func json(keys: [String]) -> String {
        let fields = keys.map { key -> String in
            let text: String
            if let value = values[key], value.isFinite {
                text =
                    key == "rows" || key == "scroll_bytes" ? String(Int(value.rounded())) : BenchResults.number(value)
            } else {
                text = "null"
            }
            return "  \"\(key)\": \(text)"
        }
        return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
    }

    /// A JSON number: an integer when whole, else up to six decimals (never an exponent).
    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
