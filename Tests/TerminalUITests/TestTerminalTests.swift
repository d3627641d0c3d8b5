import TerminalUI
import Testing

@Suite struct TestTerminalTests {
    /// Shows the characters it was sent; keeps the times of the frames it drew.
    final class Echo: View {
        var typed = ""
        var frames: [Double] = []
        func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
            canvas.put(typed, x: frame.x, y: frame.y)
            frames.append(time)
        }
        func handle(_ event: InputEvent) -> EventResult {
            guard case .character(let character) = event else { return .ignored }
            typed.append(character)
            return .handled
        }
    }

    @Test func pressDrawsAFrameAfterEachEventAndOneASecondLaterWhoseTextItReturns() {
        let terminal = TestTerminal(width: 30, height: 5, now: 10)
        let echo = Echo()
        terminal.loop.push(echo)
        func firstLine(_ text: String) -> Substring { text.split(separator: "\n", omittingEmptySubsequences: false)[0] }
        #expect(firstLine(terminal.press()) == "")
        #expect(firstLine(terminal.press(.character("a"), .character("b"))) == "ab")
        #expect(firstLine(terminal.type("cd")) == "abcd")
        #expect(terminal.text == terminal.backend.text && firstLine(terminal.text) == "abcd")
        let expected = [11, 11.01, 11.02, 12.02, 12.03, 13.03, 13.04, 14.04]
        #expect(echo.frames.count == expected.count)
        #expect(zip(echo.frames, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func lettingTheTerminalGoEmptiesItsLoop() {
        weak var released: Echo?
        do {
            let terminal = TestTerminal()
            let echo = Echo()
            released = echo
            terminal.loop.push(echo)
            terminal.press()
        }
        #expect(released == nil)
    }
}
