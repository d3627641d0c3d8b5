/// A piece of SQL with its bound arguments, in the order of the `?`s.
///
///     let where_ = try predicate.sql(in: source)
///     let rows = try db.query("SELECT t0.id FROM \(source.from) WHERE \(where_.sql)", where_.arguments)
public struct SQLFragment: Sendable, Hashable {
    /// The SQL text, with `?` placeholders.
    public var sql: String
    /// The values bound to the placeholders, in order.
    public var arguments: [StoreValue]

    /// A fragment of `sql` with its `arguments`.
    public init(sql: String, arguments: [StoreValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension FetchPredicate {
    /// Compiles the predicate to a SQL boolean expression over `source`
    /// (made with SQLiteStore's `Model.sqlSource(root:keyPaths:)` for all of ``keyPaths``); values are bound.
    ///
    /// The result is NULL where the Swift evaluation is unknown, 1 where it
    /// is true and 0 where it is false.
    ///
    ///     let source = try model.sqlSource(root: "Book", keyPaths: predicate.keyPaths)
    ///     let fragment = try predicate.sql(in: source)
    ///     // SELECT t0.id FROM \(source.from) WHERE \(fragment.sql)
    public func sql(in source: SQLSource) throws -> SQLFragment {
        var compiler = PredicateSQLCompiler(source: source)
        let sql = try compiler.compile(expression)
        return SQLFragment(sql: sql, arguments: compiler.arguments)
    }
}

/// Turns a ``PredicateTree`` into SQL that means exactly what
/// ``FetchPredicate/evaluate(_:affinity:)`` computes with the source's affinities.
///
/// Affinity: a comparison converts its operands as SQLite's affinity rules say (a value
/// compared with an INTEGER column takes the column's affinity: `'6'` is 6; with a TEXT
/// column, `2020` is `'2020'`). The SQL compares the plain columns, so SQLite does it (and
/// indexes stay usable); a key path whose SQL is an expression that might still carry one
/// (a derived attribute) is written `(+…)`, which has none, as the Swift side assumes.
struct PredicateSQLCompiler {
    let source: SQLSource
    private(set) var arguments: [StoreValue] = []

    init(source: SQLSource) { self.source = source }

    mutating func compile(_ e: PredicateTree) throws -> String {
        switch e {
        case .alwaysTrue: return "1"
        case .alwaysFalse: return "0"
        case .not(let x): return "(NOT \(try compile(x)))"
        case .and(let a, let b):
            let l = try compile(a)
            return "(\(l) AND \(try compile(b)))"
        case .or(let a, let b):
            let l = try compile(a)
            return "(\(l) OR \(try compile(b)))"
        case .comparison(let c): return try comparison(c)
        }
    }

    private mutating func bind(_ v: StoreValue) -> String {
        arguments.append(v)
        return "?"
    }

    /// The SQL of an operand in a comparison: a value bound; a key path as its column, which
    /// carries the column's affinity, or as `(+…)` when it has none (``SQLSource/affinity(forKeyPath:)``).
    private mutating func operand(_ o: PredicateOperand) throws -> String {
        switch o {
        case .value(let v): return bind(v)
        case .keyPath(let k):
            let expr = try source.expression(forKeyPath: k)
            return try source.affinity(forKeyPath: k) == nil ? "(+\(expr))" : expr
        }
    }

    /// The SQL of an operand where no comparison affinity applies (function arguments).
    private mutating func plain(_ o: PredicateOperand) throws -> String {
        switch o {
        case .value(let v): return bind(v)
        case .keyPath(let k): return try source.expression(forKeyPath: k)
        }
    }

    private static func collate(_ ci: Bool) -> String { ci ? " COLLATE NOCASE" : " COLLATE BINARY" }

    private mutating func comparison(_ c: PredicateComparison) throws -> String {
        switch c.op {
        case .between:
            let low = PredicateComparison(
                c.left,
                .greaterOrEqual,
                .value(c.list[0]),
                caseInsensitive: c.caseInsensitive
            )
            let high = PredicateComparison(c.left, .lessOrEqual, .value(c.list[1]), caseInsensitive: c.caseInsensitive)
            let l = try comparison(low)
            return "(\(l) AND \(try comparison(high)))"
        case .in:
            if c.list.isEmpty { return "0" }
            let left = try operand(c.left)
            let items = c.list.map { bind($0) }.joined(separator: ", ")
            return "(\(left)\(Self.collate(c.caseInsensitive)) IN (\(items)))"
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try ordering(c)
        case .contains, .beginsWith, .endsWith, .like:
            return try stringOperation(c)
        }
    }

    private mutating func ordering(_ c: PredicateComparison) throws -> String {
        let leftNull = c.left == .value(.null)
        let rightNull = c.right == .value(.null)
        if leftNull || rightNull {
            switch c.op {
            case .equal, .notEqual:
                let test = c.op == .equal ? "IS NULL" : "IS NOT NULL"
                if leftNull && rightNull { return c.op == .equal ? "1" : "0" }
                let other = try plain(leftNull ? c.right : c.left)
                return "(\(other) \(test))"
            default:
                return "NULL"
            }
        }
        let sqlOp: String
        switch c.op {
        case .equal: sqlOp = "="
        case .notEqual: sqlOp = "<>"
        case .less: sqlOp = "<"
        case .lessOrEqual: sqlOp = "<="
        case .greater: sqlOp = ">"
        default: sqlOp = ">="
        }
        let l = try operand(c.left)
        let r = try operand(c.right)
        return "(\(l)\(Self.collate(c.caseInsensitive)) \(sqlOp) \(r))"
    }

    private mutating func stringOperation(_ c: PredicateComparison) throws -> String {
        let ci = c.caseInsensitive
        // A NULL constant on either side: unknown for every row.
        if c.right == .value(.null) || c.left == .value(.null) { return "NULL" }

        // `x` may be used several times; when it is a constant each use binds it again.
        func subject(_ compiler: inout PredicateSQLCompiler) throws -> String {
            let x = try compiler.plain(c.left)
            return ci ? "lower(\(x))" : x
        }

        if case .value(let pv) = c.right {
            guard case .text(let rawPattern) = pv else { return "0" }
            let pattern = ci ? TextMatching.asciiLowercased(rawPattern) : rawPattern
            let typeTest = try plain(c.left)
            var op: String
            switch c.op {
            case .contains:
                let x = try subject(&self)
                op = "instr(\(x), \(bind(.text(pattern)))) > 0"
            case .beginsWith:
                let x = try subject(&self)
                op = "instr(\(x), \(bind(.text(pattern)))) = 1"
            case .endsWith:
                let n = TextMatching.sqliteLength(pattern)
                if n == 0 {
                    op = "1"
                } else {
                    let x = try subject(&self)
                    let count = bind(.integer(Int64(n)))
                    op = "substr(\(x), -\(count)) = \(bind(.text(pattern))) COLLATE BINARY"
                }
            default:
                let like = LikePattern(rawPattern, caseInsensitive: ci)
                let x = try subject(&self)
                op = "\(x) GLOB \(bind(.text(like.globPattern)))"
            }
            return "(CASE typeof(\(typeTest)) WHEN 'text' THEN (\(op)) WHEN 'null' THEN NULL ELSE 0 END)"
        }

        // The pattern is a key path, read per row.
        guard case .keyPath(let pk) = c.right else { return "0" }
        if c.op == .like {
            throw PredicateError.invalidOperand(
                position: 0,
                operator: "LIKE",
                reason: "needs a constant pattern, not a key path"
            )
        }
        let pExpr = try source.expression(forKeyPath: pk)
        let p = ci ? "lower(\(pExpr))" : pExpr
        let xType = try plain(c.left)
        let guardText = "typeof(\(xType)) = 'text' AND typeof(\(pExpr)) = 'text'"
        let xNull = try plain(c.left)
        let guardNull = "typeof(\(xNull)) = 'null' OR typeof(\(pExpr)) = 'null'"
        let x = try subject(&self)
        let op: String
        switch c.op {
        case .contains: op = "instr(\(x), \(p)) > 0"
        case .beginsWith: op = "instr(\(x), \(p)) = 1"
        default: op = "length(\(p)) = 0 OR substr(\(x), -length(\(p))) = \(p) COLLATE BINARY"
        }
        // Note the order of `?`s: guardText, guardNull, then op — matches the order of the calls above.
        return "(CASE WHEN \(guardText) THEN (\(op)) WHEN \(guardNull) THEN NULL ELSE 0 END)"
    }
}
