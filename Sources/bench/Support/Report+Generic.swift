extension Report {
    /// The lines of the `generic` group: `fetchedtable` over a
    /// 10-million-row table and a 1-million-row CSV.
    static var genericLines: [Line] {
        [
            .atMost(
                0.3,
                "fetchedtable, 10M rows: first row (pty)",
                key: "table10m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.3 s"
            ),
            .atMost(
                0.05,
                "fetchedtable grid, 10M rows × 20 columns, 200×50",
                key: "grid10m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.05 s"
            ),
            .ratioAtMost(
                1.2,
                "performFetch, 10M rows (ts desc, days)",
                key: "table10m_fetch_s",
                unit: .seconds,
                reference: ("raw SQL, same IDs and order", "table10m_raw_query_s", .seconds),
                ratio: ("table10m_fetch_ratio", "ours/ref"),
                target: "ratio ≤ 1.2"
            ),
            .atMost(
                12,
                "RSS added by the controller, per row",
                key: "table10m_rss_bytes_per_row",
                unit: .bytesPerRow,
                target: "≤ 12 B"
            ),
            .atMost(
                20,
                "change set of 1,000 rows, --track, 10M",
                key: "table10m_change1000_ms",
                unit: .milliseconds,
                target: "≤ 20 ms"
            ),
            .ratioAtMost(
                1.2,
                "frequency of a column, 10M rows, 1,000 values",
                key: "freq10m_s",
                unit: .seconds,
                reference: ("GROUP BY … ORDER BY 2 DESC", "freq10m_raw_query_s", .seconds),
                ratio: ("freq10m_ratio", "ours/ref"),
                target: "ratio ≤ 1.2"
            ),
            .atMost(
                10,
                "1,000 changed rows reach the frequency sheet",
                key: "freq_change1000_ms",
                unit: .milliseconds,
                target: "≤ 10 ms"
            ),
            .atMost(
                5,
                "a cell edited in the grid, saved and on screen",
                key: "edit_cell_ms",
                unit: .milliseconds,
                target: "≤ 5 ms"
            ),
            .information(
                "the cell edit's Enter alone: save and change set",
                key: "edit_cell_save_ms",
                unit: .milliseconds
            ),
            .information(
                "1,000 rows: reading the history (--track)",
                key: "table10m_history1000_ms",
                unit: .milliseconds
            ),
            .atMost(
                0.3,
                "fetchedtable, 1M-row CSV: first row (pty)",
                key: "csv1m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.3 s"
            ),
            .ratioAtMost(
                1.5,
                "1M-row CSV: sorted, sectioned view",
                key: "csv1m_ready_s",
                unit: .seconds,
                reference: ("sqlite3 shell .import", "csv1m_sqlite_import_s", .seconds),
                ratio: ("csv1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.5"
            ),
            .information("VisiData, same CSV: first row (pty)", key: "csv1m_visidata_s", unit: .seconds),
            .atMost(
                0.1,
                "fetchedtable, 3.4M-row CSV with its cache: first row",
                key: "csv3m_cached_first_screen_s",
                unit: .seconds,
                target: "≤ 0.1 s"
            ),
            .ratioAtMost(
                1.5,
                "1M-row JSON Lines: sorted, sectioned view",
                key: "jsonl1m_ready_s",
                unit: .seconds,
                reference: ("the same rows as CSV", "csv1m_ready_s", .seconds),
                ratio: ("jsonl1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.5"
            ),
            Line(
                title: "VisiData, same CSV: sorted (ts desc)",
                key: "visidata_sorted_s",
                unit: .seconds,
                reference: ("fetchedtable's sorted view", "csv1m_ready_s", .seconds),
                ratio: ("visidata_ready_speedup", "speedup"),
                target: "speedup ≥ 5",
                check: { r in r["visidata_ready_speedup"].map { $0 >= 5 } }
            ),
        ]
    }
}
