/// Why a predicate format string could not be parsed or compiled.
///
/// Positions are 1-based columns (characters) in the format string, so a
/// message can point at the spot: `column 14: expected a value, found "AND"`.
///
///     do { _ = try FetchPredicate("state == ") }
///     catch let error as FetchPredicateError { print(error) } // column 10: expected a key path or a value, found end of input
public enum PredicateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parser needed `expected` at `position` but saw `found`.
    case unexpectedToken(position: Int, expected: String, found: String)
    /// A quote opened at `position` is never closed.
    case unterminatedString(position: Int)
    /// An unknown backslash escape inside a string.
    case invalidEscape(position: Int, sequence: String)
    /// A number that does not fit (integers are 64-bit) or is malformed.
    case invalidNumber(position: Int, text: String)
    /// A date literal that is not a real calendar date (`2024-02-31`).
    case invalidDate(position: Int, text: String)
    /// `%@` or `%K` number `index` (1-based) has no argument.
    case missingArgument(position: Int, index: Int)
    /// More arguments were passed than the format has placeholders.
    case unusedArguments(placeholders: Int, arguments: Int)
    /// A `%K` argument that is not a text key path.
    case invalidKeyPathArgument(position: Int, value: StoreValue)
    /// A modifier that is not supported (`[d]`), or unknown (`[x]`).
    case unsupportedModifier(position: Int, modifier: String, reason: String)
    /// An operand that the operator cannot take (`LIKE` with a key path pattern, `CONTAINS 5`).
    case invalidOperand(position: Int, operator: String, reason: String)
    /// A comparison with a value on both sides (`'Closing Date' >= 2020-01-01`): the same for every
    /// object, so never what was meant. `left` and `right` are the operands as the message shows them.
    case comparesTwoValues(position: Int, left: String, operator: String, right: String)

    /// The 1-based column the error points at (0 when it concerns the whole format).
    public var position: Int {
        switch self {
        case .unexpectedToken(let p, _, _), .unterminatedString(let p), .invalidEscape(let p, _),
            .invalidNumber(let p, _), .invalidDate(let p, _), .missingArgument(let p, _),
            .invalidKeyPathArgument(let p, _), .unsupportedModifier(let p, _, _), .invalidOperand(let p, _, _),
            .comparesTwoValues(let p, _, _, _):
            return p
        case .unusedArguments: return 0
        }
    }

    public var description: String {
        switch self {
        case .unexpectedToken(let p, let expected, let found):
            return "column \(p): expected \(expected), found \(found)"
        case .unterminatedString(let p):
            return "column \(p): string is not terminated"
        case .invalidEscape(let p, let s):
            return "column \(p): unknown escape \"\(s)\" in string"
        case .invalidNumber(let p, let t):
            return "column \(p): invalid number \"\(t)\""
        case .invalidDate(let p, let t):
            return "column \(p): invalid date \"\(t)\" (expected YYYY-MM-DD)"
        case .missingArgument(let p, let i):
            return "column \(p): placeholder \(i) has no argument"
        case .unusedArguments(let placeholders, let arguments):
            return "\(arguments) arguments given but the format has \(placeholders) placeholders"
        case .invalidKeyPathArgument(let p, let v):
            return "column \(p): %K needs a text key path argument, got \(v)"
        case .unsupportedModifier(let p, let m, let reason):
            return "column \(p): modifier [\(m)] is not supported: \(reason)"
        case .invalidOperand(let p, let op, let reason):
            return "column \(p): \(op) \(reason)"
        case .comparesTwoValues(let p, let left, let op, let right):
            return "column \(p): \(left) \(op) \(right) compares two values, which is the same for every row; "
                + "name a column on one side, in double quotes when its name has spaces (\"Closing Date\"), "
                + "and write text in single quotes ('CA')"
        }
    }
}

/// ``PredicateError`` under a name that Foundation does not also define
/// (Foundation has its own `PredicateError`; in a file that imports both,
/// write `FetchPredicateError` or `FetchedResults.PredicateError`).
public typealias FetchPredicateError = PredicateError
