/// What a table's, view's or partitioned table's rows come from, for following its changes:
/// the storage its change counters are read from, and what no counter can see.
extension Catalog {
    /// The relations whose rows make `$1`'s (a `regclass`): itself; for a view, every relation
    /// its query reads, resolved the same way (a view over views, a view over a partitioned
    /// table); for a partitioned (or inherited) table, its partitions (children), at every
    /// level. A common table expression named `sources`, with the column `relid`.
    static let sources = """
        RECURSIVE sources(relid) AS (
            SELECT $1::regclass::oid
            UNION
            SELECT next.relid FROM sources AS s CROSS JOIN LATERAL (
                SELECT d.refobjid AS relid
                FROM pg_class AS c
                JOIN pg_rewrite AS r ON r.ev_class = c.oid
                JOIN pg_depend AS d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
                                   AND d.refclassid = 'pg_class'::regclass
                WHERE c.oid = s.relid AND c.relkind = 'v' AND d.refobjid <> s.relid
                UNION ALL
                SELECT i.inhrelid FROM pg_inherits AS i WHERE i.inhparent = s.relid
            ) AS next
        )
        """

    /// The tables whose writes change `table`'s rows, each once, by schema and name: `table`
    /// itself when it is a table; for a view, the tables, partitioned tables, materialized
    /// views and foreign tables it reads (through other views too) — a partition by the
    /// partitioned table it belongs to, when the view reads that one.
    ///
    ///     let tables = try Catalog.sourceTables(of: ranked, on: connection)   // [public.events, public.levels]
    public static func sourceTables(
        of table: TableName,
        on connection: PostgresConnection
    ) throws(PostgresError) -> [TableName] {
        let result = try connection.query(
            """
            WITH \(sources)
            SELECT n.nspname, c.relname
            FROM sources AS s JOIN pg_class AS c ON c.oid = s.relid JOIN pg_namespace AS n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p', 'm', 'f')
              AND NOT EXISTS (SELECT FROM pg_inherits AS i JOIN sources AS parent ON parent.relid = i.inhparent
                              WHERE i.inhrelid = s.relid)
            ORDER BY 1, 2
            """,
            [table.quoted]
        )
        return (0..<result.rowCount).map {
            TableName(schema: result.text(row: $0, column: 0) ?? "", name: result.text(row: $0, column: 1) ?? "")
        }
    }

    /// What keeps `table`'s rows from being followed by change counters, as a person names
    /// it — empty when nothing does (a table, a materialized view, a partitioned table, a view
    /// over those that calls no function whose result changes without a write):
    ///
    /// - `the foreign table public.rates` (its rows live on another server);
    /// - `the function now()`, `the current time` (`CURRENT_TIMESTAMP`, `LOCALTIME`…): a
    ///   view's rows that change as time passes;
    /// - `the function public.open_orders()`: a volatile function, or one outside
    ///   `pg_catalog` that is not immutable, which may read tables no dependency names.
    ///
    ///     let unseen = try Catalog.unfollowableSources(of: recent, on: connection)   // ["the function now()"]
    public static func unfollowableSources(
        of table: TableName,
        on connection: PostgresConnection
    ) throws(PostgresError) -> [String] {
        let result = try connection.query(
            """
            WITH \(sources),
            actions AS (
                SELECT r.ev_action::text AS action
                FROM sources AS s JOIN pg_class AS c ON c.oid = s.relid AND c.relkind = 'v'
                JOIN pg_rewrite AS r ON r.ev_class = c.oid
            ),
            calls AS (
                SELECT DISTINCT m[1]::oid AS fn
                FROM actions, regexp_matches(action, ':(?:funcid|opfuncid|aggfnoid|winfnoid) (\\d+)', 'g') AS m
            )
            SELECT * FROM (
                SELECT 'the foreign table ' || n.nspname || '.' || c.relname AS source
                FROM sources AS s JOIN pg_class AS c ON c.oid = s.relid JOIN pg_namespace AS n ON n.oid = c.relnamespace
                WHERE c.relkind = 'f'
                UNION
                SELECT 'the function '
                       || CASE WHEN n.nspname = 'pg_catalog' THEN '' ELSE n.nspname || '.' END || p.proname || '()'
                FROM calls JOIN pg_proc AS p ON p.oid = calls.fn JOIN pg_namespace AS n ON n.oid = p.pronamespace
                WHERE p.provolatile = 'v'
                   OR (n.nspname = 'pg_catalog' AND p.proname IN ('now', 'statement_timestamp', 'transaction_timestamp'))
                   OR (n.nspname <> 'pg_catalog' AND p.provolatile <> 'i')
                UNION
                SELECT 'the current time' FROM actions WHERE action ~ '\\{SQLVALUEFUNCTION :op [0-8] '
            ) AS found
            ORDER BY source
            """,
            [table.quoted]
        )
        return (0..<result.rowCount).compactMap { result.text(row: $0, column: 0) }
    }
}
