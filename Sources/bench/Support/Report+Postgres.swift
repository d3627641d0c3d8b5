extension Report {
    /// The lines of the `postgres` group: `fetchedtable --pg` over a
    /// 1,000,000-row table on a throwaway server.
    static var postgresLines: [Line] {
        [
            .atMost(
                0.3,
                "fetchedtable --pg, 1M rows: first row (pty)",
                key: "pg1m_first_screen_s",
                unit: .seconds,
                target: "≤ 0.3 s"
            ),
            .ratioAtMost(
                1.5,
                "1M rows: sorted, sectioned list browsable",
                key: "pg1m_ready_s",
                unit: .seconds,
                reference: ("libpq fetch, same ids and order", "pg1m_ids_fetch_s", .seconds),
                ratio: ("pg1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.5"
            ),
            .atMost(
                16,
                "RSS added by the list, per row",
                key: "pg1m_rss_bytes_per_row",
                unit: .bytesPerRow,
                target: "≤ 16 B"
            ),
            .atMost(
                50,
                "COMMIT of 1 row → watch --track batch line",
                key: "pg_change1_ms",
                unit: .milliseconds,
                target: "≤ 50 ms"
            ),
            .atMost(
                100,
                "1,000-row UPDATE → watch --track batch line",
                key: "pg_change1000_ms",
                unit: .milliseconds,
                target: "≤ 100 ms"
            ),
            .ratioAtMost(
                1.5,
                "fetchedtable --pg --query, 1M rows: browsable",
                key: "pgquery1m_ready_s",
                unit: .seconds,
                reference: ("libpq fetch of the same query's rows", "pgquery1m_fetch_s", .seconds),
                ratio: ("pgquery1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.5"
            ),
        ]
    }
}
