/// Word wrapping by display width, for dialogs, detail values and help.
///
/// Lines break at spaces; a word wider than the line is cut between
/// characters (never inside a wide character); newlines start new lines.
/// The work is linear in the text — each character is measured once, and a
/// word too long for a line (a base64 data URL, minified JSON) is cut as it
/// is read — and a ``Wrapper`` does it a piece at a time, so that a long
/// value is laid out over several frames while keys are answered.
enum TextWrap {
    /// `text` wrapped to `width` cells (none when `width` is not positive).
    static func lines(_ text: String, width: Int) -> [String] {
        var wrapper = Wrapper(text, width: width)
        return wrapper.next(characters: .max)
    }

    /// A wrap under way: ``next(characters:)`` reads on from where it stopped.
    ///
    ///     var wrapper = TextWrap.Wrapper(value, width: 40)
    ///     var lines: [String] = []
    ///     while !wrapper.isDone { lines += wrapper.next(characters: 65_536) }
    struct Wrapper {
        private let text: String
        private let width: Int
        private let measure: (Character) -> Int
        private var index: String.Index
        /// True once every character was read and every line given out.
        private(set) var isDone: Bool
        /// Characters read so far.
        private(set) var charactersRead = 0
        /// The line being filled, and its cells.
        private var line = ""
        private var lineWidth = 0
        /// The word being read (not placed yet), and its cells.
        private var word = ""
        private var wordWidth = 0
        /// Whether the word being read is wider than a line: it is cut as it is read.
        private var cutting = false

        /// A wrap of `text` to `width` cells; `measure` gives a character's cells (called once per character).
        init(_ text: String, width: Int, measure: @escaping (Character) -> Int = DisplayWidth.of) {
            self.text = text
            self.width = width
            self.measure = measure
            index = text.startIndex
            isDone = width <= 0
        }

        /// Reads up to `budget` more characters; the lines they completed (the last line too,
        /// once the text has ended).
        mutating func next(characters budget: Int) -> [String] {
            guard !isDone else { return [] }
            var lines: [String] = []
            var taken = 0
            while index < text.endIndex, taken < budget {
                let character = text[index]
                index = text.index(after: index)
                taken += 1
                charactersRead += 1
                switch character {
                case "\n":
                    placeWord(into: &lines)
                    lines.append(line)
                    (line, lineWidth) = ("", 0)
                case " ":
                    placeWord(into: &lines)
                default:
                    take(character, into: &lines)
                }
            }
            if index == text.endIndex {
                placeWord(into: &lines)
                lines.append(line)
                isDone = true
            }
            return lines
        }

        /// One more character of the word being read. Once the word is wider than a line, the
        /// line before it goes and the word is cut: each piece as many characters as fit (a
        /// character wider than the line alone).
        private mutating func take(_ character: Character, into lines: inout [String]) {
            let cells = measure(character)
            if !cutting && wordWidth + cells > width {
                if !line.isEmpty { lines.append(line) }
                (line, lineWidth) = ("", 0)
                cutting = true
            }
            if cutting && wordWidth + cells > width {
                if !word.isEmpty { lines.append(word) }
                (word, wordWidth) = ("", 0)
                if cells > width {
                    lines.append(String(character))
                    return
                }
            }
            word.append(character)
            wordWidth += cells
        }

        /// The word read ends (a space, a newline, the end): after the line's words and a space
        /// when it fits, else on a line of its own; what is left of a cut word starts a line.
        private mutating func placeWord(into lines: inout [String]) {
            if cutting {
                (line, lineWidth) = (word, wordWidth)
            } else {
                let gap = line.isEmpty ? 0 : 1
                if lineWidth + gap + wordWidth <= width {
                    if gap == 1 { line += " " }
                    line += word
                    lineWidth += gap + wordWidth
                } else {
                    if !line.isEmpty { lines.append(line) }
                    (line, lineWidth) = (word, wordWidth)
                }
            }
            (word, wordWidth, cutting) = ("", 0, false)
        }
    }
}
