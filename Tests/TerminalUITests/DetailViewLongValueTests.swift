import Testing

@testable import TerminalUI

/// A detail value of hundreds of kilobytes without a space (a base64 data URL, minified JSON):
/// the lines on screen are laid out first, the rest a frame at a time, keys answered between.
@Suite struct DetailViewLongValueTests {
    static let word = String(repeating: "QUJD", count: 100_000)  // 400,000 characters

    /// A 60×12 frame: the value column is 60 − 2 (margins) − 4 (label) − 2 = 52 cells wide.
    static let frame = Rect(x: 0, y: 0, width: 60, height: 12)
    static let valueWidth = 52
    static var totalLines: Int { 1 + (word.count + valueWidth - 1) / valueWidth + 1 }

    static func view() -> DetailView {
        DetailView(rows: [
            .init(label: "id", value: "7"), .init(label: "data", value: word), .init(label: "end", value: "x"),
        ])
    }

    static func render(_ view: DetailView) -> Canvas {
        var canvas = Canvas(width: frame.width, height: frame.height)
        view.render(into: &canvas, frame: frame, at: 0)
        return canvas
    }

    @Test func theFirstFrameShowsTheStartBeforeTheWholeValueIsLaidOutAndKeysActMeanwhile() {
        let view = Self.view()
        let first = Self.render(view).text.split(separator: "\n").map(String.init)
        #expect(first[0].contains("id") && first[0].contains("7"))
        #expect(first[1].contains("data") && first[1].contains(String(Self.word.prefix(Self.valueWidth))))
        #expect(view.needsTick(at: 0), "the rest is laid out in later frames")
        #expect(view.contentHeight < Self.totalLines)
        #expect(first.last?.hasSuffix("▼") == true)
        // A key while the layout goes on: answered, and the next frame shows it.
        #expect(view.handle(.pageDown) == .handled)
        let second = Self.render(view).text.split(separator: "\n").map(String.init)
        #expect(view.scrollOffset == 11)
        #expect(second[0].contains(String(Self.word.prefix(Self.valueWidth))))  // line 11 of the value's lines
    }

    @Test func framesGoOnUntilEveryLineIsLaidOutAndEndThenShowsTheLastRow() {
        let view = Self.view()
        var frames = 0
        repeat {
            _ = Self.render(view)
            frames += 1
        } while view.needsTick(at: 0) && frames < 1_000
        #expect(!view.needsTick(at: 0))
        #expect(frames > 1, "laid out over several frames, not in one")
        #expect(view.contentHeight == Self.totalLines)
        #expect(view.handle(.end) == .handled)
        let last = Self.render(view).text.split(separator: "\n").map(String.init)
        #expect(last.contains { $0.contains("end") && $0.contains("x") })
    }

    @Test func endPressedBeforeTheLayoutIsDoneFollowsTheEndUntilItIs() {
        let view = Self.view()
        _ = Self.render(view)
        #expect(view.handle(.end) == .handled)
        var frames = 0
        var canvas = Self.render(view)
        while view.needsTick(at: 0) && frames < 1_000 {
            canvas = Self.render(view)
            frames += 1
        }
        #expect(view.scrollOffset == Self.totalLines - Self.frame.height)
        #expect(canvas.text.contains("end"))
    }
}
