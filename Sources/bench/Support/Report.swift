import Foundation

/// The printed table: each measurement beside its reference, the ratio, the
/// target, and whether the target is met.
///
///     print(Report(results: results).table)
struct Report {
    enum Unit {
        case seconds, milliseconds, megabytes, bytes, bytesPerRow, times

        func format(_ value: Double) -> String {
            switch self {
            case .seconds: return String(format: value < 10 ? "%.3f s" : "%.1f s", value)
            case .milliseconds: return String(format: value < 10 ? "%.3f ms" : "%.1f ms", value)
            case .megabytes: return String(format: "%.1f MB", value)
            case .bytes: return "\(Int(value.rounded())) B"
            case .bytesPerRow: return String(format: "%.2f B", value)
            case .times: return String(format: value < 10 ? "%.2f×" : "%.0f×", value)
            }
        }
    }

    /// One target of the report: a figure, its reference, and the rule.
    struct Line {
        var title: String
        var key: String
        var unit: Unit
        var reference: (title: String, key: String, unit: Unit)? = nil
        var ratio: (key: String, title: String)? = nil
        var target: String
        /// nil when a figure it needs is missing.
        var check: (BenchResults) -> Bool?
        /// Shown for context; no target, not counted in the summary.
        var informational = false

        /// A figure shown for context only.
        static func information(_ title: String, key: String, unit: Unit) -> Line {
            Line(title: title, key: key, unit: unit, target: "(information)", check: { _ in nil }, informational: true)
        }

        /// A figure met when it is at most `limit`.
        static func atMost(_ limit: Double, _ title: String, key: String, unit: Unit, target: String) -> Line {
            Line(title: title, key: key, unit: unit, target: target, check: { r in r[key].map { $0 <= limit } })
        }

        /// A figure against a reference, met when their ratio is at most `limit`.
        static func ratioAtMost(
            _ limit: Double,
            _ title: String,
            key: String,
            unit: Unit,
            reference: (title: String, key: String, unit: Unit),
            ratio: (key: String, title: String),
            target: String
        ) -> Line {
            Line(
                title: title,
                key: key,
                unit: unit,
                reference: reference,
                ratio: ratio,
                target: target,
                check: { r in r[ratio.key].map { $0 <= limit } }
            )
        }
    }

    var results: BenchResults
    /// The groups that ran: the `generic` and `postgres` groups' lines are shown when they ran, the others when any other group ran.
    var groups: [BenchConfiguration.Group] = BenchConfiguration.Group.defaults

    /// The lines of the groups that ran.
    var shownLines: [Line] {
        (groups.contains { !$0.hasOwnKeys } ? Report.lines : [])
            + (groups.contains(.generic) ? Report.genericLines : [])
            + (groups.contains(.postgres) ? Report.postgresLines : [])
            + (groups.contains(.stash) ? Report.stashLines : [])
            + (groups.contains(.query) ? Report.queryLines : [])
    }

    static var lines: [Line] {
        [
            Line(
                title: "import (failedbanks import)",
                key: "import_s",
                unit: .seconds,
                reference: ("sqlite3 shell .import", "sqlite_import_s", .seconds),
                ratio: ("import_ratio", "ours/ref"),
                target: "ratio ≤ 1.0 (1M rows), ≤ 1.1 below",
                check: { r in
                    r["import_ratio"].map { $0 <= ((r["rows"] ?? 0) >= 1_000_000 ? 1.0 : 1.1) }
                }
            ),
            .information("import CPU time (user + system) / sqlite3's", key: "import_cpu_ratio", unit: .times),
            .atMost(64, "import peak RSS", key: "import_peak_rss_mb", unit: .megabytes, target: "≤ 64 MB"),
            .ratioAtMost(
                1.2,
                "performFetch (date, years, batch 20)",
                key: "fetch_s",
                unit: .seconds,
                reference: ("raw SQL, same IDs and order", "raw_query_s", .seconds),
                ratio: ("fetch_ratio", "ours/ref"),
                target: "ratio ≤ 1.2"
            ),
            .ratioAtMost(
                0.5,
                "performFetch, warm cache",
                key: "fetch_cached_s",
                unit: .seconds,
                reference: ("cold performFetch", "fetch_s", .seconds),
                ratio: ("cache_ratio", "ours/ref"),
                target: "ratio ≤ 0.5"
            ),
            Line(
                title: "change set of 1 object",
                key: "change1_ms",
                unit: .milliseconds,
                reference: ("refetch + diff, same change", "refetch_diff1_ms", .milliseconds),
                ratio: ("change1_speedup", "speedup"),
                target: "≤ 1 ms, speedup ≥ 100",
                check: { r in both(r["change1_ms"].map { $0 <= 1 }, r["change1_speedup"].map { $0 >= 100 }) }
            ),
            .atMost(
                50,
                "first change set right after a fetch",
                key: "first_change_after_fetch_ms",
                unit: .milliseconds,
                target: "≤ 50 ms"
            ),
            .information(
                "first change, prefixes built in background",
                key: "first_change1_background_ms",
                unit: .milliseconds
            ),
            Line(
                title: "change set of 1,000 objects",
                key: "change1000_ms",
                unit: .milliseconds,
                reference: ("refetch + diff, same changes", "refetch_diff1000_ms", .milliseconds),
                ratio: ("change1000_speedup", "speedup"),
                target: "≤ 10 ms, speedup ≥ 100",
                check: { r in both(r["change1000_ms"].map { $0 <= 10 }, r["change1000_speedup"].map { $0 >= 100 }) }
            ),
            .information(
                "1,000 objects, rows read on one connection",
                key: "change1000_one_connection_ms",
                unit: .milliseconds
            ),
            .atMost(48, "RSS added by fetched controller", key: "fetch_rss_mb", unit: .megabytes, target: "≤ 48 MB"),
            Line(
                title: "table frame, 1,000,000 rows",
                key: "frame_1m_ms",
                unit: .milliseconds,
                reference: ("table frame, 100 rows", "frame_100_ms", .milliseconds),
                ratio: ("frame_ratio", "1M/100"),
                target: "≤ 1 ms, ratio ≤ 1.2",
                check: { r in both(r["frame_1m_ms"].map { $0 <= 1 }, r["frame_ratio"].map { $0 <= 1.2 }) }
            ),
            .atMost(
                2,
                "grid frame, 50 rows × 20 columns",
                key: "grid_frame_ms",
                unit: .milliseconds,
                target: "≤ 2 ms"
            ),
            .atMost(
                5,
                "grid column move that scrolls",
                key: "grid_hscroll_ms",
                unit: .milliseconds,
                target: "≤ 5 ms"
            ),
            .atMost(
                1,
                "a result posted by another thread, to its frame (pty)",
                key: "post_to_frame_ms",
                unit: .milliseconds,
                target: "≤ 1 ms"
            ),
            .atMost(2048, "one-row scroll, 80×24 pty", key: "scroll_bytes", unit: .bytes, target: "≤ 2048 B"),
            .information("one-row scroll in the app, 80×24 pty", key: "app_scroll_bytes", unit: .bytes),
            Line(
                title: "app start to first rows (pty), cache valid",
                key: "first_screen_s",
                unit: .seconds,
                reference: ("VisiData, same CSV", "visidata_first_screen_s", .seconds),
                target: "≤ 0.3 s",
                check: { r in r["first_screen_s"].map { $0 <= 0.3 } }
            ),
            .atMost(
                0.3,
                "app first launch, no cache (pty)",
                key: "first_screen_cold_s",
                unit: .seconds,
                target: "≤ 0.3 s"
            ),
            .atMost(5, "page down, key to screen", key: "page_down_ms", unit: .milliseconds, target: "≤ 5 ms"),
        ]
    }

    private static func both(_ a: Bool?, _ b: Bool?) -> Bool? {
        guard let a, let b else { return nil }
        return a && b
    }

    /// The table as fixed-width text (also valid Markdown).
    var table: String {
        let header = ["measurement", "value", "runs", "reference", "ref value", "ratio", "target", "result"]
        var rows: [[String]] = []
        for line in shownLines {
            let value = results[line.key].map { line.unit.format($0) } ?? "n/a"
            let runs = results.runs[line.key].map(String.init) ?? ""
            var referenceTitle = ""
            var referenceValue = ""
            if let reference = line.reference {
                referenceTitle = reference.title
                referenceValue = results[reference.key].map { reference.unit.format($0) } ?? "n/a"
            }
            var ratio = ""
            if let ratioSpec = line.ratio {
                ratio = results[ratioSpec.key].map { Unit.times.format($0) } ?? "n/a"
            }
            let verdict: String
            switch line.informational ? .some(true) : line.check(results) {
            case .some(true) where line.informational: verdict = ""
            case .some(true): verdict = "met"
            case .some(false): verdict = "MISSED"
            case .none: verdict = "n/a"
            }
            rows.append([line.title, value, runs, referenceTitle, referenceValue, ratio, line.target, verdict])
        }
        var widths = header.map { $0.count }
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            "| "
                + cells.enumerated().map { i, cell in
                    cell + String(repeating: " ", count: widths[i] - cell.count)
                }.joined(separator: " | ") + " |"
        }
        var text = [
            render(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        text += rows.map(render)
        return text.joined(separator: "\n")
    }

    /// How many targets are met, missed, or not measured.
    var summary: (met: Int, missed: Int, unmeasured: Int) {
        var met = 0
        var missed = 0
        var unmeasured = 0
        for line in shownLines where !line.informational {
            switch line.check(results) {
            case .some(true): met += 1
            case .some(false): missed += 1
            case .none: unmeasured += 1
            }
        }
        return (met, missed, unmeasured)
    }
}
