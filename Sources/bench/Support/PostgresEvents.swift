/// The PostgreSQL group's table, made on the server: fixed values, the same every run.
///
/// Row `n` (1…N) has the time `2024-01-01 00:00:00 UTC + ((n · 7919) mod N) · 30 s`
/// (a permutation when N and 7919 are coprime, as for a million: every time
/// differs and id order is not time order), level `debug`/`info`/`warn`/`error`
/// by `n mod 4`, service `svc-(n mod 20)` and message `event 0000123 done`,
/// whose number makes it unique (the benchmark finds rows on screen by it).
enum PostgresEvents {
    /// Rows of `events_small`, the table the memory figure subtracts.
    static let smallRows = 1000

    /// The SQL that makes `table` with `rows` rows, its index on `ts`, and its statistics.
    static func script(table: String, rows: Int) -> String {
        """
        CREATE TABLE \(table) (id bigserial PRIMARY KEY, ts timestamptz, level text, service text, message text);
        INSERT INTO \(table) (ts, level, service, message)
        SELECT timestamptz '2024-01-01 00:00:00+00' + ((n::bigint * 7919) % \(rows)) * interval '30 seconds',
               (ARRAY['debug', 'info', 'warn', 'error'])[1 + n % 4],
               'svc-' || (n % 20),
               'event ' || lpad(n::text, 7, '0') || ' done'
        FROM generate_series(1, \(rows)) AS n;
        CREATE INDEX \(table)_ts ON \(table) (ts);
        VACUUM ANALYZE \(table);
        """
    }
}
