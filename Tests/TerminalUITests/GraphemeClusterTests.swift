import Testing

@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// A cell holds one whole grapheme cluster (a Swift `Character`) and is as
/// wide as the cluster shows; controls that steer the terminal never reach it.
@Suite struct GraphemeClusterTests {
    /// "Family 👨‍👩‍👧 Bank é": a ZWJ family of three, "e" + U+0301 combining acute.
    static let family = "Family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Bank e\u{301}"

    /// The texts of the cells of row `y` that are not continuations, and whether each is wide.
    private func cells(_ canvas: Canvas, y: Int = 0) -> [(text: String, wide: Bool)] {
        var result: [(String, Bool)] = []
        for x in 0..<canvas.width where !canvas[x, y].isContinuation {
            result.append((canvas[x, y].text, x + 1 < canvas.width && canvas[x + 1, y].isContinuation))
        }
        return result
    }

    @Test func clusterWidthsFollowTheirDisplayWidth() {
        #expect(DisplayWidth.of(Character("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")) == 2)  // ZWJ sequence
        #expect(DisplayWidth.of(Character("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}")) == 2)
        #expect(DisplayWidth.of(Character("\u{1F1FA}\u{1F1F8}")) == 2)  // a flag: two regional indicators
        #expect(DisplayWidth.of(Character("e\u{301}")) == 1)  // a combining mark adds nothing
        #expect(DisplayWidth.of(Character("a\u{301}\u{323}")) == 1)
        #expect(DisplayWidth.of(Character("\u{2764}\u{FE0F}")) == 2)  // emoji presentation selector
        #expect(DisplayWidth.of(Character("1\u{FE0F}\u{20E3}")) == 2)  // keycap
        #expect(DisplayWidth.of(Character("\u{1F44D}\u{1F3FD}")) == 2)  // skin tone
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of(Self.family) == 7 + 2 + 7)
        // Controls count as the one cell of their placeholder.
        #expect(DisplayWidth.of("a\u{1B}b") == 3)
        #expect(DisplayWidth.of("a\u{202E}b") == 3)
    }

    @Test func aZWJSequenceAndACombiningMarkEachFillOneCellWhole() {
        var canvas = Canvas(width: 30, height: 1)
        let written = canvas.put(Self.family, x: 0, y: 0)
        #expect(written == 16)
        let row = cells(canvas)
        #expect(row[7].text == "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}" && row[7].wide)
        #expect(row[8].text == " " && !row[8].wide)
        #expect(row[14].text == "e\u{301}" && !row[14].wide)
        #expect(canvas[16, 0].text == " ")  // nothing spilled after the name
        #expect(canvas.text == Self.family)
    }

    @Test func truncationWithAnEllipsisNeverSplitsACluster() {
        let name =
            "\u{1F1FA}\u{1F1F8} " + Self.family + " 日本 \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        let clusters = Array(name)
        for limit in 1...(DisplayWidth.of(name) + 1) {
            var canvas = Canvas(width: 60, height: 1)
            let written = canvas.put(name, x: 0, y: 0, maxWidth: limit)
            #expect(written <= limit, "limit \(limit)")
            // The cells are whole clusters of the name, in order, then maybe "…", then blanks.
            var texts = cells(canvas).map(\.text)
            while texts.last == " " { texts.removeLast() }
            let truncated = texts.last == "…" && DisplayWidth.of(name) > limit
            if truncated { texts.removeLast() }
            #expect(
                texts.map(Character.init) == Array(clusters.prefix(texts.count)),
                "limit \(limit): \(texts)"
            )
            if !truncated { #expect(written == DisplayWidth.of(name), "limit \(limit)") }
        }
    }

    @Test func controlAndBidirectionalCharactersShowAsPlaceholders() {
        var canvas = Canvas(width: 40, height: 1)
        let hostile = "A\u{202E}evil\u{202C}\u{2066}x\u{2069}\u{200E}\u{200F}\u{061C}\u{1B}[31m\u{7}\u{7F}\u{85}Z"
        let written = canvas.put(hostile, x: 0, y: 0)
        #expect(written == DisplayWidth.of(hostile))
        #expect(canvas.text == "A�evil��x����␛[31m␇␡�Z")
        for cell in canvas.cells {
            for scalar in cell.text.unicodeScalars {
                #expect(!CellText.isTerminalControl(scalar), "U+\(String(scalar.value, radix: 16)) in a cell")
            }
        }
        canvas.fill("\u{202E}", x: 0, y: 0, width: 3)
        #expect(canvas.text.hasPrefix("���"))
    }

    @Test func aCombiningMarkWithNothingBeforeItShowsOnADottedCircle() {
        var canvas = Canvas(width: 10, height: 1)
        #expect(canvas.put("\u{301}x", x: 0, y: 0) == 2)
        #expect(canvas[0, 0].text == "\u{25CC}\u{301}")
        // A zero-width space alone takes no cell.
        #expect(canvas.put("\u{200B}y", x: 3, y: 0) == 1)
        #expect(canvas[3, 0].text == "y")
    }

    @Test func tableRowsOfClusterNamesMatchTheirGoldenScreen() {
        let names = [
            Self.family, "Banco \u{1F1F5}\u{1F1F7} Popular", "日本 Trust \u{2764}\u{FE0F} Co",
            "Bidi \u{202E}knaB\u{202C} Savings", Self.family + " with a long tail that is cut",
        ]
        let source = ModelDataSource([
            ModelDataSource.Section(
                id: 0,
                title: "2025",
                indexTitle: nil,
                rows: names.enumerated().map {
                    ModelDataSource.Row(id: $0.offset, title: $0.element, detail: "Springfield, IL")
                }
            )
        ])
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        let canvas = draw(table, width: 30, height: 12)
        Golden.check(canvas, "graphemes-subtitle-30x12")
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where !canvas[x, y].isContinuation {
                let text = canvas[x, y].text
                #expect(text.count <= 1, "(\(x), \(y)) holds \(text.count) clusters: \(text.debugDescription)")
            }
        }
    }

    @Test func cursesGetsTheWholeClusterWhenItFitsAndWholeEmojiWhenNot() {
        var text: [wchar_t] = []
        func scalars(_ s: String) -> [wchar_t] { s.unicodeScalars.map { wchar_t(bitPattern: $0.value) } }
        let three = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        CursesBackend.cursesText(three, into: &text)
        #expect(text == scalars(three))
        CursesBackend.cursesText(three + "\u{200D}\u{1F466}", into: &text)  // 7 scalars: the first three emoji
        #expect(text == scalars(three))
        CursesBackend.cursesText("\u{1F9D1}\u{1F3FD}\u{200D}\u{1F91D}\u{200D}\u{1F9D1}\u{1F3FB}", into: &text)
        #expect(text == scalars("\u{1F9D1}\u{1F3FD}\u{200D}\u{1F91D}"))
        CursesBackend.cursesText("e\u{301}", into: &text)
        #expect(text == scalars("e\u{301}"))
        CursesBackend.cursesText("\u{202E}", into: &text)
        #expect(text == [0x20])
    }
}
