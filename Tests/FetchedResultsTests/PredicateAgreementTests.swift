import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// Rule 2 of FetchedResults.docc/ChangeBatches.md: predicates and sorts are evaluated in SQL for fetching and in Swift
/// for incremental changes; both must agree exactly, NULLs, case, types and
/// non-ASCII text included. These property tests compare them on random data.
@Suite("SQL and Swift agree")
struct PredicateAgreementTests {
    static let isLong = PropertySettings.isLong
    /// `PROPERTY_QUICK=1` (CI's run under AddressSanitizer): fewer random cases.
    static let isQuick = PropertySettings.isQuick

    static let texts: [String] = [
        "alpha", "Alpha", "ALPHA", "alp", "Émile", "émile", "emile", "e\u{301}mile", "Zeta", "zeta bank", "straße",
        "STRASSE",
        "日本銀行", "", "a*b?c", "100% Bank", "O'Brien", "bank", "Bank of X", "x_y", "[bracket]", "Ünion", "über", "10",
        "5",
        "2010", "2010-05-14", "first state bank", "First State Bank", "FIRST", "ǅemal", "\t tab", "zz",
    ]
    static let keyPaths = [
        "name", "city", "state", "details.closeDate", "details.updatedDate", "details.cert",
        "details.acquiringInstitution", "details.fund", "details.closeYear",
    ]

    /// Fills the store with rows of every storage class, NULLs and missing details.
    static func populate(_ t: TempStore, rows: Int, rng: inout SeededGenerator) throws {
        let db = t.store.database
        func text() -> StoreValue { .text(texts.randomElement(using: &rng)!) }
        func date() -> StoreValue {
            if Int.random(in: 0..<15, using: &rng) == 0 {
                return .text(["2010-1-5", "2010-05-14T10:00:00Z", "abc", ""].randomElement(using: &rng)!)
            }
            return .text(
                String(
                    format: "%04d-%02d-%02d",
                    Int.random(in: 1999...2012, using: &rng),
                    Int.random(in: 1...12, using: &rng),
                    Int.random(in: 1...28, using: &rng)
                )
            )
        }
        func any() -> StoreValue {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return .null
            case 1: return .integer(Int64.random(in: -5...3000, using: &rng))
            case 2: return .real([3.5, -1.25, 10.0, 2010.0, 0.5].randomElement(using: &rng)!)
            case 3: return .text(["12", "abc", " 7", "2010"].randomElement(using: &rng)!)
            case 4: return .blob([0x61, 0x62])
            default: return .integer(Int64.random(in: 0...20, using: &rng))
            }
        }
        try db.transaction {
            for i in 0..<rows {
                try db.run(
                    "INSERT INTO failed_bank_info(name, city, state) VALUES (?, ?, ?)",
                    [
                        text(), Bool.random(using: &rng) ? text() : .text("Springfield"),
                        .text(["CA", "ca", "TX", "NY", "Ny", "", "IL", "É"].randomElement(using: &rng)!),
                    ]
                )
                let infoID = db.lastInsertRowID
                if Int.random(in: 0..<6, using: &rng) == 0 { continue }  // no details: every details.* is NULL
                try db.run(
                    """
                    INSERT INTO failed_bank_details(close_date, updated_date, cert, acquiring_institution, fund, info_id)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        date(), Bool.random(using: &rng) ? .null : date(), .integer(Int64(i) * 7 + 1),
                        Bool.random(using: &rng) ? .null : text(), any(), .integer(infoID),
                    ]
                )
            }
        }
    }

    // MARK: Random predicates

    struct Generator {
        var rng: SeededGenerator

        mutating func pick<T>(_ a: [T]) -> T { a.randomElement(using: &rng)! }
        mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

        mutating func caseVariant(_ s: String) -> String {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return s.uppercased()
            case 1: return s.lowercased()
            case 2: return String(s.prefix(Int.random(in: 0...max(0, s.count), using: &rng)))
            default: return s
            }
        }

        mutating func literal() -> StoreValue {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: return .null
            case 1, 2: return .integer(pick([-3, 0, 5, 7, 10, 12, 20, 2010, 3000]))
            case 3: return .real(pick([3.5, 2010.0, 0.5, -1.25, 12.0]))
            case 4:
                return .text(
                    String(
                        format: "%04d-%02d-%02d",
                        Int.random(in: 1999...2012, using: &rng),
                        Int.random(in: 1...12, using: &rng),
                        1
                    )
                )
            default: return .text(caseVariant(pick(PredicateAgreementTests.texts)))
            }
        }

        mutating func pattern() -> StoreValue {
            if chance(12) { return .null }
            let base = caseVariant(pick(PredicateAgreementTests.texts))
            let scalars = Array(base.unicodeScalars)
            guard !scalars.isEmpty else { return .text("") }
            let a = Int.random(in: 0..<scalars.count, using: &rng)
            let b = Int.random(in: a...scalars.count, using: &rng)
            var s = String(String.UnicodeScalarView(scalars[a..<b]))
            if chance(3) { s = caseVariant(s) }
            return .text(s)
        }

        mutating func likePattern() -> StoreValue {
            var s = ""
            let base = Array(caseVariant(pick(PredicateAgreementTests.texts)).unicodeScalars)
            for c in base {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: s += "*"
                case 1: s += "?"
                case 2: continue
                default:
                    if c == "*" || c == "?" || c == "\\" { s += "\\" }
                    s.unicodeScalars.append(c)
                }
            }
            if chance(2) { s += "*" }
            if chance(3) { s = "*" + s }
            return .text(s)
        }

        mutating func comparison() -> PredicateTree {
            let k = pick(PredicateAgreementTests.keyPaths)
            let ci = chance(3)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                return .comparison(
                    PredicateComparison(
                        .keyPath(k),
                        .in,
                        list: (0..<Int.random(in: 0...4, using: &rng)).map { _ in literal() },
                        caseInsensitive: ci
                    )
                )
            case 1:
                return .comparison(
                    PredicateComparison(.keyPath(k), .between, list: [literal(), literal()], caseInsensitive: ci)
                )
            case 2, 3:
                let op: PredicateOperator = pick([.contains, .beginsWith, .endsWith, .like])
                let p = op == .like ? likePattern() : pattern()
                if op != .like && chance(6) {
                    return .comparison(
                        PredicateComparison(
                            .keyPath(k),
                            op,
                            .keyPath(pick(PredicateAgreementTests.keyPaths)),
                            caseInsensitive: ci
                        )
                    )
                }
                return .comparison(PredicateComparison(.keyPath(k), op, .value(p), caseInsensitive: ci))
            default:
                let op: PredicateOperator = pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
                if chance(8) {
                    return .comparison(
                        PredicateComparison(
                            .keyPath(k),
                            op,
                            .keyPath(pick(PredicateAgreementTests.keyPaths)),
                            caseInsensitive: ci
                        )
                    )
                }
                if chance(8) {
                    return .comparison(PredicateComparison(.value(literal()), op, .keyPath(k), caseInsensitive: ci))
                }
                return .comparison(PredicateComparison(.keyPath(k), op, .value(literal()), caseInsensitive: ci))
            }
        }

        mutating func expression(depth: Int = 0) -> PredicateTree {
            if depth >= 3 || chance(depth == 0 ? 4 : 2) {
                if chance(40) { return chance(2) ? .alwaysTrue : .alwaysFalse }
                return comparison()
            }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .not(expression(depth: depth + 1))
            case 1: return .and(expression(depth: depth + 1), expression(depth: depth + 1))
            default: return .or(expression(depth: depth + 1), expression(depth: depth + 1))
            }
        }
    }

    /// The format string (values as %@ arguments) that parses back to `e`.
    static func format(_ e: PredicateTree, _ args: inout [StoreValue]) -> String {
        func operand(_ o: PredicateOperand) -> String {
            switch o {
            case .keyPath(let k): return k
            case .value(let v):
                args.append(v)
                return "%@"
            }
        }
        switch e {
        case .alwaysTrue: return "TRUEPREDICATE"
        case .alwaysFalse: return "FALSEPREDICATE"
        case .not(let x): return "NOT (\(format(x, &args)))"
        case .and(let a, let b):
            let l = format(a, &args)
            return "(\(l)) AND (\(format(b, &args)))"
        case .or(let a, let b):
            let l = format(a, &args)
            return "(\(l)) OR (\(format(b, &args)))"
        case .comparison(let c):
            let m = c.caseInsensitive ? "[c]" : ""
            switch c.op {
            case .in, .between:
                let l = operand(c.left)
                let items = c.list.map { v -> String in
                    args.append(v)
                    return "%@"
                }.joined(separator: ", ")
                return "\(l) \(c.op.rawValue)\(m) {\(items)}"
            default:
                let l = operand(c.left)
                return "\(l) \(c.op.rawValue)\(m) \(operand(c.right))"
            }
        }
    }

    static let seeds: [UInt64] = [1, 2, 3, 0xFE7C_4ED5, 20_240_601]

    @Test(arguments: seeds)
    func randomPredicatesSelectTheSameRowsInSQLAndSwift(seed: UInt64) throws {
        let t = try TempStore()
        var rng = SeededGenerator(seed: seed)
        try Self.populate(t, rows: 240, rng: &rng)
        let objects = try t.context.fetch("FailedBankInfo")
        let model = t.store.model
        var gen = Generator(rng: SeededGenerator(seed: seed &* 31 &+ 7))
        let count = Self.isLong ? 20_000 : Self.isQuick ? 100 : 400
        for n in 0..<count {
            let tree = gen.expression()
            // The format round-trips through the parser.
            var args: [StoreValue] = []
            let text = Self.format(tree, &args)
            let parsed = try FetchPredicate(text, arguments: args)
            #expect(parsed.expression == tree, "seed \(seed) #\(n): \(text) parsed differently")
            let predicate = FetchPredicate(tree)
            let source = try model.sqlSource(root: "FailedBankInfo", keyPaths: predicate.keyPaths)
            let fragment = try predicate.sql(in: source)
            var sqlTruth: [Int64: Bool?] = [:]
            try t.store.database.forEachRow("SELECT t0.id, (\(fragment.sql)) FROM \(source.from)", fragment.arguments) {
                row in
                sqlTruth[row.int64(at: 0)] = row.isNull(at: 1) ? nil : row.int64(at: 1) != 0
            }
            for object in objects {
                // With the columns' affinities, as the controller evaluates (issue 38.9).
                let swift = predicate.evaluate(
                    { object.value(forKeyPath: $0) },
                    affinity: { (try? source.affinity(forKeyPath: $0)) ?? nil }
                )
                let sql = sqlTruth[object.objectID.rowID]!
                if swift != sql {
                    let values = predicate.keyPaths.map { "\($0)=\(object.value(forKeyPath: $0))" }.joined(
                        separator: " "
                    )
                    Issue.record(
                        "seed \(seed) #\(n): \(text) args \(args) — row \(object.objectID.rowID) [\(values)]: SQL \(String(describing: sql)), Swift \(String(describing: swift))\nSQL: \(fragment.sql)"
                    )
                    return
                }
            }
        }
    }

    @Test(arguments: seeds)
    func randomSortsOrderTheSameInSQLAndSwiftAndPrefixesAreMonotonic(seed: UInt64) throws {
        let t = try TempStore()
        var rng = SeededGenerator(seed: seed)
        try Self.populate(t, rows: 200, rng: &rng)
        let objects = try t.context.fetch("FailedBankInfo")
        var gen = Generator(rng: SeededGenerator(seed: seed ^ 0xABCD))
        let rounds = Self.isLong ? 400 : Self.isQuick ? 10 : 40
        for n in 0..<rounds {
            var sorts: [FetchSort] = []
            for _ in 0..<Int.random(in: 1...3, using: &gen.rng) {
                sorts.append(
                    FetchSort(
                        gen.pick(Self.keyPaths),
                        ascending: gen.chance(2),
                        comparison: gen.chance(2) ? .binary : .caseInsensitive
                    )
                )
            }
            var request = FetchRequest(entity: "FailedBankInfo")
            request.sortDescriptors = sorts
            let controller = FetchedResultsController(fetchRequest: request, context: t.context)
            try controller.performFetch()
            let fetched = controller.fetchedObjects.objectIDs
            let swift = objects.sorted { a, b in
                for s in sorts {
                    let c = s.compare(a.value(forKeyPath: s.keyPath), b.value(forKeyPath: s.keyPath))
                    if c != 0 { return c < 0 }
                }
                return a.objectID.rowID < b.objectID.rowID
            }.map(\.objectID)
            #expect(fetched == swift, "seed \(seed) #\(n): sorts \(sorts)")

            // Prefixes never contradict the full comparison.
            let plan = controller.plan!
            let values = objects.map { o in plan.valueKeyPaths.map { o.value(forKeyPath: $0) } }
            let prefixes = values.map { plan.prefix(of: $0) }
            for _ in 0..<400 {
                let a = Int.random(in: 0..<objects.count, using: &gen.rng)
                let b = Int.random(in: 0..<objects.count, using: &gen.rng)
                let full = plan.compareRows(values[a], 0, values[b], 0)
                if let c = SortPrefix.compare(prefixes[a], prefixes[b]), c != full {
                    Issue.record(
                        "seed \(seed) #\(n): prefix says \(c), values say \(full): \(values[a]) vs \(values[b]) sorts \(sorts)"
                    )
                    return
                }
            }
        }
    }

    @Test func nullComparisonsAreUnknownAndExcludedEvenUnderNot() throws {
        let p = try FetchPredicate("details.fund > 5")
        #expect(p.evaluate { _ in .null } == nil)
        #expect(p.negated().evaluate { _ in .null } == nil)
        #expect(!p.negated().matches { _ in .null })
        #expect(try FetchPredicate("details.fund == nil").matches { _ in .null })
        #expect(try FetchPredicate("details.fund != nil").evaluate { _ in .null } == false)
        #expect(try FetchPredicate("state IN {'CA', nil}").evaluate { _ in .text("TX") } == nil)
        #expect(try FetchPredicate("state IN {}").evaluate { _ in .null } == false)
    }

    @Test func caseInsensitiveFoldsAsciiOnlyLikeSQLite() throws {
        let p = try FetchPredicate("name ==[c] 'émile'")
        #expect(p.matches { _ in .text("éMILE") })
        #expect(!p.matches { _ in .text("ÉMILE") })
        #expect(try FetchPredicate("name CONTAINS[c] 'BANK'").matches { _ in .text("First bank") })
        #expect(try FetchPredicate("name LIKE[c] 'f*K'").matches { _ in .text("First bank") })
        #expect(!(try FetchPredicate("name LIKE 'f*K'").matches { _ in .text("First bank") }))
    }

    @Test func typesCompareInSQLiteOrderWithoutConversion() throws {
        #expect(!(try FetchPredicate("details.cert == '5'").matches { _ in .integer(5) }))
        #expect(try FetchPredicate("name > 5").matches { _ in .text("a") })
        #expect(try FetchPredicate("details.fund == 2").matches { _ in .real(2.0) })
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let t = try TempStore()
        let p = try FetchPredicate(
            "name == %@ OR city CONTAINS \"x'); DROP TABLE failed_bank_info; --\"",
            .text("O'Brien")
        )
        let source = try t.store.model.sqlSource(root: "FailedBankInfo", keyPaths: p.keyPaths)
        let f = try p.sql(in: source)
        #expect(!f.sql.contains("O'Brien"))
        #expect(!f.sql.contains("DROP"))
        #expect(f.arguments.contains(.text("O'Brien")))
    }
}
