/// Recursive-descent parser for the NSPredicate-like format of ``FetchPredicate``.
///
/// Grammar (keywords are case-insensitive):
///
///     predicate  := or END
///     or         := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | primary
///     primary    := "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := operand op modifier? (operand | "{" values "}")
///     op         := == = != <> < <= > >= BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE
///     modifier   := [c] | [d] | [cd]
///     operand    := keypath | "quoted name" | %K | value
///     value      := 'string' | "string" | [-]number | YYYY-MM-DD | nil | NULL | true | false | YES | NO | %@
///
/// A double-quoted operand is a key path when the other side of its comparison is a value (`"Closing
/// Date" >= 2020-01-01`: a column whose name has spaces, as `--sort` writes it) and text when the
/// other side is a key path (`state == "CA"`); in a `{…}` list it is text. A comparison with no key
/// path on either side is the same for every object, which is never what was meant: an error.
struct PredicateParser {
    private var tokens: [PredicateToken]
    private var index = 0
    private let arguments: [StoreValue]
    private var argumentIndex = 0

    init(format: String, arguments: [StoreValue]) throws {
        tokens = try PredicateLexer.tokenize(format)
        self.arguments = arguments
    }

    mutating func parse() throws -> PredicateTree {
        let e = try parseOr()
        guard current.kind == .end else {
            throw PredicateError.unexpectedToken(
                position: current.position,
                expected: "AND, OR or end of input",
                found: current.display
            )
        }
        guard argumentIndex == arguments.count else {
            throw PredicateError.unusedArguments(placeholders: argumentIndex, arguments: arguments.count)
        }
        return e
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isKeyword(_ token: PredicateToken, _ words: String...) -> Bool {
        guard case .identifier(let s) = token.kind else { return false }
        let upper = s.uppercased()
        return words.contains(upper)
    }

    private func isSymbol(_ token: PredicateToken, _ symbols: String...) -> Bool {
        guard case .symbol(let s) = token.kind else { return false }
        return symbols.contains(s)
    }

    private static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "BETWEEN", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
        "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "ANY", "ALL", "NONE", "SOME",
    ]

    // MARK: Logic

    private mutating func parseOr() throws -> PredicateTree {
        var e = try parseAnd()
        while isKeyword(current, "OR") || isSymbol(current, "||") {
            advance()
            e = .or(e, try parseAnd())
        }
        return e
    }

    private mutating func parseAnd() throws -> PredicateTree {
        var e = try parseNot()
        while isKeyword(current, "AND") || isSymbol(current, "&&") {
            advance()
            e = .and(e, try parseNot())
        }
        return e
    }

    private mutating func parseNot() throws -> PredicateTree {
        if isKeyword(current, "NOT") || isSymbol(current, "!") {
            advance()
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> PredicateTree {
        if isSymbol(current, "(") {
            advance()
            let e = try parseOr()
            guard isSymbol(current, ")") else {
                throw PredicateError.unexpectedToken(
                    position: current.position,
                    expected: "\")\"",
                    found: current.display
                )
            }
            advance()
            return e
        }
        if isKeyword(current, "TRUEPREDICATE") {
            advance()
            return .alwaysTrue
        }
        if isKeyword(current, "FALSEPREDICATE") {
            advance()
            return .alwaysFalse
        }
        return .comparison(try parseComparison())
    }

    // MARK: Comparisons

    private mutating func parseComparison() throws -> PredicateComparison {
        let leftToken = current
        let parsedLeft = try parseOperand(expected: "a key path, a value, \"(\", NOT or TRUEPREDICATE")
        let opToken = current
        let op: PredicateOperator
        switch opToken.kind {
        case .symbol("=="): op = .equal
        case .symbol("!="): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="): op = .greaterOrEqual
        case .identifier(let w):
            switch w.uppercased() {
            case "BETWEEN": op = .between
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "MATCHES":
                throw PredicateError.invalidOperand(
                    position: opToken.position,
                    operator: "MATCHES",
                    reason: "(regular expressions) is not supported; use LIKE with * and ?"
                )
            default:
                throw PredicateError.unexpectedToken(
                    position: opToken.position,
                    expected: "a comparison operator",
                    found: opToken.display
                )
            }
        default:
            throw PredicateError.unexpectedToken(
                position: opToken.position,
                expected: "a comparison operator",
                found: opToken.display
            )
        }
        advance()

        var caseInsensitive = false
        if case .modifier(let letters) = current.kind {
            for m in letters {
                switch m {
                case "c", "C": caseInsensitive = true
                case "d", "D":
                    throw PredicateError.unsupportedModifier(
                        position: current.position,
                        modifier: letters,
                        reason:
                            "diacritic-insensitive matching cannot be made to agree between SQLite and Swift without a custom SQL function; use [c]"
                    )
                default:
                    throw PredicateError.unsupportedModifier(
                        position: current.position,
                        modifier: letters,
                        reason: "known modifiers are [c]"
                    )
                }
            }
            advance()
        }

        switch op {
        case .between, .in:
            // The list holds values: a double-quoted left side names a key path.
            let left = try resolve(parsedLeft, facing: ParsedOperand.value(.null), at: leftToken)
            guard case .keyPath = left else {
                throw PredicateError.comparesTwoValues(
                    position: leftToken.position,
                    left: leftToken.display,
                    operator: op.rawValue,
                    right: "{…}"
                )
            }
            let values = try parseList(opToken: opToken)
            if op == .in { return PredicateComparison(left, .in, list: values, caseInsensitive: caseInsensitive) }
            guard values.count == 2 else {
                throw PredicateError.invalidOperand(
                    position: opToken.position,
                    operator: "BETWEEN",
                    reason: "needs exactly two values, {low, high}; found \(values.count)"
                )
            }
            return PredicateComparison(left, .between, list: values, caseInsensitive: caseInsensitive)
        default:
            let rightToken = current
            let rightPosition = current.position
            let parsedRight = try parseOperand(expected: "a key path or a value")
            let left = try resolve(parsedLeft, facing: parsedRight, at: leftToken)
            let right = try resolve(parsedRight, facing: left, at: rightToken)
            if case .value = left, case .value = right {
                throw PredicateError.comparesTwoValues(
                    position: leftToken.position,
                    left: leftToken.display,
                    operator: op.rawValue,
                    right: rightToken.display
                )
            }
            if op.isStringOperator {
                if case .value(let v) = right {
                    switch v {
                    case .text, .null: break
                    default:
                        throw PredicateError.invalidOperand(
                            position: rightPosition,
                            operator: op.rawValue,
                            reason: "needs a string, found \(v)"
                        )
                    }
                } else if op == .like {
                    throw PredicateError.invalidOperand(
                        position: rightPosition,
                        operator: "LIKE",
                        reason: "needs a constant pattern, not a key path"
                    )
                }
            }
            return PredicateComparison(left, op, right, caseInsensitive: caseInsensitive)
        }
    }

    /// `{a, b, …}` or a single `%@` whose argument is treated as one value.
    private mutating func parseList(opToken: PredicateToken) throws -> [StoreValue] {
        guard isSymbol(current, "{") else {
            throw PredicateError.unexpectedToken(
                position: current.position,
                expected: "\"{\" after \(opToken.display)",
                found: current.display
            )
        }
        advance()
        var values: [StoreValue] = []
        if isSymbol(current, "}") {
            advance()
            return values
        }
        while true {
            guard let v = try parseValue() else {
                throw PredicateError.unexpectedToken(
                    position: current.position,
                    expected: "a value",
                    found: current.display
                )
            }
            values.append(v)
            if isSymbol(current, ",") {
                advance()
                continue
            }
            if isSymbol(current, "}") {
                advance()
                return values
            }
            throw PredicateError.unexpectedToken(
                position: current.position,
                expected: "\",\" or \"}\"",
                found: current.display
            )
        }
    }

    /// An operand as written: a double-quoted one is a key path or text depending on the other side.
    private enum ParsedOperand {
        case keyPath(String)
        case value(StoreValue)
        case doubleQuoted(String)
    }

    private mutating func parseOperand(expected: String) throws -> ParsedOperand {
        let t = current
        switch t.kind {
        case .identifier(let s) where !PredicateParser.reservedWords.contains(s.uppercased()) || s.contains("."):
            advance()
            return .keyPath(s)
        case .doubleQuoted(let s):
            advance()
            return .doubleQuoted(s)
        case .keyPathPlaceholder:
            let v = try takeArgument(at: t.position)
            advance()
            // Any name: a column of an existing table may be called anything ("Closing Date").
            guard case .text(let k) = v, !k.isEmpty else {
                throw PredicateError.invalidKeyPathArgument(position: t.position, value: v)
            }
            return .keyPath(k)
        default:
            if let v = try parseValue() { return .value(v) }
            throw PredicateError.unexpectedToken(position: t.position, expected: expected, found: t.display)
        }
    }

    /// `operand` as the comparison reads it: a double-quoted one is a key path when the other side is a
    /// value (or double-quoted too: the left one is then the key path), text when it is a key path.
    private func resolve(
        _ operand: ParsedOperand,
        facing other: ParsedOperand,
        at token: PredicateToken
    ) throws
        -> PredicateOperand
    {
        switch operand {
        case .keyPath(let k): return .keyPath(k)
        case .value(let v): return .value(v)
        case .doubleQuoted(let s):
            if case .keyPath = other { return .value(.text(s)) }
            guard !s.isEmpty else {
                throw PredicateError.unexpectedToken(
                    position: token.position,
                    expected: "a key path (\"\" names none)",
                    found: token.display
                )
            }
            return .keyPath(s)
        }
    }

    /// `operand` facing an operand already read as a key path or a value.
    private func resolve(
        _ operand: ParsedOperand,
        facing other: PredicateOperand,
        at token: PredicateToken
    ) throws
        -> PredicateOperand
    {
        switch other {
        case .keyPath(let k): return try resolve(operand, facing: ParsedOperand.keyPath(k), at: token)
        case .value(let v): return try resolve(operand, facing: ParsedOperand.value(v), at: token)
        }
    }

    /// A constant, or nil (without consuming) when the current token is not one.
    private mutating func parseValue() throws -> StoreValue? {
        let t = current
        switch t.kind {
        case .string(let s), .doubleQuoted(let s):
            advance()
            return .text(s)
        case .integer(let v):
            advance()
            return .integer(v)
        case .real(let d):
            advance()
            return .real(d)
        case .date(let d):
            advance()
            return .text(d)
        case .valuePlaceholder:
            let v = try takeArgument(at: t.position)
            advance()
            return v
        case .symbol("-"):
            advance()
            switch current.kind {
            case .integer(let v):
                advance()
                return .integer(-v)
            case .real(let d):
                advance()
                return .real(-d)
            default:
                throw PredicateError.unexpectedToken(
                    position: current.position,
                    expected: "a number after \"-\"",
                    found: current.display
                )
            }
        case .identifier(let w):
            switch w.uppercased() {
            case "NIL", "NULL":
                advance()
                return .null
            case "TRUE", "YES":
                advance()
                return .integer(1)
            case "FALSE", "NO":
                advance()
                return .integer(0)
            default: return nil
            }
        default:
            return nil
        }
    }

    private mutating func takeArgument(at position: Int) throws -> StoreValue {
        guard argumentIndex < arguments.count else {
            throw PredicateError.missingArgument(position: position, index: argumentIndex + 1)
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }
}
