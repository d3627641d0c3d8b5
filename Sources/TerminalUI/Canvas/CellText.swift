/// What one cell shows for a grapheme cluster (a Swift `Character`), and how
/// many cells that takes: the single rule the canvas draws by and
/// `DisplayWidth` measures by, so layout and drawing cannot disagree.
///
/// - A cluster stays whole: a base with its combining marks, an emoji ZWJ
///   sequence (`👨‍👩‍👧`), a flag (two regional indicators), a keycap.
/// - Width: 2 for East Asian wide characters, emoji with emoji presentation,
///   a cluster with the emoji presentation selector U+FE0F, a flag, an emoji
///   ZWJ sequence; combining marks add nothing; otherwise 1.
/// - Nothing that steers the terminal reaches it: control characters (C0,
///   DEL, C1, line and paragraph separators) and the bidirectional controls
///   (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are shown as a
///   visible one-cell placeholder — the control pictures `␀`…`␟` and `␡` for
///   C0 and DEL, `�` for the others.
/// - A combining mark with nothing to combine with (at the start of a text)
///   is shown on a dotted circle, `◌́`, as Unicode charts show it.
/// - Invisible format characters on their own (a zero-width space, a word
///   joiner, a byte-order mark) take no cell and are not drawn.
///
///     CellText.visible("👨‍👩‍👧")      // ("👨‍👩‍👧", 2)
///     CellText.visible("e\u{301}")    // ("é", 1)
///     CellText.visible("\u{202E}")    // ("�", 1)
///     CellText.visible("\u{1B}")      // ("␛", 1)
public enum CellText {
    /// The placeholder for a control that has no control picture (C1, bidi controls).
    package static let replacement = "\u{FFFD}"

    /// The text a cell holds for `character` and the cells it takes (0, 1 or 2).
    public static func visible(_ character: Character) -> (text: String, width: Int) {
        // Fast path: printable ASCII (note that "\r\n" reports the ASCII value of "\n").
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return (String(character), 1) }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return ("", 0) }
        if let placeholder = placeholder(for: first) ?? scalars.lazy.compactMap(placeholder(for:)).first {
            return (placeholder, 1)
        }
        let width = clusterWidth(scalars, first: first)
        if width == 0 && isMark(first) { return ("\u{25CC}" + String(character), 1) }
        return (width == 0 ? "" : String(character), width)
    }

    /// The cells `character` takes: `visible(character).width`, without making the text.
    public static func width(of character: Character) -> Int {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if placeholder(for: first) != nil || scalars.contains(where: isTerminalControl) { return 1 }
        let width = clusterWidth(scalars, first: first)
        return width == 0 && isMark(first) ? 1 : width
    }

    /// True when `scalar` must never be written to a terminal as it is.
    package static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        placeholder(for: scalar) != nil
    }

    private static func placeholder(for scalar: Unicode.Scalar) -> String? {
        let v = scalar.value
        switch v {
        case 0x00..<0x20: return String(Unicode.Scalar(0x2400 + v)!)  // ␀ … ␟
        case 0x7F: return "\u{2421}"  // ␡
        case 0x80..<0xA0, 0x2028, 0x2029: return replacement
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return replacement
        default: return nil
        }
    }

    private static func clusterWidth(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int {
        let base = DisplayWidth.of(first)
        var iterator = scalars.makeIterator()
        _ = iterator.next()
        guard let second = iterator.next() else { return base }
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return 2 }  // a flag
        var hasJoiner = second.value == 0x200D
        var hasEmojiSelector = second.value == 0xFE0F
        while let scalar = iterator.next() {
            if scalar.value == 0x200D { hasJoiner = true }
            if scalar.value == 0xFE0F { hasEmojiSelector = true }
        }
        if hasEmojiSelector { return 2 }
        // An emoji ZWJ sequence shows as one emoji.
        if hasJoiner && first.value >= 0x80 && first.properties.isEmoji && base > 0 { return 2 }
        return base
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }
}
