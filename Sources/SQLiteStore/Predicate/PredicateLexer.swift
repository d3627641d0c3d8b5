/// A token of the predicate language with its 1-based column.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A key path or keyword (`details.publishedOn`, `AND`, `nil`).
        case identifier(String)
        /// Text in single quotes: always a value.
        case string(String)
        /// Text in double quotes: a key path (`"Closing Date"`) where the other side of its comparison
        /// is a value, text where it is a key path (`state == "CA"`); the parser decides.
        case doubleQuoted(String)
        case integer(Int64)
        case real(Double)
        /// A date literal `2024-01-01` (or date-time `2024-01-01T10:00:00Z`), kept as ISO text.
        case date(String)
        /// `%@`
        case valuePlaceholder
        /// `%K`
        case keyPathPlaceholder
        /// Punctuation and operators: `== != < <= > >= && || ! ( ) { } , -`.
        case symbol(String)
        /// `[c]`, `[d]`, `[cd]`: the letters inside the brackets.
        case modifier(String)
        case end
    }

    var kind: Kind
    var position: Int

    /// How the token reads in an error message.
    var display: String {
        switch kind {
        case .identifier(let s): return "\"\(s)\""
        case .string(let s): return "string \"\(s)\""
        case .doubleQuoted(let s): return "\"\(s)\""
        case .integer(let i): return "number \(i)"
        case .real(let d): return "number \(d)"
        case .date(let d): return "date \(d)"
        case .valuePlaceholder: return "%@"
        case .keyPathPlaceholder: return "%K"
        case .symbol(let s): return "\"\(s)\""
        case .modifier(let m): return "[\(m)]"
        case .end: return "end of input"
        }
    }
}

/// Splits a predicate format string into tokens.
struct PredicateLexer {
    private let chars: [Character]
    private var i = 0

    init(_ format: String) { chars = Array(format) }

    static func tokenize(_ format: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var out: [PredicateToken] = []
        while true {
            let t = try lexer.next()
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    private func peek(_ offset: Int = 0) -> Character? {
        i + offset < chars.count ? chars[i + offset] : nil
    }

    private static func isIdentifierStart(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && c.isLetter)
    }

    private static func isIdentifierPart(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && (c.isLetter || c.isNumber))
    }

    private static func isDigit(_ c: Character?) -> Bool {
        guard let c, c.isASCII, let v = c.asciiValue else { return false }
        return v >= 48 && v <= 57
    }

    mutating func next() throws -> PredicateToken {
        while let c = peek(), c.isWhitespace { i += 1 }
        let start = i + 1
        guard let c = peek() else { return PredicateToken(kind: .end, position: start) }

        if PredicateLexer.isIdentifierStart(c) {
            var s = ""
            while true {
                while let d = peek(), PredicateLexer.isIdentifierPart(d) {
                    s.append(d)
                    i += 1
                }
                if peek() == ".", let n = peek(1), PredicateLexer.isIdentifierStart(n) {
                    s.append(".")
                    i += 1
                    continue
                }
                break
            }
            if peek() == "." {
                throw PredicateError.unexpectedToken(
                    position: i + 1 + 1,
                    expected: "a key path component after \".\"",
                    found: peek(1).map { "\"\($0)\"" } ?? "end of input"
                )
            }
            return PredicateToken(kind: .identifier(s), position: start)
        }
        if PredicateLexer.isDigit(c) { return try number(start: start) }
        if c == "'" || c == "\"" { return try string(quote: c, start: start) }
        if c == "%" {
            switch peek(1) {
            case "@":
                i += 2
                return PredicateToken(kind: .valuePlaceholder, position: start)
            case "K":
                i += 2
                return PredicateToken(kind: .keyPathPlaceholder, position: start)
            default:
                throw PredicateError.unexpectedToken(
                    position: start,
                    expected: "%@ or %K",
                    found: "\"%\(peek(1).map(String.init) ?? "")\""
                )
            }
        }
        if c == "[" {
            var letters = ""
            var j = i + 1
            while j < chars.count, chars[j].isLetter {
                letters.append(chars[j])
                j += 1
            }
            guard j < chars.count, chars[j] == "]", !letters.isEmpty else {
                throw PredicateError.unexpectedToken(
                    position: start,
                    expected: "a modifier such as [c]",
                    found: "\"[\""
                )
            }
            i = j + 1
            return PredicateToken(kind: .modifier(letters), position: start)
        }
        let two = peek(1).map { String(c) + String($0) } ?? ""
        for op in ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"] where two == op {
            i += 2
            let normalized: String
            switch op {
            case "<>": normalized = "!="
            case "=<": normalized = "<="
            case "=>": normalized = ">="
            default: normalized = op
            }
            return PredicateToken(kind: .symbol(normalized), position: start)
        }
        if "=<>!(){},-".contains(c) {
            i += 1
            return PredicateToken(kind: .symbol(c == "=" ? "==" : String(c)), position: start)
        }
        throw PredicateError.unexpectedToken(
            position: start,
            expected: "a key path, value or operator",
            found: "\"\(c)\""
        )
    }

    private mutating func number(start: Int) throws -> PredicateToken {
        // A date literal: YYYY-MM-DD, optionally THH:MM:SSZ.
        if (0..<4).allSatisfy({ PredicateLexer.isDigit(peek($0)) }), peek(4) == "-",
            PredicateLexer.isDigit(peek(5)), PredicateLexer.isDigit(peek(6)), peek(7) == "-",
            PredicateLexer.isDigit(peek(8)), PredicateLexer.isDigit(peek(9))
        {
            var text = String(chars[i..<(i + 10)])
            i += 10
            if peek() == "T", PredicateLexer.isDigit(peek(1)), PredicateLexer.isDigit(peek(2)), peek(3) == ":",
                PredicateLexer.isDigit(peek(4)), PredicateLexer.isDigit(peek(5)), peek(6) == ":",
                PredicateLexer.isDigit(peek(7)), PredicateLexer.isDigit(peek(8)), peek(9) == "Z"
            {
                text += String(chars[i..<(i + 10)])
                i += 10
            }
            guard PredicateLexer.isValidDate(text) else {
                throw PredicateError.invalidDate(position: start, text: text)
            }
            if let c = peek(), PredicateLexer.isIdentifierPart(c) {
                throw PredicateError.invalidDate(position: start, text: text + String(c))
            }
            return PredicateToken(kind: .date(text), position: start)
        }
        var text = ""
        var isReal = false
        while PredicateLexer.isDigit(peek()) {
            text.append(peek()!)
            i += 1
        }
        if peek() == ".", PredicateLexer.isDigit(peek(1)) {
            isReal = true
            text.append(".")
            i += 1
            while PredicateLexer.isDigit(peek()) {
                text.append(peek()!)
                i += 1
            }
        }
        if let e = peek(), e == "e" || e == "E" {
            var j = 1
            if peek(1) == "+" || peek(1) == "-" { j = 2 }
            if PredicateLexer.isDigit(peek(j)) {
                isReal = true
                for _ in 0..<j {
                    text.append(peek()!)
                    i += 1
                }
                while PredicateLexer.isDigit(peek()) {
                    text.append(peek()!)
                    i += 1
                }
            }
        }
        if let c = peek(), PredicateLexer.isIdentifierPart(c) {
            throw PredicateError.invalidNumber(position: start, text: text + String(c))
        }
        if isReal {
            guard let d = Double(text), d.isFinite else {
                throw PredicateError.invalidNumber(position: start, text: text)
            }
            return PredicateToken(kind: .real(d), position: start)
        }
        guard let v = Int64(text) else { throw PredicateError.invalidNumber(position: start, text: text) }
        return PredicateToken(kind: .integer(v), position: start)
    }

    private mutating func string(quote: Character, start: Int) throws -> PredicateToken {
        i += 1
        var s = ""
        while true {
            guard let c = peek() else { throw PredicateError.unterminatedString(position: start) }
            i += 1
            if c == quote {
                // A doubled quote is one quote (`'it''s'`, `"say ""hi"""`), as in SQL and `--sort`.
                if peek() == quote {
                    s.append(quote)
                    i += 1
                    continue
                }
                return PredicateToken(kind: quote == "\"" ? .doubleQuoted(s) : .string(s), position: start)
            }
            if c != "\\" {
                s.append(c)
                continue
            }
            let escapePosition = i
            guard let e = peek() else { throw PredicateError.unterminatedString(position: start) }
            i += 1
            switch e {
            case "\\", "'", "\"": s.append(e)
            case "n": s.append("\n")
            case "t": s.append("\t")
            case "r": s.append("\r")
            case "0": s.append("\u{0}")
            case "*", "?":
                s.append("\\")
                s.append(e)  // kept for LIKE patterns
            case "u":
                var hex = ""
                while hex.count < 4, let h = peek(), h.isHexDigit {
                    hex.append(h)
                    i += 1
                }
                guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                    throw PredicateError.invalidEscape(position: escapePosition, sequence: "\\u" + hex)
                }
                s.unicodeScalars.append(scalar)
            default:
                throw PredicateError.invalidEscape(position: escapePosition, sequence: "\\" + String(e))
            }
        }
    }

    /// A real calendar date in YYYY-MM-DD (and optional THH:MM:SSZ) form.
    static func isValidDate(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 10 || u.count == 20 else { return false }
        func num(_ a: Int, _ n: Int) -> Int { (a..<(a + n)).reduce(0) { $0 * 10 + Int(u[$1] - 48) } }
        let y = num(0, 4)
        let m = num(5, 2)
        let d = num(8, 2)
        guard m >= 1 && m <= 12, d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        guard d <= days else { return false }
        if u.count == 20 {
            guard num(11, 2) < 24, num(14, 2) < 60, num(17, 2) < 60 else { return false }
        }
        return true
    }
}
