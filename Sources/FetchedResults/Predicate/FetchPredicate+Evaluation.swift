import SQLiteStore

/// SQL's three truth values.
enum Truth: Equatable {
    case yes, no, unknown

    init(_ b: Bool) { self = b ? .yes : .no }

    static prefix func ! (t: Truth) -> Truth {
        switch t {
        case .yes: return .no
        case .no: return .yes
        case .unknown: return .unknown
        }
    }

    static func && (a: Truth, b: Truth) -> Truth {
        if a == .no || b == .no { return .no }
        if a == .unknown || b == .unknown { return .unknown }
        return .yes
    }

    static func || (a: Truth, b: Truth) -> Truth {
        if a == .yes || b == .yes { return .yes }
        if a == .unknown || b == .unknown { return .unknown }
        return .no
    }

    var bool: Bool? {
        switch self {
        case .yes: return true
        case .no: return false
        case .unknown: return nil
        }
    }
}

extension FetchPredicate {
    /// Evaluates the predicate in Swift with SQL's three-valued logic.
    ///
    /// `value(keyPath)` returns the object's value for a key path (`.null`
    /// when a relationship on the way is nil). Returns nil for *unknown*
    /// (a comparison with NULL), which a fetch treats as false.
    ///
    ///     let p = try FetchPredicate("details.edition > 100")
    ///     p.evaluate { _ in .null }          // nil (unknown)
    ///     p.evaluate { _ in .integer(200) }  // true
    public func evaluate(_ value: (String) -> StoreValue) -> Bool? {
        PredicateEvaluator.evaluate(expression, value).bool
    }

    /// True when the object with these values is fetched (the predicate is true, not unknown).
    ///
    ///     try FetchPredicate("state == 'CA'").matches { _ in .text("CA") } // true
    public func matches(_ value: (String) -> StoreValue) -> Bool {
        evaluate(value) == true
    }

    /// True when `object` is fetched by this predicate (reads SQLiteStore's `ManagedObject.value(forKeyPath:)`).
    public func matches(_ object: ManagedObject) -> Bool {
        matches { object.value(forKeyPath: $0) }
    }
}

/// The Swift twin of ``PredicateSQLCompiler``.
enum PredicateEvaluator {
    static func evaluate(_ e: PredicateTree, _ value: (String) -> StoreValue) -> Truth {
        switch e {
        case .alwaysTrue: return .yes
        case .alwaysFalse: return .no
        case .not(let x): return !evaluate(x, value)
        case .and(let a, let b):
            let l = evaluate(a, value)
            if l == .no { return .no }
            return l && evaluate(b, value)
        case .or(let a, let b):
            let l = evaluate(a, value)
            if l == .yes { return .yes }
            return l || evaluate(b, value)
        case .comparison(let c): return comparison(c, value)
        }
    }

    private static func resolve(_ o: PredicateOperand, _ value: (String) -> StoreValue) -> StoreValue {
        switch o {
        case .value(let v): return v
        case .keyPath(let k): return value(k)
        }
    }

    static func comparison(_ c: PredicateComparison, _ value: (String) -> StoreValue) -> Truth {
        let collation: Collation = c.caseInsensitive ? .nocase : .binary
        switch c.op {
        case .between:
            let low = PredicateComparison(
                c.left,
                .greaterOrEqual,
                .value(c.list[0]),
                caseInsensitive: c.caseInsensitive
            )
            let high = PredicateComparison(c.left, .lessOrEqual, .value(c.list[1]), caseInsensitive: c.caseInsensitive)
            return comparison(low, value) && comparison(high, value)
        case .in:
            if c.list.isEmpty { return .no }
            let x = resolve(c.left, value)
            if x.isNull { return .unknown }
            var sawNull = false
            for v in c.list {
                if v.isNull {
                    sawNull = true
                    continue
                }
                if StoreValue.compare(x, v, collation: collation) == 0 { return .yes }
            }
            return sawNull ? .unknown : .no
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let leftNull = c.left == .value(.null)
            let rightNull = c.right == .value(.null)
            if leftNull || rightNull {
                guard c.op == .equal || c.op == .notEqual else { return .unknown }
                let isNull = (leftNull && rightNull) || resolve(leftNull ? c.right : c.left, value).isNull
                return Truth(c.op == .equal ? isNull : !isNull)
            }
            let l = resolve(c.left, value)
            let r = resolve(c.right, value)
            if l.isNull || r.isNull { return .unknown }
            let order = StoreValue.compare(l, r, collation: collation)
            switch c.op {
            case .equal: return Truth(order == 0)
            case .notEqual: return Truth(order != 0)
            case .less: return Truth(order < 0)
            case .lessOrEqual: return Truth(order <= 0)
            case .greater: return Truth(order > 0)
            default: return Truth(order >= 0)
            }
        case .contains, .beginsWith, .endsWith, .like:
            if c.right == .value(.null) || c.left == .value(.null) { return .unknown }
            let x = resolve(c.left, value)
            let p = resolve(c.right, value)
            if case .value = c.right, p.string == nil { return .no }
            if x.isNull || p.isNull { return .unknown }
            guard case .text(var xs) = x, case .text(var ps) = p else { return .no }
            if c.caseInsensitive {
                xs = TextMatching.asciiLowercased(xs)
                if c.op != .like { ps = TextMatching.asciiLowercased(ps) }
            }
            switch c.op {
            case .contains: return Truth(TextMatching.contains(xs, ps))
            case .beginsWith: return Truth(TextMatching.hasPrefix(xs, ps))
            case .endsWith: return Truth(TextMatching.hasSuffix(xs, ps))
            default: return Truth(LikePattern(ps, caseInsensitive: c.caseInsensitive).matches(xs))
            }
        }
    }
}
