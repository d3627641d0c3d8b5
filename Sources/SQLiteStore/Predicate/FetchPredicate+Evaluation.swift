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
    /// Evaluates the predicate in Swift with SQL's three-valued logic, comparing as SQLite does by
    /// the key paths' type affinities.
    ///
    /// `value(keyPath)` returns the object's value for a key path (`.null` when a relationship on the
    /// way is nil); `affinity(keyPath)` the affinity of its column (`SQLSource.affinity(forKeyPath:)`;
    /// nil for none), by which a value compared with it is converted first (`'6'` against an INTEGER
    /// column is 6, `2020` against a TEXT one is `'2020'`), as in the SQL of ``sql(in:)``. Returns nil
    /// for *unknown* (a comparison with NULL), which a fetch treats as false.
    ///
    ///     let p = try FetchPredicate("details.edition > '100'")
    ///     p.evaluate({ _ in .integer(200) }, affinity: { _ in .integer })   // true: '100' is 100
    ///     p.evaluate({ _ in .null }, affinity: { _ in .integer })           // nil (unknown)
    public func evaluate(_ value: (String) -> StoreValue, affinity: (String) -> TypeAffinity?) -> Bool? {
        withoutActuallyEscaping(value) { value in
            withoutActuallyEscaping(affinity) { affinity in
                PredicateEvaluator(value: value, affinity: affinity).evaluate(expression).bool
            }
        }
    }

    /// Evaluates the predicate in Swift with SQL's three-valued logic, every key path read as a value
    /// without a type affinity (values compare as they are: `5 == "5"` is false); see
    /// ``evaluate(_:affinity:)`` for values read from columns.
    ///
    ///     let p = try FetchPredicate("details.edition > 100")
    ///     p.evaluate { _ in .null }          // nil (unknown)
    ///     p.evaluate { _ in .integer(200) }  // true
    public func evaluate(_ value: (String) -> StoreValue) -> Bool? {
        evaluate(value, affinity: { _ in nil })
    }

    /// True when the object with these values is fetched (the predicate is true, not unknown), its
    /// key paths' columns of these affinities (see ``evaluate(_:affinity:)``).
    ///
    ///     try FetchPredicate("rating > '6'").matches({ _ in .integer(7) }, affinity: { _ in .integer }) // true
    public func matches(_ value: (String) -> StoreValue, affinity: (String) -> TypeAffinity?) -> Bool {
        evaluate(value, affinity: affinity) == true
    }

    /// True when the object with these values is fetched, every key path without an affinity (see
    /// ``evaluate(_:)``).
    ///
    ///     try FetchPredicate("state == 'CA'").matches { _ in .text("CA") } // true
    public func matches(_ value: (String) -> StoreValue) -> Bool {
        evaluate(value) == true
    }

    /// True when `object` is fetched by this predicate (reads SQLiteStore's `ManagedObject.value(forKeyPath:)`,
    /// with the affinities of its entity's columns).
    public func matches(_ object: ManagedObject) -> Bool {
        let source = object.context.flatMap {
            try? $0.store.model.sqlSource(root: object.entity.name, keyPaths: keyPaths)
        }
        return matches(
            { object.value(forKeyPath: $0) },
            affinity: { key in (try? source?.affinity(forKeyPath: key)) ?? nil }
        )
    }
}

/// The Swift twin of ``PredicateSQLCompiler``.
struct PredicateEvaluator {
    let value: (String) -> StoreValue
    let affinity: (String) -> TypeAffinity?

    func evaluate(_ e: PredicateTree) -> Truth {
        switch e {
        case .alwaysTrue: return .yes
        case .alwaysFalse: return .no
        case .not(let x): return !evaluate(x)
        case .and(let a, let b):
            let l = evaluate(a)
            if l == .no { return .no }
            return l && evaluate(b)
        case .or(let a, let b):
            let l = evaluate(a)
            if l == .yes { return .yes }
            return l || evaluate(b)
        case .comparison(let c): return comparison(c)
        }
    }

    private func resolve(_ o: PredicateOperand) -> StoreValue {
        switch o {
        case .value(let v): return v
        case .keyPath(let k): return value(k)
        }
    }

    /// The operand's affinity in a comparison: its column's for a key path, none for a value.
    private func affinity(of o: PredicateOperand) -> TypeAffinity? {
        switch o {
        case .value: return nil
        case .keyPath(let k): return affinity(k)
        }
    }

    /// SQLite's order of `a` and `b` once the comparison's affinity has converted them.
    private static func compare(
        _ a: StoreValue,
        _ b: StoreValue,
        affinity: TypeAffinity?,
        collation: Collation
    ) -> Int {
        let (x, y) = TypeAffinity.converted(a, b, by: affinity)
        return StoreValue.compare(x, y, collation: collation)
    }

    func comparison(_ c: PredicateComparison) -> Truth {
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
            return comparison(low) && comparison(high)
        case .in:
            if c.list.isEmpty { return .no }
            let x = resolve(c.left)
            if x.isNull { return .unknown }
            // `x IN (a, b)` is `x = +a OR x = +b`: the list's values have no affinity.
            let comparisonAffinity = TypeAffinity.comparison(affinity(of: c.left), nil)
            var sawNull = false
            for v in c.list {
                if v.isNull {
                    sawNull = true
                    continue
                }
                if Self.compare(x, v, affinity: comparisonAffinity, collation: collation) == 0 { return .yes }
            }
            return sawNull ? .unknown : .no
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let leftNull = c.left == .value(.null)
            let rightNull = c.right == .value(.null)
            if leftNull || rightNull {
                guard c.op == .equal || c.op == .notEqual else { return .unknown }
                let isNull = (leftNull && rightNull) || resolve(leftNull ? c.right : c.left).isNull
                return Truth(c.op == .equal ? isNull : !isNull)
            }
            let l = resolve(c.left)
            let r = resolve(c.right)
            if l.isNull || r.isNull { return .unknown }
            let comparisonAffinity = TypeAffinity.comparison(affinity(of: c.left), affinity(of: c.right))
            let order = Self.compare(l, r, affinity: comparisonAffinity, collation: collation)
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
            let x = resolve(c.left)
            let p = resolve(c.right)
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
