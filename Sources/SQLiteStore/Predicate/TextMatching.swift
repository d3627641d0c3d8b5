/// Text operations done byte for byte the way SQLite does them, so that the
/// Swift evaluation of a predicate agrees with its SQL.
///
/// Swift's `String` comparisons use Unicode canonical equivalence ("é" as one
/// scalar equals "e" + U+0301); SQLite compares UTF-8 bytes. Everything here
/// works on UTF-8 bytes or Unicode scalars, never on `Character`s.
enum TextMatching {
    /// SQLite's `lower()` without ICU: ASCII `A`–`Z` only.
    static func asciiLowercased(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
        let bytes = s.utf8.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `instr(haystack, needle) > 0` for text: a byte substring.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let h = Array(haystack.utf8)
        let n = Array(needle.utf8)
        if n.isEmpty { return true }
        if n.count > h.count { return false }
        let first = n[0]
        var i = 0
        let last = h.count - n.count
        while i <= last {
            if h[i] == first {
                var j = 1
                while j < n.count && h[i + j] == n[j] { j += 1 }
                if j == n.count { return true }
            }
            i += 1
        }
        return false
    }

    /// `instr(text, prefix) = 1`: the bytes of `text` start with those of `prefix`.
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        let t = text.utf8
        let p = prefix.utf8
        guard p.count <= t.count else { return false }
        return zip(t, p).allSatisfy { $0 == $1 }
    }

    /// `substr(text, -length(suffix)) = suffix`: the bytes of `text` end with those of `suffix`.
    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        let t = Array(text.utf8)
        let s = Array(suffix.utf8)
        guard s.count <= t.count else { return false }
        return t[(t.count - s.count)...].elementsEqual(s)
    }

    /// The number of characters SQLite's `length()` counts for a text: Unicode scalars.
    static func sqliteLength(_ s: String) -> Int { s.unicodeScalars.count }
}

/// An NSPredicate `LIKE` pattern: `*` matches any run of characters, `?`
/// exactly one, `\` makes the next character literal.
///
/// It compiles to a SQLite `GLOB` pattern (case-sensitive, same wildcards,
/// literal `*`, `?`, `[` escaped as `[*]`, `[?]`, `[[]`) and matches in Swift
/// over Unicode scalars, as GLOB does. `[c]` lowers ASCII letters on both
/// sides (`lower(x) GLOB pattern`).
struct LikePattern: Equatable {
    enum Element: Equatable {
        case literal(Unicode.Scalar)
        case one
        case run
    }

    var elements: [Element]

    init(_ pattern: String, caseInsensitive: Bool) {
        var out: [Element] = []
        var escaped = false
        for s in pattern.unicodeScalars {
            if escaped {
                out.append(.literal(LikePattern.fold(s, caseInsensitive)))
                escaped = false
                continue
            }
            switch s {
            case "\\": escaped = true
            case "*": if out.last != .run { out.append(.run) }
            case "?": out.append(.one)
            default: out.append(.literal(LikePattern.fold(s, caseInsensitive)))
            }
        }
        if escaped { out.append(.literal("\\")) }
        elements = out
    }

    private static func fold(_ s: Unicode.Scalar, _ caseInsensitive: Bool) -> Unicode.Scalar {
        guard caseInsensitive, s.value >= 0x41 && s.value <= 0x5A else { return s }
        return Unicode.Scalar(s.value | 0x20)!
    }

    /// The same pattern in SQLite GLOB syntax.
    var globPattern: String {
        var s = ""
        for e in elements {
            switch e {
            case .run: s += "*"
            case .one: s += "?"
            case .literal(let c):
                switch c {
                case "*": s += "[*]"
                case "?": s += "[?]"
                case "[": s += "[[]"
                default: s.unicodeScalars.append(c)
                }
            }
        }
        return s
    }

    /// Whether `text` (already folded when case-insensitive) matches, as SQLite's GLOB decides.
    func matches(_ text: String) -> Bool {
        let t = Array(text.unicodeScalars)
        let p = elements
        var pi = 0
        var ti = 0
        var starP = -1
        var starT = 0
        while ti < t.count {
            if pi < p.count {
                switch p[pi] {
                case .one:
                    pi += 1
                    ti += 1
                    continue
                case .literal(let c) where c == t[ti]:
                    pi += 1
                    ti += 1
                    continue
                case .run:
                    starP = pi
                    starT = ti
                    pi += 1
                    continue
                default: break
                }
            }
            if starP >= 0 {
                pi = starP + 1
                starT += 1
                ti = starT
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == .run { pi += 1 }
        return pi == p.count
    }
}
