import PostgreSQLClient

/// The SQL of a change feed, with every name quoted: the objects ``ChangeFeed/install(on:)``
/// makes and the catalog queries that find them.
struct ChangeFeedSQL {
    static let triggerSuffixes = ["insert", "update", "delete", "truncate"]

    let feed: ChangeFeed
    let connection: PostgresConnection

    private var base: String { feed.configuration.historyTable }
    private var schemaName: String { feed.historyTable.schema }
    private var schema: String { SQLIdentifier.quote(schemaName) }
    private func qualified(_ suffix: String) -> String { schema + "." + SQLIdentifier.quote(base + suffix) }

    /// The history table.
    var history: String { feed.historyTable.quoted }
    /// The registry of tracked tables: `relid oid` (primary key; a partitioned table and each
    /// of its partitions), `label text` (the history's name for the table).
    var registry: String { qualified("_tables") }
    var captureFunction: String { qualified("_capture") }
    /// The triggers' `WHEN` condition: whether a relation is registered.
    var guardFunction: String { qualified("_tracks") }
    private var recordPolicy: String { SQLIdentifier.quote(base + "_record") }
    private var readPolicy: String { SQLIdentifier.quote(base + "_read") }
    private func trigger(_ suffix: String) -> String { SQLIdentifier.quote("\(base)_\(suffix)") }

    /// The function's signature for `to_regprocedure`.
    var captureFunctionSignature: String { captureFunction + "()" }
    var guardFunctionSignature: String { guardFunction + "(oid)" }
    /// The triggers' names, as a text array parameter.
    var triggerNames: String {
        "{" + ChangeFeedSQL.triggerSuffixes.map { "\"\(base)_\($0)\"" }.joined(separator: ",") + "}"
    }

    /// The objects, as a person names them in a message.
    var historyName: String { "the table \(schemaName).\(base)" }
    var registryName: String { "the table \(schemaName).\(base)_tables" }
    var captureName: String { "the function \(schemaName).\(base)_capture()" }
    var guardName: String { "the function \(schemaName).\(base)_tracks(oid)" }

    /// The history table's name inside a `format()` string literal.
    private var historyInFormat: String { history.replacing("'", with: "''").replacing("%", with: "%%") }

    // MARK: Catalog

    /// The relations whose triggers follow the table (`$1`): the table, and every partition
    /// of a partitioned one. Columns: `relid`.
    static let relations = "SELECT $1::regclass AS relid UNION SELECT relid FROM pg_partition_tree($1::regclass)"

    /// A relation's name as ``TableName/quoted`` spells it (`"public"."events"`), from `n` and `c`.
    static let quotedName =
        "'\"' || replace(n.nspname, '\"', '\"\"') || '\".\"' || replace(c.relname, '\"', '\"\"') || '\"'"

    /// What installing needs to know, in one row: the owners of the history, the registry, the
    /// capture and the guard function (NULL when missing), the role, and whether the capture
    /// function is `SECURITY DEFINER` (an earlier version's). Parameters: ``objectParameters``.
    static let objects = """
        SELECT (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = to_regclass($1)),
               (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = to_regclass($2)),
               (SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = to_regprocedure($3)),
               (SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = to_regprocedure($4)),
               current_user::text,
               coalesce((SELECT prosecdef FROM pg_proc WHERE oid = to_regprocedure($3)), false)
        """

    var objectParameters: [String?] {
        [history, registry, captureFunctionSignature, guardFunctionSignature]
    }

    /// The state of the table's triggers (`$1` the table, `$2` their names, `$3` the capture
    /// function, `$4` the history): `installation` (the history's oid and a digest of the
    /// triggers' oids and row versions, so that any trigger made again, disabled or renamed
    /// gives another; NULL unless each relation has its four triggers, enabled), `current`
    /// (made by this version: a `WHEN` guard and no arguments) and `present` (some of the
    /// triggers are there, enabled or not). A common table expression named `feed`.
    static let feedState = """
        feed AS (
            SELECT CASE WHEN count(t.oid) FILTER (WHERE t.tgenabled <> 'D')
                             = 4 * (SELECT count(*) FROM (\(relations)) AS r)
                             AND to_regclass($4) IS NOT NULL
                        THEN to_regclass($4)::oid::text || ':'
                             || md5(string_agg(t.oid::text || '.' || t.xmin::text, ',' ORDER BY t.oid)) END
                       AS installation,
                   coalesce(bool_and(t.tgqual IS NOT NULL AND t.tgnargs = 0), false) AS current,
                   count(t.oid) > 0 AS present
            FROM (\(relations)) AS r
            JOIN pg_trigger AS t ON t.tgrelid = r.relid AND t.tgname = ANY ($2::text[])
                                AND t.tgfoid = to_regprocedure($3)
        )
        """

    /// The parameters of ``feedState`` (`$1`…`$4`).
    var feedStateParameters: [String?] { [feed.table.quoted, triggerNames, captureFunctionSignature, history] }

    /// The relations of the table (`$1`) with their quoted names, the table first.
    static let relationNames = """
        SELECT r.relid::oid::text, \(quotedName)
        FROM (\(relations)) AS r JOIN pg_class AS c ON c.oid = r.relid JOIN pg_namespace AS n ON n.oid = c.relnamespace
        ORDER BY r.relid <> $1::regclass, c.relname
        """

    /// The other relations whose triggers call the capture function (`$1`) and were made by an
    /// earlier version (arguments, no `WHEN` guard), with their quoted names.
    static let outdatedRelations = """
        SELECT DISTINCT c.oid::text, \(quotedName)
        FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE t.tgfoid = to_regprocedure($1) AND (t.tgqual IS NULL OR t.tgnargs > 0)
        """

    // MARK: Installing

    var createHistory: String {
        """
        CREATE TABLE \(history) (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            table_name text NOT NULL,
            operation text NOT NULL CHECK (operation IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')),
            key text[] NOT NULL,
            changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id()
        );
        CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quote(base + "_transaction_id")) ON \(history) (transaction_id);
        CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quote(base + "_changed_at")) ON \(history) USING brin (changed_at);
        COMMENT ON TABLE \(history) IS \(connection.escapeLiteral(
            "Changed primary keys of tracked tables, appended by statement-level triggers; "
                + "readers follow it by transaction snapshot. Rows older than the retention are pruned."))
        """
    }

    var createRegistry: String {
        """
        CREATE TABLE \(registry) (relid oid PRIMARY KEY, label text NOT NULL);
        CREATE INDEX \(SQLIdentifier.quote(base + "_tables_label")) ON \(registry) (label);
        COMMENT ON TABLE \(registry) IS \(connection.escapeLiteral(
            "The tables whose changes \(base) records, and the name it records them under; "
                + "written by its owner only."))
        """
    }

    /// The triggers' `WHEN` condition. Its body names the history and the registry, so
    /// PostgreSQL records that the triggers depend on both: `DROP TABLE` of either is refused,
    /// and with `CASCADE` takes the triggers along — a table's writes never fail for want of them.
    var createGuardFunction: String {
        """
        CREATE OR REPLACE FUNCTION \(guardFunction)(relation oid) RETURNS boolean
        LANGUAGE sql STABLE PARALLEL SAFE
        BEGIN ATOMIC
            SELECT \(connection.escapeLiteral(history))::regclass IS NOT NULL
               AND EXISTS (SELECT FROM \(registry) AS r WHERE r.relid = relation);
        END
        """
    }

    /// The capture function: `SECURITY INVOKER`, so it runs as the role writing the table and
    /// no role gains a right through it. It records only a registered table's changes, under
    /// the label the registry gives, and names the rows by the primary key as it is now; the
    /// keys' text is each type's output function (`format('%s', …)`), never a cast another
    /// role may have defined.
    var createCaptureFunction: String {
        let channel = connection.escapeLiteral(feed.configuration.channel)
        return """
            CREATE OR REPLACE FUNCTION \(captureFunction)() RETURNS trigger
            LANGUAGE plpgsql SECURITY INVOKER SET search_path = pg_catalog, pg_temp AS $capture$
            DECLARE
                label text;
                key_list text;
                changed boolean;
                recorded bigint := 0;
                gone bigint := 0;
            BEGIN
                SELECT r.label INTO label FROM \(registry) AS r WHERE r.relid = TG_RELID;
                IF label IS NULL THEN
                    RETURN NULL;  -- not a tracked table
                END IF;
                SELECT string_agg(format('pg_catalog.format(''%%s'', %I)', a.attname), ', ' ORDER BY k.position)
                INTO key_list
                FROM pg_index AS i
                CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = TG_RELID AND i.indisprimary;
                IF key_list IS NULL AND TG_OP <> 'TRUNCATE' THEN
                    -- No primary key names the rows any more: the readers copy the table again.
                    EXECUTE format('SELECT EXISTS (SELECT FROM %I)',
                                   CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END) INTO changed;
                    IF NOT changed THEN
                        RETURN NULL;
                    END IF;
                END IF;
                IF TG_OP = 'TRUNCATE' OR key_list IS NULL THEN
                    INSERT INTO \(history) (table_name, operation, key) VALUES (label, 'TRUNCATE', '{}');
                    recorded := 1;
                ELSIF TG_OP = 'INSERT' THEN
                    EXECUTE format('INSERT INTO \(historyInFormat) (table_name, operation, key)
                                    SELECT $1, ''INSERT'', ARRAY[%s] FROM new_rows', key_list) USING label;
                    GET DIAGNOSTICS recorded = ROW_COUNT;
                ELSIF TG_OP = 'DELETE' THEN
                    EXECUTE format('INSERT INTO \(historyInFormat) (table_name, operation, key)
                                    SELECT $1, ''DELETE'', ARRAY[%s] FROM old_rows', key_list) USING label;
                    GET DIAGNOSTICS recorded = ROW_COUNT;
                ELSE
                    EXECUTE format('INSERT INTO \(historyInFormat) (table_name, operation, key)
                                    SELECT $1, ''UPDATE'', ARRAY[%s] FROM new_rows', key_list) USING label;
                    GET DIAGNOSTICS recorded = ROW_COUNT;
                    -- A key that an UPDATE changed away from is gone.
                    EXECUTE format('INSERT INTO \(historyInFormat) (table_name, operation, key)
                                    SELECT $1, ''DELETE'', k FROM (SELECT ARRAY[%1$s] AS k FROM old_rows
                                                                   EXCEPT SELECT ARRAY[%1$s] FROM new_rows) AS changed',
                                   key_list) USING label;
                    GET DIAGNOSTICS gone = ROW_COUNT;
                END IF;
                IF recorded + gone > 0 THEN
                    PERFORM pg_notify(\(channel), label);
                END IF;
                RETURN NULL;
            END
            $capture$
            """
    }

    /// Who may do what. No role but the owner executes the capture function (PostgreSQL
    /// checks that right when a trigger is made, not when it fires) or writes the registry.
    /// Every role may add history rows — three columns; the sequence, time and transaction
    /// are the server's — but row-level security lets it add them only under the label of a
    /// registered table it may write (or that its transaction has written, through a view or
    /// a function), and read only those of tables it may read.
    var privileges: String {
        let writes = "'INSERT, UPDATE, DELETE, TRUNCATE'"
        return """
            REVOKE ALL ON FUNCTION \(captureFunction)() FROM PUBLIC;
            REVOKE ALL ON FUNCTION \(guardFunction)(oid) FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION \(guardFunction)(oid) TO PUBLIC;
            REVOKE ALL ON TABLE \(registry) FROM PUBLIC;
            GRANT SELECT ON TABLE \(registry) TO PUBLIC;
            REVOKE ALL ON TABLE \(history) FROM PUBLIC;
            GRANT SELECT, INSERT (table_name, operation, key) ON TABLE \(history) TO PUBLIC;
            ALTER TABLE \(history) ENABLE ROW LEVEL SECURITY;
            DROP POLICY IF EXISTS \(recordPolicy) ON \(history);
            CREATE POLICY \(recordPolicy) ON \(history) FOR INSERT TO PUBLIC WITH CHECK (
                EXISTS (SELECT FROM \(registry) AS r
                        WHERE r.label = table_name
                          AND (pg_catalog.has_table_privilege(r.relid, \(writes))
                               OR pg_catalog.pg_stat_get_xact_tuples_inserted(r.relid)
                                  + pg_catalog.pg_stat_get_xact_tuples_updated(r.relid)
                                  + pg_catalog.pg_stat_get_xact_tuples_deleted(r.relid) > 0)));
            DROP POLICY IF EXISTS \(readPolicy) ON \(history);
            CREATE POLICY \(readPolicy) ON \(history) FOR SELECT TO PUBLIC USING (
                EXISTS (SELECT FROM \(registry) AS r
                        WHERE r.label = table_name AND pg_catalog.has_table_privilege(r.relid, 'SELECT')))
            """
    }

    /// Registers the relation `oid` under `label` (statement parameters `$1`, `$2`).
    var register: String {
        "INSERT INTO \(registry) (relid, label) VALUES ($1::oid, $2) ON CONFLICT (relid) DO UPDATE SET label = excluded.label"
    }

    /// The four triggers on `relation` (a quoted name), guarded by the registry.
    func createTriggers(on relation: String) -> String {
        let guardCondition = "WHEN (\(guardFunction)(\(connection.escapeLiteral(relation))::regclass))"
        let call = "FOR EACH STATEMENT \(guardCondition) EXECUTE FUNCTION \(captureFunction)()"
        return """
            CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(relation) REFERENCING NEW TABLE AS new_rows \(call);
            CREATE TRIGGER \(trigger("update")) AFTER UPDATE ON \(relation)
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows \(call);
            CREATE TRIGGER \(trigger("delete")) AFTER DELETE ON \(relation) REFERENCING OLD TABLE AS old_rows \(call);
            CREATE TRIGGER \(trigger("truncate")) AFTER TRUNCATE ON \(relation) \(call)
            """
    }

    func dropTriggers(on relation: String) -> String {
        ChangeFeedSQL.triggerSuffixes.map { "DROP TRIGGER IF EXISTS \(trigger($0)) ON \(relation)" }
            .joined(separator: ";\n")
    }

    /// Everything the feed made for its tables, once no table uses it.
    var dropAll: String {
        """
        DROP FUNCTION IF EXISTS \(captureFunction)();
        DROP FUNCTION IF EXISTS \(guardFunction)(oid);
        DROP TABLE IF EXISTS \(history);
        DROP TABLE IF EXISTS \(registry)
        """
    }
}
