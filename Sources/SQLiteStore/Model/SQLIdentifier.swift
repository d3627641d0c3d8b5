import CSQLite

/// Writes table and column names into SQL so that any name works: spaces,
/// quotes, keywords, non-ASCII.
///
/// A plain name (`[A-Za-z_][A-Za-z0-9_]*` that is not an SQLite keyword) is
/// left as it is, so the SQL made from this project's own models reads as
/// before; anything else is double-quoted, with `"` doubled.
///
///     SQLIdentifier.quoted("close_date")   // close_date
///     SQLIdentifier.quoted("Close Date")   // "Close Date"
///     SQLIdentifier.quoted("order")        // "order"
///     SQLIdentifier.quoted("say \"hi\"")   // "say ""hi"""
package enum SQLIdentifier {
    /// `name` as an SQL identifier (quoted when it must be).
    package static func quoted(_ name: String) -> String {
        isPlain(name) ? name : alwaysQuoted(name)
    }

    /// `name` double-quoted, whatever it is.
    package static func alwaysQuoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// True for an identifier SQLite reads unquoted as that very name.
    static func isPlain(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard let first = u.first, first == 0x5F || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else { return false }
        for c in u where !(c == 0x5F || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)) {
            return false
        }
        return sqlite3_keyword_check(name, Int32(u.count)) == 0
    }
}
