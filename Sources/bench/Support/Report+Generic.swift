extension Report {
    /// The lines of the `generic` group (issue 17): `fetchedtable` over a
    /// 10-million-row table and a 1-million-row CSV.
    static var genericLines: [Line] {
        [
            Line(
                title: "fetchedtable, 10M rows: first row (pty)",
                key: "table10m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.3 s",
                check: { r in r["table10m_first_screen_s"].map { $0 <= 0.3 } }
            ),
            Line(
                title: "performFetch, 10M rows (ts desc, days)",
                key: "table10m_fetch_s",
                unit: .seconds,
                reference: ("raw SQL, same IDs and order", "table10m_raw_query_s", .seconds),
                ratio: ("table10m_fetch_ratio", "ours/ref"),
                target: "ratio ≤ 1.5",
                check: { r in r["table10m_fetch_ratio"].map { $0 <= 1.5 } }
            ),
            Line(
                title: "RSS added by the controller, per row",
                key: "table10m_rss_bytes_per_row",
                unit: .bytesPerRow,
                target: "≤ 12 B",
                check: { r in r["table10m_rss_bytes_per_row"].map { $0 <= 12 } }
            ),
            Line(
                title: "change set of 1,000 rows, --track, 10M",
                key: "table10m_change1000_ms",
                unit: .milliseconds,
                target: "≤ 20 ms",
                check: { r in r["table10m_change1000_ms"].map { $0 <= 20 } }
            ),
            Line(
                title: "1,000 rows: reading the history (--track)",
                key: "table10m_history1000_ms",
                unit: .milliseconds,
                target: "(information)",
                check: { _ in nil },
                informational: true
            ),
            Line(
                title: "fetchedtable, 1M-row CSV: first row (pty)",
                key: "csv1m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.3 s",
                check: { r in r["csv1m_first_screen_s"].map { $0 <= 0.3 } }
            ),
            Line(
                title: "1M-row CSV: sorted, sectioned view",
                key: "csv1m_ready_s",
                unit: .seconds,
                reference: ("sqlite3 shell .import", "csv1m_sqlite_import_s", .seconds),
                ratio: ("csv1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.5",
                check: { r in r["csv1m_ready_ratio"].map { $0 <= 1.5 } }
            ),
            Line(
                title: "VisiData, same CSV: first row (pty)",
                key: "csv1m_visidata_s",
                unit: .seconds,
                target: "(information)",
                check: { _ in nil },
                informational: true
            ),
        ]
    }
}
