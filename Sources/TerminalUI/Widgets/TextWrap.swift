/// Word wrapping by display width, for dialogs, detail values and help.
///
/// Lines break at spaces; a word wider than the line is cut between
/// characters (never inside a wide character); newlines start new lines.
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = String(word)
                var wordWidth = DisplayWidth.of(word)
                let gap = line.isEmpty ? 0 : 1
                if lineWidth + gap + wordWidth <= width {
                    if gap == 1 { line += " " }
                    line += word
                    lineWidth += gap + wordWidth
                    continue
                }
                if !line.isEmpty {
                    result.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    // Cut the word: as many characters as fit.
                    var head = ""
                    var headWidth = 0
                    var rest = Substring(word)
                    while let character = rest.first, headWidth + DisplayWidth.of(character) <= width {
                        head.append(character)
                        headWidth += DisplayWidth.of(character)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, let character = rest.first {  // wider than the line itself
                        head.append(character)
                        rest = rest.dropFirst()
                    }
                    result.append(head)
                    word = String(rest)
                    wordWidth = DisplayWidth.of(word)
                }
                line = word
                lineWidth = wordWidth
            }
            result.append(line)
        }
        return result
    }
}
