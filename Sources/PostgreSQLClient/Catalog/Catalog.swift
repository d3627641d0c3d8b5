/// Reading the server's catalog: the tables and views a person can browse,
/// their columns and primary keys, row counts that never scan a big table,
/// privileges, and a cheap change signal.
///
///     let tables = try Catalog.tables(on: connection)
///     for table in tables {
///         print(table.displayName, table.rowCount)   // events estimated(1000000)
///     }
///     if let events = try Catalog.table(named: "events", on: connection),
///        try Catalog.privileges(of: events.name, on: connection).delete { … }
public enum Catalog {
    /// A table whose main storage is at most this many bytes is counted
    /// exactly (a `count(*)` over 4 MB takes a few milliseconds); a larger
    /// one gets the planner's estimate.
    public static let exactCountLimit = 4 * 1024 * 1024

    /// Milliseconds a row count (or a view's `EXPLAIN`) waits for a lock on its table before
    /// it gives up for the estimate: a table another session locked never holds up a list.
    static let countLockTimeout = 20

    /// The tables and views (also materialized, partitioned and foreign
    /// tables) in the schemas of the search path, in search-path order and
    /// then by name; not the system catalogs.
    public static func tables(on connection: PostgresConnection) throws(PostgresError) -> [TableDescription] {
        try describe(relations(on: connection, where: "n.nspname = ANY (current_schemas(false))", []), on: connection)
    }

    /// The table or view a person named: a display name as ``tables(on:)``
    /// gives it, `schema.name`, or SQL's own spelling (`to_regclass`:
    /// unquoted names fold to lower case). Nil when there is none.
    public static func table(
        named name: String,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> TableDescription?
    {
        let listed = try tables(on: connection)
        if let exact = listed.first(where: { $0.displayName == name || $0.name.description == name }) {
            return exact
        }
        let unqualified = listed.filter { $0.name.name == name }
        if unqualified.count == 1 { return unqualified[0] }
        do {
            let found = try relations(on: connection, where: "c.oid = to_regclass($1)", [name])
            return try describe(found, on: connection).first
        } catch .statementFailed(let sqlState, _, _) where sqlState.hasPrefix("42") {
            return nil  // not a name SQL can parse ("invalid name syntax")
        }
    }

    /// What the connected role may do with `table`.
    public static func privileges(
        of table: TableName,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> TablePrivileges
    {
        let row = try connection.query(
            """
            SELECT has_table_privilege($1::regclass, 'SELECT'), has_table_privilege($1::regclass, 'INSERT'),
                   has_table_privilege($1::regclass, 'UPDATE'), has_table_privilege($1::regclass, 'DELETE')
            """,
            [table.quoted]
        ).rows[0]
        return TablePrivileges(
            select: row[0] == .boolean(true),
            insert: row[1] == .boolean(true),
            update: row[2] == .boolean(true),
            delete: row[3] == .boolean(true)
        )
    }

    /// The server's write-ahead log insert position (`pg_current_wal_insert_lsn()`):
    /// it moves on every write anywhere in the cluster, at once. Unchanged
    /// means no table changed; moved means one may have — a first, cheaper
    /// filter before ``changeCounters(of:on:)`` or a refetch.
    public static func writePosition(on connection: PostgresConnection) throws(PostgresError) -> String {
        try connection.query("SELECT pg_current_wal_insert_lsn()::text").text(row: 0, column: 0) ?? ""
    }

    /// `table`'s change counters now (see ``ChangeCounters`` for when they move). For a
    /// view or a partitioned table, which have none of their own, the sums of those of the
    /// relations their rows come from — a view's tables (through other views too), a
    /// partitioned table's partitions — so that a write to any of them moves them.
    /// (``unfollowableSources(of:on:)`` says what they cannot see.)
    public static func changeCounters(
        of table: TableName,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> ChangeCounters
    {
        let result = try connection.query(
            """
            WITH \(sources)
            SELECT coalesce(sum(st.n_tup_ins), 0)::bigint, coalesce(sum(st.n_tup_upd), 0)::bigint,
                   coalesce(sum(st.n_tup_del), 0)::bigint,
                   coalesce(sum(pg_relation_filenode(c.oid)::bigint) FILTER (WHERE c.relkind IN ('r', 'm', 't')), 0)::bigint
            FROM sources AS s JOIN pg_class AS c ON c.oid = s.relid
            LEFT JOIN pg_stat_user_tables AS st ON st.relid = s.relid
            """,
            [table.quoted]
        )
        let value = { (column: Int) in result.int64(row: 0, column: column) ?? 0 }
        return ChangeCounters(inserted: value(0), updated: value(1), deleted: value(2), fileNode: value(3))
    }

    // MARK: Steps

    private struct Relation {
        let oid: String
        let name: TableName
        let displayName: String
        let kind: TableDescription.Kind
        let estimate: Int?
        /// The main storage's size; nil while another session holds the table locked.
        let bytes: Int?
    }

    private static func relations(
        on connection: PostgresConnection,
        where condition: String,
        _ parameters: [String?]
    )
        throws(PostgresError) -> [Relation]
    {
        // pg_relation_size opens the table, so waits for another session's ACCESS EXCLUSIVE lock
        // (granted or queued): a table locked so is not sized, nor counted (``RowCount/locked``).
        let result = try connection.query(
            """
            WITH found AS MATERIALIZED (
                SELECT c.oid, n.nspname, c.relname, c.relkind, c.reltuples, c.relpages,
                       CASE WHEN pg_table_is_visible(c.oid) THEN quote_ident(c.relname)
                            ELSE quote_ident(n.nspname) || '.' || quote_ident(c.relname) END AS shown,
                       array_position(current_schemas(false), n.nspname) AS place
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND \(condition)
            ), sized AS MATERIALIZED (
                SELECT f.*, CASE WHEN EXISTS (
                           SELECT 1 FROM pg_locks l
                           WHERE l.locktype = 'relation' AND l.relation = f.oid AND l.mode = 'AccessExclusiveLock'
                               AND l.pid <> pg_backend_pid()
                               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       ) THEN NULL ELSE pg_relation_size(f.oid) END AS bytes
                FROM found f
            )
            SELECT oid::text, nspname, relname, relkind::text, shown,
                   CASE WHEN reltuples < 0 OR relpages = 0 OR bytes IS NULL THEN NULL
                        ELSE (reltuples / relpages * (bytes / current_setting('block_size')::int))::bigint END,
                   bytes
            FROM sized
            ORDER BY place, relname
            """,
            parameters
        )
        let kinds: [String: TableDescription.Kind] = [
            "r": .table, "p": .partitionedTable, "v": .view, "m": .materializedView, "f": .foreignTable,
        ]
        return (0..<result.rowCount).map { row in
            Relation(
                oid: result.text(row: row, column: 0) ?? "0",
                name: TableName(
                    schema: result.text(row: row, column: 1) ?? "",
                    name: result.text(row: row, column: 2) ?? ""
                ),
                displayName: result.text(row: row, column: 4) ?? "",
                kind: kinds[result.text(row: row, column: 3) ?? ""] ?? .table,
                estimate: result.int64(row: row, column: 5).map(Int.init),
                bytes: result.int64(row: row, column: 6).map(Int.init)
            )
        }
    }

    private static func describe(
        _ relations: [Relation],
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> [TableDescription]
    {
        guard !relations.isEmpty else { return [] }
        let oids = "{" + relations.map(\.oid).joined(separator: ",") + "}"
        let columns = try columnsByRelation(oids, on: connection)
        let keys = try primaryKeysByRelation(oids, on: connection)
        // A count or `EXPLAIN` waits for a lock another session holds on the table (`LOCK TABLE`,
        // `ALTER TABLE`, `TRUNCATE` in an open transaction): given up at once, the estimate taken.
        let lockTimeout = try connection.query(
            "SELECT current_setting('lock_timeout'), set_config('lock_timeout', '\(countLockTimeout)ms', false)"
        ).text(row: 0, column: 0)
        defer { _ = try? connection.query("SELECT set_config('lock_timeout', $1, false)", [lockTimeout ?? "0"]) }
        var described: [TableDescription] = []
        for relation in relations {
            described.append(
                TableDescription(
                    name: relation.name,
                    displayName: relation.displayName,
                    kind: relation.kind,
                    columns: columns[relation.oid] ?? [],
                    primaryKey: keys[relation.oid] ?? [],
                    rowCount: try rowCount(of: relation, on: connection)
                )
            )
        }
        return described
    }

    private static func columnsByRelation(
        _ oids: String,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> [String: [ColumnDescription]]
    {
        let result = try connection.query(
            """
            SELECT a.attrelid::text, a.attname, format_type(a.atttypid, a.atttypmod), a.atttypid::bigint, NOT a.attnotnull,
                   a.attgenerated::text, a.attidentity::text, base.oid::bigint, base.typtype::text,
                   coll.collname, coll.provider, coll.locale, coll.deterministic, coll.encoding
            FROM pg_attribute a
            CROSS JOIN LATERAL (
                WITH RECURSIVE domains(oid, basetype, depth) AS (
                    SELECT t.oid, t.typbasetype, 0 FROM pg_type t WHERE t.oid = a.atttypid
                    UNION ALL
                    SELECT t.oid, t.typbasetype, d.depth + 1 FROM pg_type t JOIN domains d ON t.oid = d.basetype
                )
                SELECT t.oid, t.typtype FROM domains d JOIN pg_type t ON t.oid = d.oid ORDER BY d.depth DESC LIMIT 1
            ) base
            LEFT JOIN LATERAL (\(collationQuery(serverVersion: connection.serverVersion))) coll ON a.attcollation <> 0
            WHERE a.attrelid = ANY ($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attrelid, a.attnum
            """,
            [oids]
        )
        var columns: [String: [ColumnDescription]] = [:]
        for row in 0..<result.rowCount {
            let text = { (column: Int) in result.text(row: row, column: column) ?? "" }
            let collation = result.text(row: row, column: 9).map { name in
                ColumnCollation(
                    name: name,
                    provider: ColumnCollation.Provider(rawValue: text(10)) ?? .libc,
                    locale: text(11),
                    isDeterministic: text(12) != "f",
                    encoding: text(13)
                )
            }
            let column = ColumnDescription(
                name: text(1),
                typeName: text(2),
                typeOID: UInt32(result.int64(row: row, column: 3) ?? 0),
                isNullable: text(4) == "t",
                generation: text(5) == "s"
                    ? .stored : text(6) == "a" ? .identityAlways : text(6) == "d" ? .identityByDefault : nil,
                baseTypeOID: UInt32(result.int64(row: row, column: 7) ?? 0),
                isEnum: text(8) == "e",
                collation: collation
            )
            columns[text(0), default: []].append(column)
        }
        return columns
    }

    /// The collation of `a.attcollation` (the database's for the default one): its name,
    /// provider (`c` libc, `i` ICU, `b` builtin), locale and whether it is deterministic —
    /// in the catalog columns of the server's version (ICU locales moved in 15 and 17).
    private static func collationQuery(serverVersion: Int) -> String {
        let collationLocale: String
        let databaseProvider: String
        let databaseLocale: String
        switch serverVersion {
        case 170_000...:
            collationLocale = "coalesce(c.colllocale, c.collcollate)"
            databaseProvider = "d.datlocprovider::text"
            databaseLocale = "coalesce(d.datlocale, d.datcollate)"
        case 150_000..<170_000:
            collationLocale = "coalesce(c.colliculocale, c.collcollate)"
            databaseProvider = "d.datlocprovider::text"
            databaseLocale = "coalesce(d.daticulocale, d.datcollate)"
        default:
            collationLocale = "c.collcollate"
            databaseProvider = "'c'"
            databaseLocale = "d.datcollate"
        }
        return """
            SELECT c.collname::text AS collname,
                   CASE WHEN c.collprovider = 'd' THEN \(databaseProvider) ELSE c.collprovider::text END AS provider,
                   CASE WHEN c.collprovider = 'd' THEN \(databaseLocale) ELSE \(collationLocale) END AS locale,
                   c.collisdeterministic::text AS deterministic, pg_encoding_to_char(d.encoding)::text AS encoding
            FROM pg_collation c, pg_database d
            WHERE c.oid = a.attcollation AND d.datname = current_database()
            """
    }

    private static func primaryKeysByRelation(
        _ oids: String,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> [String: [String]]
    {
        let result = try connection.query(
            """
            SELECT i.indrelid::text, a.attname
            FROM pg_index i
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
            WHERE i.indisprimary AND i.indrelid = ANY ($1::oid[])
            ORDER BY i.indrelid, k.position
            """,
            [oids]
        )
        var keys: [String: [String]] = [:]
        for row in 0..<result.rowCount {
            keys[result.text(row: row, column: 0) ?? "", default: []].append(result.text(row: row, column: 1) ?? "")
        }
        return keys
    }

    /// Exact for a small ordinary table; else the scaled `reltuples`, or the
    /// planner's `EXPLAIN` estimate when the table was never analyzed (and
    /// always for a view).
    private static func rowCount(
        of relation: Relation,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> RowCount
    {
        let countable = relation.kind == .table || relation.kind == .materializedView
        guard let bytes = relation.bytes else { return .locked }
        if countable && bytes <= exactCountLimit {
            do {
                let result = try connection.query("SELECT count(*) FROM \(relation.name.quoted)")
                return .exact(Int(result.int64(row: 0, column: 0) ?? 0))
            } catch .statementFailed {
                // No SELECT privilege, or locked by another session: the estimate needs neither.
            }
        }
        if countable, let estimate = relation.estimate { return .estimated(estimate) }
        return .estimated(try plannerEstimate(of: relation, on: connection))
    }

    private static func plannerEstimate(
        of relation: Relation,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> Int
    {
        do {
            let plan = try connection.query("EXPLAIN SELECT 1 FROM \(relation.name.quoted)")
            let firstLine = plan.text(row: 0, column: 0) ?? ""
            if let match = firstLine.firstMatch(of: #/ rows=(\d+) /#) { return Int(match.output.1) ?? 0 }
        } catch .statementFailed {
            // A view the role cannot read, or a table locked by another session: no estimate.
        }
        return 0
    }
}
