extension Report {
    /// The lines of the `query` group: `fetchedtable --query` over a join of two tables.
    static var queryLines: [Line] {
        [
            .ratioAtMost(
                1.2,
                "fetchedtable --query, join of 2 tables: last row on screen",
                key: "query1m_ready_s",
                unit: .seconds,
                reference: ("sqlite3 FILE QUERY, all rows", "query1m_sqlite_s", .seconds),
                ratio: ("query1m_ready_ratio", "ours/ref"),
                target: "ratio ≤ 1.2"
            ),
            .atMost(
                200,
                "one insert into a base table on screen, 100k-row result",
                key: "query_change_ms",
                unit: .milliseconds,
                target: "≤ 200 ms"
            ),
            .ratioAtMost(
                1.3,
                "a re-run after one insert, and its diff written",
                key: "query_rerun_ms",
                unit: .milliseconds,
                reference: ("the query alone, every row read", "query_alone_ms", .milliseconds),
                ratio: ("query_rerun_ratio", "ours/ref"),
                target: "ratio ≤ 1.3"
            ),
        ]
    }
}
