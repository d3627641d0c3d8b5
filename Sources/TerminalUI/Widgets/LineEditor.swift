#if canImport(Glibc)
import Glibc
#endif

/// One line of editable text and a cursor: the editing rules shared by
/// `TextField`, `SecretField`, `TextArea`, `SearchField` and `FilterField`.
///
/// The cursor is an index into `characters` (grapheme clusters), so a CJK
/// character, an emoji or "e" + combining accent moves and deletes as one.
struct LineEditor: Equatable {
    var characters: [Character]
    var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Overwrites every character in place (an ASCII or other short character lives inside the
    /// array's own buffer) and empties the line, keeping the buffer: what a secret field does
    /// instead of letting its text be freed as it was. A character longer than 15 UTF-8 bytes
    /// (a long emoji sequence) has storage of its own, which is released, not overwritten.
    mutating func wipe() {
        for index in characters.indices { characters[index] = "\u{0}" }
        characters.removeAll(keepingCapacity: true)
        cursor = 0
    }

    /// Calls `body` with the line's UTF-8 bytes, built straight from the characters (no
    /// `String` of the whole line is made) in a buffer zeroed before it is freed.
    func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = characters.reduce(0) { $0 + $1.utf8.count }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for character in characters { bytes.append(contentsOf: character.utf8) }
        defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
        return try bytes.withUnsafeBytes(body)
    }

    enum Outcome: Equatable {
        /// The text changed (and maybe the cursor).
        case edited
        /// Only the cursor moved (or the key was an editing key with nothing to do).
        case moved
        /// Not an editing key.
        case ignored
    }

    /// Applies an editing key: characters insert; Backspace, Delete; ←/→;
    /// Home/End and Ctrl-A/Ctrl-E; Ctrl-U deletes to the start, Ctrl-K to the
    /// end, Ctrl-W the word before the cursor.
    mutating func handle(_ event: InputEvent) -> Outcome {
        switch event {
        case .character(let character):
            insert(character)
            return .edited
        case .backspace, .control("h"):
            guard cursor > 0 else { return .moved }
            characters.remove(at: cursor - 1)
            cursor -= 1
            return .edited
        case .delete, .control("d"):
            guard cursor < characters.count else { return .moved }
            characters.remove(at: cursor)
            return .edited
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
            return .moved
        case .right, .control("f"):
            cursor = min(characters.count, cursor + 1)
            return .moved
        case .home, .control("a"):
            cursor = 0
            return .moved
        case .end, .control("e"):
            cursor = characters.count
            return .moved
        case .control("u"):
            guard cursor > 0 else { return .moved }
            characters.removeSubrange(0..<cursor)
            cursor = 0
            return .edited
        case .control("k"):
            guard cursor < characters.count else { return .moved }
            characters.removeSubrange(cursor...)
            return .edited
        case .control("w"):
            guard cursor > 0 else { return .moved }
            var start = cursor
            while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
            while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
            return .edited
        default:
            return .ignored
        }
    }

    mutating func insert(_ character: Character) {
        if joinsCluster(before: character) {
            characters[cursor - 1] = Character(String(characters[cursor - 1]) + String(character))
            return
        }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    /// True when `character` extends the cluster before the cursor instead of
    /// starting one: keys arrive one scalar at a time, so "e" + U+0301 or the
    /// parts of a ZWJ emoji become one character.
    /// A cluster stops growing at `maximumClusterScalars` (a paste of 10,000 combining
    /// marks would otherwise rebuild an ever longer character for each one).
    func joinsCluster(before character: Character) -> Bool {
        guard cursor > 0, !character.isASCII else { return false }
        let previous = characters[cursor - 1]
        guard previous.unicodeScalars.count < LineEditor.maximumClusterScalars else { return false }
        return (String(previous) + String(character)).count == 1
    }

    /// The most scalars typed keys join into one character (real clusters have far fewer).
    static let maximumClusterScalars = 32

    mutating func insert(contentsOf string: String) {
        for character in string { insert(character) }
    }

    /// Draws the line into `width` cells at (`x`, `y`), scrolled horizontally
    /// so the cursor stays visible (`scroll` is the first visible cell and is
    /// updated unless `followCursor` is false). Wide characters cut by either edge are not drawn. Returns the
    /// cursor's column on the canvas.
    @discardableResult
    func render(
        into canvas: inout Canvas,
        x: Int,
        y: Int,
        width: Int,
        scroll: inout Int,
        mask: Character? = nil,
        attributes: CellAttributes = [],
        followCursor: Bool = true
    ) -> Int {
        guard width > 0 else { return x }
        let widths = characters.map { mask != nil ? 1 : max(0, DisplayWidth.of($0)) }
        var cursorCell = 0
        for index in 0..<cursor { cursorCell += widths[index] }
        let total = widths.reduce(0, +)
        if followCursor {
            // Keep the cursor inside, one cell reserved for it at the end.
            if cursorCell < scroll { scroll = cursorCell }
            // The character just before the cursor stays in view too (context when moving left).
            if cursor > 0, cursorCell - widths[cursor - 1] < scroll { scroll = cursorCell - widths[cursor - 1] }
            if cursorCell >= scroll + width { scroll = cursorCell - width + 1 }
            // Do not leave space unused on the right when text was deleted.
            scroll = max(0, min(scroll, total + 1 - width))
        }
        var cell = 0
        for (index, character) in characters.enumerated() {
            let start = cell
            let end = cell + widths[index]
            cell = end
            if end <= scroll { continue }
            if start >= scroll + width { break }
            guard start >= scroll, end <= scroll + width else { continue }
            let shown = mask.map { String($0) } ?? String(character)
            canvas.put(
                shown,
                x: x + start - scroll,
                y: y,
                attributes: attributes,
                maxWidth: end - start,
                truncate: false
            )
        }
        return x + cursorCell - scroll
    }
}
