import PostgreSQLClient

/// The DDL of a change feed, with every name quoted.
struct ChangeFeedSQL {
    static let triggerSuffixes = ["insert", "update", "delete", "truncate"]

    let feed: ChangeFeed
    let connection: PostgresConnection

    private var history: String { feed.historyTable.quoted }
    /// The history table's name inside a `format()` string literal.
    private var historyInFormat: String { history.replacing("'", with: "''").replacing("%", with: "%%") }
    private var base: String { feed.configuration.historyTable }
    private var schema: String { SQLIdentifier.quote(feed.historyTable.schema) }
    private var captureFunction: String { schema + "." + SQLIdentifier.quote(base + "_capture") }
    private func trigger(_ suffix: String) -> String { SQLIdentifier.quote("\(base)_\(suffix)") }

    /// The function's signature for `to_regprocedure`.
    var captureFunctionSignature: String { captureFunction + "()" }

    var createHistory: String {
        """
        CREATE TABLE IF NOT EXISTS \(history) (
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

    /// TG_ARGV: [0] the table's label, [1] the channel, [2…] the key columns.
    var createCaptureFunction: String {
        """
        CREATE OR REPLACE FUNCTION \(captureFunction)() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $capture$
        DECLARE
            label text := TG_ARGV[0];
            channel text := TG_ARGV[1];
            key_list text;
            recorded bigint := 0;
            gone bigint := 0;
        BEGIN
            SELECT string_agg(format('%I::text', k), ', ') INTO key_list FROM unnest(TG_ARGV[2:]) AS k;
            IF TG_OP = 'TRUNCATE' THEN
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
                PERFORM pg_notify(channel, label);
            END IF;
            RETURN NULL;
        END
        $capture$
        """
    }

    var createTriggers: String {
        let arguments = ([feed.tableLabel, feed.configuration.channel] + feed.keyColumns)
            .map(connection.escapeLiteral).joined(separator: ", ")
        let table = feed.table.quoted
        let call = "FOR EACH STATEMENT EXECUTE FUNCTION \(captureFunction)(\(arguments))"
        return """
            CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(table) REFERENCING NEW TABLE AS new_rows \(call);
            CREATE TRIGGER \(trigger("update")) AFTER UPDATE ON \(table)
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows \(call);
            CREATE TRIGGER \(trigger("delete")) AFTER DELETE ON \(table) REFERENCING OLD TABLE AS old_rows \(call);
            CREATE TRIGGER \(trigger("truncate")) AFTER TRUNCATE ON \(table) \(call)
            """
    }

    var dropTriggers: String {
        ChangeFeedSQL.triggerSuffixes.map { "DROP TRIGGER IF EXISTS \(trigger($0)) ON \(feed.table.quoted)" }
            .joined(separator: ";\n")
    }

    var dropHistory: String {
        "DROP TABLE \(history); DROP FUNCTION \(captureFunction)()"
    }
}
