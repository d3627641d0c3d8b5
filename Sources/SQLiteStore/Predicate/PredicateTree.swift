/// The tree a ``FetchPredicate`` is made of.
///
/// The parser builds it from the format string; code can also build it
/// directly. The same tree is compiled to SQL (for fetching) and evaluated in
/// Swift (for incremental changes), and the two agree exactly: see
/// ``FetchPredicate`` for the semantics.
///
///     let tree: PredicateTree = .and(
///         .comparison(PredicateComparison(.keyPath("language"), .equal, .value(.text("en")))),
///         .not(.comparison(PredicateComparison(.keyPath("details.edition"), .equal, .value(.null)))))
///     let predicate = FetchPredicate(tree)
public indirect enum PredicateTree: Sendable, Hashable {
    /// `TRUEPREDICATE`.
    case alwaysTrue
    /// `FALSEPREDICATE`.
    case alwaysFalse
    /// One comparison (`state == 'CA'`).
    case comparison(PredicateComparison)
    /// `NOT x` (unknown stays unknown).
    case not(PredicateTree)
    /// `a AND b` (SQL's three-valued AND).
    case and(PredicateTree, PredicateTree)
    /// `a OR b` (SQL's three-valued OR).
    case or(PredicateTree, PredicateTree)

    /// Every key path the expression reads, in order of first appearance.
    package var keyPaths: [String] {
        var out: [String] = []
        var seen = Set<String>()
        func visit(_ e: PredicateTree) {
            switch e {
            case .alwaysTrue, .alwaysFalse: break
            case .comparison(let c):
                for k in c.keyPaths where seen.insert(k).inserted { out.append(k) }
            case .not(let x): visit(x)
            case .and(let a, let b), .or(let a, let b):
                visit(a)
                visit(b)
            }
        }
        visit(self)
        return out
    }
}

/// One side of a comparison: a key path read from the object, or a constant.
public enum PredicateOperand: Sendable, Hashable {
    /// A key path read from the object (`details.publishedOn`); NULL when a relationship on the way is nil.
    case keyPath(String)
    /// A constant (a literal, or a `%@` argument).
    case value(StoreValue)
}

/// The operators of the predicate language.
public enum PredicateOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` (also `=`).
    case equal = "=="
    /// `!=` (also `<>`).
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=` (also `=<`).
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=` (also `=>`).
    case greaterOrEqual = ">="
    /// `x BETWEEN {a, b}`: `a <= x AND x <= b`.
    case between = "BETWEEN"
    /// `x IN {a, b, …}`.
    case `in` = "IN"
    /// The text contains the other (bytes, as SQLite's `instr`).
    case contains = "CONTAINS"
    /// The text starts with the other.
    case beginsWith = "BEGINSWITH"
    /// The text ends with the other.
    case endsWith = "ENDSWITH"
    /// Wildcards `*` (any run of characters) and `?` (one character); `\` escapes.
    case like = "LIKE"

    /// True for the operators that work on text only.
    public var isStringOperator: Bool {
        switch self {
        case .contains, .beginsWith, .endsWith, .like: return true
        default: return false
        }
    }
}

/// A comparison node: `left <operator>[c] right`.
///
/// For `BETWEEN` and `IN`, `right` is empty and `list` holds the constants
/// (two for `BETWEEN`). `caseInsensitive` is the `[c]` modifier: SQLite's
/// ASCII-only case folding (the NOCASE collation and `lower()`).
public struct PredicateComparison: Sendable, Hashable {
    /// The left operand (usually a key path).
    public var left: PredicateOperand
    /// The comparison (`==`, `BEGINSWITH`, `IN`, …) between the operands.
    public var op: PredicateOperator
    /// The right operand (unused for `BETWEEN` and `IN`).
    public var right: PredicateOperand
    /// The constants of `BETWEEN` (two) and `IN` (any number); empty otherwise.
    public var list: [StoreValue]
    /// The `[c]` modifier: ASCII-only case folding, as SQLite's NOCASE.
    public var caseInsensitive: Bool

    /// A binary comparison (any operator but `BETWEEN` and `IN`).
    public init(
        _ left: PredicateOperand,
        _ op: PredicateOperator,
        _ right: PredicateOperand,
        caseInsensitive: Bool = false
    ) {
        self.left = left
        self.op = op
        self.right = right
        self.list = []
        self.caseInsensitive = caseInsensitive
    }

    /// `BETWEEN` (two values) or `IN` (any number of values).
    public init(_ left: PredicateOperand, _ op: PredicateOperator, list: [StoreValue], caseInsensitive: Bool = false) {
        self.left = left
        self.op = op
        self.right = .value(.null)
        self.list = list
        self.caseInsensitive = caseInsensitive
    }

    /// The key paths on either side.
    package var keyPaths: [String] {
        var out: [String] = []
        if case .keyPath(let k) = left { out.append(k) }
        if op != .between && op != .in, case .keyPath(let k) = right, !out.contains(k) { out.append(k) }
        return out
    }
}
