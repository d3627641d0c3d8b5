/// Quoting of SQL identifiers (table, column, channel names) for PostgreSQL.
public enum SQLIdentifier {
    /// `name` in double quotes with embedded quotes doubled — the text
    /// `PQescapeIdentifier` makes for any Swift string (always valid UTF-8):
    /// `order` → `"order"`, `a"b` → `"a""b"`.
    public static func quote(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// A schema-qualified name, each part quoted: `"public"."events"`.
    public static func quote(schema: String, name: String) -> String {
        quote(schema) + "." + quote(name)
    }
}
