import Foundation
import TestSupport
import Testing

/// `fetchedtable list FILE --query Q --format json` against `sqlite3 -json FILE Q`, for queries
/// generated over a generated schema: two or three tables of random declared types holding
/// NULLs, integers, reals, Unicode text and blobs (whatever the declared type: SQLite keeps what
/// its affinity cannot convert), and SELECTs with projections, WHERE, joins (inner and LEFT),
/// GROUP BY with aggregates and ORDER BY. Seeded (``PropertySettings``: `PROPERTY_SEED` replays a
/// failure, `PROPERTY_LONG=1` runs many more).
///
/// What is documented to differ is normalised, and only that: the keys' order (objects compared as
/// dictionaries); the row's identity `_rowid` (ours alone); a blob, which `list` writes as its
/// `x'…'` hex text (ListAndWatchFormats) and the shell as raw bytes — the shell is given the same
/// query with each column wrapped to print a blob as that text; a real, which the shell writes with
/// 20 significant digits and `list` with the fewest that read back the same (both read as the same
/// double). A query without ORDER BY compares its rows as a multiset; one with ORDER BY in order.
@Suite(.serialized, .enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableQueryPropertyTests {
    @Test func listOfAGeneratedQueryEqualsSqlite3sJSON() throws {
        let seed = PropertySettings.seed(default: 0x51_4C)
        var random = SplitMix64(seed: seed)
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let schema = GeneratedSchema(random: &random)
        let path = fixture.directory.appendingPathComponent("generated.sqlite").path
        let made = try ProcessRunner.run(try #require(TableFixture.sqlite3), [path, schema.sql])
        try #require(made.status == 0, "the generated schema: \(made.standardError)\n\(schema.sql)")
        var failures = 0
        for round in 0..<PropertySettings.cases(normal: 200, long: 2_000, quick: 40) {
            let query = schema.query(random: &random)
            let list = try fixture.run(["list", path, "--query", query.sql, "--format", "json"])
            let shell = try ProcessRunner.run(
                try #require(TableFixture.sqlite3),
                ["-json", path, query.wrappedForTheShell]
            )
            guard shell.status == 0 else {
                // An error of the run itself (sum() past an integer's range): fetchedtable fails it too.
                #expect(
                    list.status != 0,
                    """
                    round \(round): sqlite3 refused \(query.sql) (\(shell.standardError)), fetchedtable listed it \
                    \(PropertySettings.replay(seed))
                    """
                )
                continue
            }
            #expect(
                list.status == 0,
                "round \(round): \(query.sql): \(list.standardError) \(PropertySettings.replay(seed))"
            )
            guard list.status == 0 else {
                failures += 1
                if failures >= 5 { break }
                continue
            }
            var ours = try TableQueryTests.listed(Self.shortestReals(list.standardOutput))
            var theirs = try Self.rows(of: Self.shortestReals(shell.standardOutput))
            if !query.isOrdered {
                ours = Self.sorted(ours)
                theirs = Self.sorted(theirs)
            }
            #expect(
                ours == theirs,
                """
                round \(round): \(query.sql)
                fetchedtable: \(list.standardOutput)
                sqlite3: \(shell.standardOutput)
                \(PropertySettings.replay(seed))
                """
            )
            if ours != theirs {
                failures += 1
                if failures >= 5 { break }
            }
        }
    }

    /// The rows of `sqlite3 -json`'s output (nothing at all for no rows).
    static func rows(of output: String) throws -> [NSDictionary] {
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return [] }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [NSDictionary])
    }

    /// `json` with every real number written with the fewest digits that read back as the same
    /// double (`236.53000000000000114` → `236.53`): the shell writes 20 significant digits, `list`
    /// the fewest, and JSONSerialization reads many digits as a decimal, not as that double.
    static func shortestReals(_ json: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var number = ""
        func flush() {
            guard !number.isEmpty else { return }
            let isReal = number.contains { $0 == "." || $0 == "e" || $0 == "E" }
            out += isReal ? Double(number).map { "\($0)" } ?? number : number
            number = ""
        }
        for character in json {
            if inString {
                out.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character.isNumber || "+-.eE".contains(character) {
                number.append(character)
            } else {
                flush()
                if character == "\"" { inString = true }
                out.append(character)
            }
        }
        flush()
        return out
    }

    /// Rows in an order of their own (their JSON text, keys sorted): for a query without ORDER BY.
    static func sorted(_ rows: [NSDictionary]) -> [NSDictionary] {
        func text(_ row: NSDictionary) -> String {
            let data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return rows.map { (text($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// Two or three tables `t0`…: `id INTEGER PRIMARY KEY`, `k` (a small integer to join on, or
/// NULL), and two to four columns of random declared types holding random values of any kind.
struct GeneratedSchema {
    struct Table {
        var name: String
        /// Every column but `id` and `k`: name and declared type.
        var columns: [(name: String, type: String)]
    }

    var tables: [Table] = []
    var sql = ""

    static let types = ["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", ""]
    static let texts = [
        "", "a", "Zoë", "naïve café", "日本語", "emoji 🧪✨", "it's", "quote \" back \\ slash", "tab\tand\nline",
        "Ärger", "abc", "ABC", "10", "3.5", "mixed 1", "Ω≈ç√",
    ]

    init(random: inout SplitMix64) {
        var statements: [String] = []
        for t in 0..<Int.random(in: 2...3, using: &random) {
            var table = Table(name: "t\(t)", columns: [])
            for c in 0..<Int.random(in: 2...4, using: &random) {
                table.columns.append(("c\(c)", GeneratedSchema.types.randomElement(using: &random)!))
            }
            let definitions =
                ["id INTEGER PRIMARY KEY", "k INTEGER"]
                + table.columns.map { $0.type.isEmpty ? $0.name : "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE \(table.name) (\(definitions.joined(separator: ", ")));")
            for _ in 0..<Int.random(in: 5...30, using: &random) {
                let k =
                    Int.random(in: 0..<8, using: &random) == 0 ? "NULL" : String(Int.random(in: 0...5, using: &random))
                let values = [k] + table.columns.map { _ in GeneratedSchema.value(random: &random) }
                statements.append(
                    "INSERT INTO \(table.name) (k, \(table.columns.map(\.name).joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
                )
            }
            tables.append(table)
        }
        sql = statements.joined(separator: "\n")
    }

    /// A random literal: NULL, an integer, a real, text or a blob.
    static func value(random: inout SplitMix64) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return "NULL"
        case 2, 3: return String(Int64.random(in: -1_000...1_000, using: &random))
        case 4: return String(Int64.random(in: Int64.min / 2...Int64.max / 2, using: &random))
        case 5, 6:
            let value =
                Double(Int.random(in: -100_000...100_000, using: &random))
                / Double([1, 3, 7, 100, 1024].randomElement(using: &random)!)
            return String(value)
        case 7, 8: return "'" + texts.randomElement(using: &random)!.replacingOccurrences(of: "'", with: "''") + "'"
        default:
            let bytes = (0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
            }
            return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    /// A generated SELECT over some of the tables.
    func query(random: inout SplitMix64) -> GeneratedQuery {
        let first = tables.randomElement(using: &random)!
        var from = "\(first.name) a"
        var sources: [(alias: String, table: Table)] = [("a", first)]
        if Bool.random(using: &random) {
            let second = tables.randomElement(using: &random)!
            let join = Bool.random(using: &random) ? "JOIN" : "LEFT JOIN"
            from += " \(join) \(second.name) b ON b.k = a.k"
            sources.append(("b", second))
        }
        func column(_ random: inout SplitMix64) -> String {
            let (alias, table) = sources.randomElement(using: &random)!
            let names = ["id", "k"] + table.columns.map(\.name)
            return "\(alias).\(names.randomElement(using: &random)!)"
        }
        func expression(_ random: inout SplitMix64) -> String {
            let c = column(&random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return "\(c) + 1"
            case 1: return "\(c) || '·'"
            case 2: return "length(\(c))"
            case 3: return "typeof(\(c))"
            case 4: return "\(c) * 0.5"
            default: return c
            }
        }
        var projections: [String] = []
        var groupBy = ""
        if Int.random(in: 0..<3, using: &random) == 0 {
            let key = column(&random)
            groupBy = " GROUP BY \(key)"
            projections.append(key)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let c = column(&random)
                projections.append(
                    ["count(*)", "count(\(c))", "sum(\(c))", "min(\(c))", "max(\(c))", "avg(\(c))", "total(\(c))"]
                        .randomElement(using: &random)!
                )
            }
        } else {
            for _ in 0..<Int.random(in: 1...4, using: &random) { projections.append(expression(&random)) }
        }
        var whereClause = ""
        if Bool.random(using: &random) {
            let conditions = (0..<Int.random(in: 1...2, using: &random)).map { _ -> String in
                let c = column(&random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: return "\(c) IS NULL"
                case 1: return "\(c) IS NOT NULL"
                case 2: return "\(c) > \(Int.random(in: -50...50, using: &random))"
                case 3: return "\(c) LIKE '%a%'"
                default: return "typeof(\(c)) IN ('integer', 'real')"
                }
            }
            whereClause = " WHERE " + conditions.joined(separator: Bool.random(using: &random) ? " AND " : " OR ")
        }
        let names = projections.indices.map { "r\($0)" }
        let select = zip(projections, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
        var sql = "SELECT \(select) FROM \(from)\(whereClause)\(groupBy)"
        let isOrdered = Bool.random(using: &random)
        if isOrdered {
            // The order made total: the chosen terms first, then every column of the result.
            let terms = names.shuffled(using: &random).prefix(Int.random(in: 1...names.count, using: &random))
                .map { $0 + (Bool.random(using: &random) ? " DESC" : "") }
            sql += " ORDER BY " + (terms + names.indices.map { String($0 + 1) }).joined(separator: ", ")
        }
        return GeneratedQuery(sql: sql, columns: names, isOrdered: isOrdered)
    }
}

/// A generated query, and what the test knows of it.
struct GeneratedQuery {
    var sql: String
    /// The result's column names.
    var columns: [String]
    /// Whether its ORDER BY makes the order total.
    var isOrdered: Bool

    /// The query as the shell is given it: each blob written as `list` writes it, its `x'…'` text
    /// (the outer SELECT keeps the inner one's order).
    var wrappedForTheShell: String {
        let outer = columns.map { name in
            "CASE typeof(\(name)) WHEN 'blob' THEN 'x''' || hex(\(name)) || '''' ELSE \(name) END AS \(name)"
        }
        return "SELECT \(outer.joined(separator: ", ")) FROM (\(sql))"
    }
}
