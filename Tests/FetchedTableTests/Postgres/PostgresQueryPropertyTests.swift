import Foundation
import TestSupport
import Testing

/// `fetchedtable list URL --query Q --format json` against `psql` for queries generated over a
/// generated schema on the tests' throwaway server: two or three tables of random column types
/// (integers of each width, `numeric` with and without a scale, `double precision` and `real`
/// with `NaN` and the infinities, text with Unicode, quotes and empty strings, booleans,
/// `bytea`, dates, `timestamptz`, `jsonb`), NULLs anywhere, and SELECTs with projections, WHERE,
/// joins (inner and LEFT), GROUP BY with aggregates, each ordered by every column it returns (so
/// that the two row orders are the same: rows equal in every column are the same row). Seeded
/// (``PropertySettings``: `PROPERTY_SEED` replays a failure, `PROPERTY_LONG=1` runs many more).
///
/// A value is psql's when it is the same text, the same number, or the same boolean
/// (``PostgresQueryTests/same(_:_:)``): the documented mapping of server values to JSON.
@Suite(
    .serialized,
    .enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? ""))
)
struct PostgresQueryPropertyTests {
    @Test func listOfAGeneratedQueryHasPsqlsValues() throws {
        let seed = PropertySettings.seed(default: 0x50_47)
        var random = SplitMix64(seed: seed)
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let schema = GeneratedServerSchema(random: &random)
        try fixture.psql(schema.sql)
        var failures = 0
        var valuesCompared = 0
        for round in 0..<PropertySettings.cases(normal: 40, long: 400, quick: 10) {
            let query = schema.query(random: &random)
            let context = "round \(round): \(query.sql) \(PropertySettings.replay(seed))"
            let expected = try PostgresQueryTests.psqlRows(fixture, query.sql)
            let listed: [[String: Any]]
            do {
                listed = try PostgresQueryTests.listedRows(fixture, ["--query", query.sql])
            } catch {
                Issue.record("\(context): \(error)")
                failures += 1
                if failures >= 5 { break }
                continue
            }
            var differs = listed.count != expected.count
            #expect(listed.count == expected.count, "\(context): \(listed.count) rows, psql \(expected.count)")
            for (row, fields) in zip(listed, expected) {
                #expect(fields.count == query.columns.count, "\(context): psql printed \(fields)")
                valuesCompared += fields.count
                for (column, text) in zip(query.columns, fields) where !PostgresQueryTests.same(row[column], text) {
                    differs = true
                    Issue.record(
                        "\(context): \(column) is \(String(describing: row[column])), psql says \(text ?? "NULL")"
                    )
                }
            }
            if differs {
                failures += 1
                if failures >= 5 { break }
            }
        }
        #expect(valuesCompared > 0, "no query returned a row: nothing was compared")
    }
}

/// Two or three tables `t0`…: `id bigint PRIMARY KEY`, `k` (a small integer to join on, or NULL),
/// and two to four columns of random types holding random values of that type, or NULL.
struct GeneratedServerSchema {
    struct Table {
        var name: String
        /// Every column but `id` and `k`: name and type.
        var columns: [(name: String, type: String)]
    }

    var tables: [Table] = []
    var sql = ""

    static let types = [
        "smallint", "integer", "bigint", "numeric", "numeric(12,3)", "double precision", "real", "text", "boolean",
        "bytea", "date", "timestamptz", "jsonb",
    ]
    /// Types `sum` and `avg` take.
    static let additive: Set<String> = [
        "smallint", "integer", "bigint", "numeric", "numeric(12,3)", "double precision", "real",
    ]
    /// Types `min` and `max` take.
    static let ordered = additive.union(["text", "date", "timestamptz"])
    static let texts = [
        "", "a", "Zoë", "naïve café", "日本語", "emoji 🧪✨", "it's", "quote \" back \\ slash", "tab\there",
        "Ärger", "abc", "ABC", "10", "3.5", "NULL", "Ω≈ç√",
    ]

    init(random: inout SplitMix64) {
        var statements: [String] = []
        for t in 0..<Int.random(in: 2...3, using: &random) {
            var table = Table(name: "t\(t)", columns: [])
            for c in 0..<Int.random(in: 2...4, using: &random) {
                table.columns.append(("c\(c)", GeneratedServerSchema.types.randomElement(using: &random)!))
            }
            let definitions =
                ["id bigint PRIMARY KEY", "k integer"] + table.columns.map { "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE \(table.name) (\(definitions.joined(separator: ", ")));")
            for id in 1...Int.random(in: 5...25, using: &random) {
                let k =
                    Int.random(in: 0..<8, using: &random) == 0 ? "NULL" : String(Int.random(in: 0...5, using: &random))
                let values =
                    [String(id), k] + table.columns.map { GeneratedServerSchema.value(of: $0.type, random: &random) }
                statements.append("INSERT INTO \(table.name) VALUES (\(values.joined(separator: ", ")));")
            }
            tables.append(table)
        }
        sql = statements.joined(separator: "\n")
    }

    /// A random literal of `type`, or NULL.
    static func value(of type: String, random: inout SplitMix64) -> String {
        if Int.random(in: 0..<6, using: &random) == 0 { return "NULL" }
        switch type {
        case "smallint": return String(Int16.random(in: .min ... .max, using: &random))
        case "integer": return String(Int32.random(in: .min ... .max, using: &random))
        case "bigint":
            return Bool.random(using: &random)
                ? String(Int64.random(in: .min ... .max, using: &random))
                : String(Int.random(in: -99...99, using: &random))
        case "numeric", "numeric(12,3)":
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return "'NaN'"
            case 1: return "123456789.125"
            default:
                let whole = Int.random(in: -999_999...999_999, using: &random)
                return "\(whole).\(Int.random(in: 0...9999, using: &random))"
            }
        case "double precision", "real":
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return "'NaN'"
            case 1: return "'Infinity'"
            case 2: return "'-Infinity'"
            default:
                let value =
                    Double(Int.random(in: -1_000_000...1_000_000, using: &random))
                    / Double([1, 3, 7, 100, 1024].randomElement(using: &random)!)
                return "'\(value)'"
            }
        case "text": return quoted(texts.randomElement(using: &random)!)
        case "boolean": return Bool.random(using: &random) ? "true" : "false"
        case "bytea":
            let bytes = (0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
            }
            return "'\\x" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        case "date": return "DATE '2024-01-01' + \(Int.random(in: -40_000...40_000, using: &random))"
        case "timestamptz":
            return
                "TIMESTAMPTZ '2024-01-01 00:00:00+00' + interval '\(Int.random(in: -2_000_000_000...2_000_000_000, using: &random)) milliseconds'"
        default:  // jsonb
            return quoted(
                "{\"a\": [1, \(Int.random(in: 0...9, using: &random))], \"b\": \(quotedJSON(texts.randomElement(using: &random)!))}"
            )
        }
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    static func quotedJSON(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text])
        return data.map { String(decoding: $0, as: UTF8.self).dropFirst().dropLast() }.map(String.init) ?? "\"\""
    }

    /// A generated SELECT over some of the tables, ordered by every column it returns; its
    /// columns' names (`x0`, `x1`…) in order.
    func query(random: inout SplitMix64) -> (sql: String, columns: [String]) {
        let first = tables.randomElement(using: &random)!
        var from = "\(first.name) a"
        var sources: [(alias: String, table: Table)] = [("a", first)]
        if Bool.random(using: &random) {
            let second = tables.randomElement(using: &random)!
            let join = Bool.random(using: &random) ? "JOIN" : "LEFT JOIN"
            from += " \(join) \(second.name) b ON b.k = a.k"
            sources.append(("b", second))
        }
        func column(_ random: inout SplitMix64) -> (reference: String, type: String) {
            let (alias, table) = sources.randomElement(using: &random)!
            let columns = [("id", "bigint"), ("k", "integer")] + table.columns
            let (name, type) = columns.randomElement(using: &random)!
            return ("\(alias).\(name)", type)
        }
        var expressions: [String] = []
        var filter = ""
        if Int.random(in: 0..<3, using: &random) == 0 {
            filter =
                " WHERE a.k \(["<", ">=", "<>"].randomElement(using: &random)!) \(Int.random(in: 0...5, using: &random))"
        } else if Bool.random(using: &random) {
            filter = " WHERE \(column(&random).reference) IS NOT NULL"
        }
        var grouping = ""
        if Int.random(in: 0..<3, using: &random) == 0 {
            let group = column(&random)
            expressions.append(group.reference)
            expressions.append("count(*)")
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let aggregated = column(&random)
                if GeneratedServerSchema.additive.contains(aggregated.type) {
                    expressions.append(
                        "\(["sum", "avg", "min", "max"].randomElement(using: &random)!)(\(aggregated.reference))"
                    )
                } else if GeneratedServerSchema.ordered.contains(aggregated.type) {
                    expressions.append("\(["min", "max"].randomElement(using: &random)!)(\(aggregated.reference))")
                } else {
                    expressions.append("count(\(aggregated.reference))")
                }
            }
            grouping = " GROUP BY \(group.reference)"
        } else {
            for _ in 0..<Int.random(in: 1...5, using: &random) { expressions.append(column(&random).reference) }
        }
        let names = expressions.indices.map { "x\($0)" }
        let select = zip(expressions, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
        let order = names.joined(separator: ", ")
        return ("SELECT \(select) FROM \(from)\(filter)\(grouping) ORDER BY \(order)", names)
    }
}
