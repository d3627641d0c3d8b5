import TestSupport
import Testing

@testable import TerminalUI

/// `TextWrap`: words by display width, a word wider than the line cut between characters,
/// in time linear in the text — and a `Wrapper` that goes on where it stopped.
@Suite struct TextWrapTests {
    /// The wrap as it was written before it became linear (a word cut by measuring what is
    /// left of it again after each piece): the specification the wrapper must keep.
    static func reference(_ text: String, width: Int) -> [String] {
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
                    var head = ""
                    var headWidth = 0
                    var rest = Substring(word)
                    while let character = rest.first, headWidth + DisplayWidth.of(character) <= width {
                        head.append(character)
                        headWidth += DisplayWidth.of(character)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, let character = rest.first {
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

    @Test func wrapsAsBeforeOnRandomTextsOfWordsSpacesNewlinesAndWideCharacters() {
        let seed = UInt64(0x38_0004)
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "bc", "def", "日", "本語", "e\u{301}", " ", " ", "  ", "\n", "xxxxxxxxxxxxxxxxxxxx", "😀"]
        for round in 0..<2_000 {
            let text = (0..<Int(rng.next() % 24)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            for width in [0, 1, 2, 3, 5, 8, 13] {
                let expected = Self.reference(text, width: width)
                #expect(TextWrap.lines(text, width: width) == expected, "seed \(seed) round \(round) width \(width)")
                // A piece at a time, any size of piece: the same lines.
                var wrapper = TextWrap.Wrapper(text, width: width)
                var lines: [String] = []
                let step = 1 + Int(rng.next() % 5)
                while !wrapper.isDone { lines += wrapper.next(characters: step) }
                #expect(lines == expected, "seed \(seed) round \(round) width \(width) step \(step)")
            }
        }
    }

    @Test func aLongUnbrokenWordIsWrappedMeasuringEachCharacterOnce() {
        final class Count { var measured = 0 }
        let count = Count()
        let word = String(repeating: "QUJD", count: 100_000)  // 400,000 characters, no space (base64)
        var wrapper = TextWrap.Wrapper(word, width: 50) { character in
            count.measured += 1
            return DisplayWidth.of(character)
        }
        var lines: [String] = []
        while !wrapper.isDone { lines += wrapper.next(characters: 65_536) }
        #expect(lines.count == 8_000)
        #expect(lines.allSatisfy { $0.count == 50 })
        #expect(lines.joined() == word)
        // Linear: the old wrap measured what was left after each of the 8,000 pieces again.
        #expect(count.measured == 400_000)
    }
}
