import Testing

@testable import TerminalUI

/// Editing keys of TextField, SecretField and TextArea: key sequences → value and cursor.
@Suite struct WidgetTextFieldTests {
    private func field(_ text: String = "", _ events: [InputEvent]) -> TextField {
        let field = TextField(text: text)
        widgetSend(field, events)
        return field
    }

    @Test func typingInsertsAtTheCursorAndArrowsMoveIt() {
        let f = field("", widgetTyping("bank") + [.left, .left] + widgetTyping("XY"))
        #expect(f.text == "baXYnk")
        #expect(f.cursorIndex == 4)
    }

    @Test func backspaceDeletesBeforeAndDeleteAfterTheCursor() {
        let f = field("abcdef", [.left, .left, .backspace, .delete])
        #expect(f.text == "abcf")
        #expect(f.cursorIndex == 3)
        let start = field("abc", [.home, .backspace, .end, .delete])
        #expect(start.text == "abc")
        #expect(start.cursorIndex == 3)
    }

    @Test func homeEndAndControlAControlEJumpToTheEnds() {
        let f = field("Silicon Valley", [.home])
        #expect(f.cursorIndex == 0)
        widgetSend(f, [.end])
        #expect(f.cursorIndex == 14)
        widgetSend(f, [.control("a")])
        #expect(f.cursorIndex == 0)
        widgetSend(f, [.control("e")])
        #expect(f.cursorIndex == 14)
    }

    @Test func controlUKillsToTheStartAndControlKToTheEnd() {
        let u = field("Silicon Valley Bank", [.left, .left, .left, .left, .control("u")])
        #expect(u.text == "Bank")
        #expect(u.cursorIndex == 0)
        let k = field(
            "Silicon Valley Bank",
            [.home, .right, .right, .right, .right, .right, .right, .right, .control("k")]
        )
        #expect(k.text == "Silicon")
        #expect(k.cursorIndex == 7)
    }

    @Test func controlWDeletesTheWordBeforeTheCursorAndSpacesBeforeIt() {
        let f = field("First Republic Bank  ", [.control("w")])
        #expect(f.text == "First Republic ")
        widgetSend(f, [.control("w"), .control("w"), .control("w")])
        #expect(f.text == "")
    }

    @Test func onChangeIsCalledForEditsOnlyAndEnterGoesToOnSubmit() {
        let f = TextField()
        var changes: [String] = []
        var submitted: [String] = []
        f.onChange = { changes.append($0) }
        #expect(f.handle(.enter) == .ignored)  // no onSubmit: left to the container
        f.onSubmit = { submitted.append($0) }
        widgetSend(f, widgetTyping("ab") + [.left, .home, .backspace, .enter])
        #expect(changes == ["a", "ab"])
        #expect(submitted == ["ab"])
        #expect(f.handle(.down) == .ignored)
        #expect(f.handle(.tab) == .ignored)
    }

    @Test func maximumLengthRefusesFurtherCharacters() {
        let f = TextField()
        f.maximumLength = 3
        widgetSend(f, widgetTyping("abcdef"))
        #expect(f.text == "abc")
    }

    @Test func wideCharactersMoveAndDeleteAsOneAndTakeTwoCells() {
        let f = field("", widgetTyping("東京😀x") + [.left, .left])
        #expect(f.text == "東京😀x")
        #expect(f.cursorIndex == 2)
        var canvas = Canvas(width: 20, height: 1)
        f.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 20, height: 1), at: 0)
        #expect(canvas.cursor! == (4, 0))  // after two 2-cell characters
        widgetSend(f, [.backspace])
        #expect(f.text == "東😀x")
    }

    @Test func aCombiningMarkTypedAloneJoinsThePreviousCharacter() {
        let f = field("", [.character("e"), .character("\u{301}"), .character("!")])
        #expect(f.text == "é!")
        #expect(f.cursorIndex == 2)
        widgetSend(f, [.left, .backspace])
        #expect(f.text == "!")
    }

    @Test func longTextScrollsHorizontallyToKeepTheCursorVisible() {
        let f = TextField(text: "The Bank of Commerce and Trust Company")
        var canvas = Canvas(width: 12, height: 1)
        let frame = Rect(x: 0, y: 0, width: 12, height: 1)
        f.render(into: &canvas, frame: frame, at: 0)
        #expect(canvas.text == "ust Company")
        #expect(canvas.cursor! == (11, 0))
        widgetSend(f, [.home])
        canvas.erase()
        f.render(into: &canvas, frame: frame, at: 0)
        #expect(canvas.text == "The Bank of")
        #expect(canvas.cursor! == (0, 0))
    }

    @Test func scrollingNeverShowsHalfAWideCharacter() {
        let f = TextField(text: "日本語のテキスト")  // 16 cells
        var canvas = Canvas(width: 7, height: 1)
        f.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 7, height: 1), at: 0)
        // Cursor at the end (cell 16): scroll 10 → cells 10..<16 = "キスト", a cell for the cursor.
        #expect(canvas.text == "キスト")
        #expect(canvas.cursor! == (6, 0))
        widgetSend(f, [.home, .right])  // cursor after 日 (cell 2): scroll back so 日 shows
        canvas.erase()
        f.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 7, height: 1), at: 0)
        #expect(canvas.text == "日本語")  // cells 0..<7: の would be cut, so it is left out
        #expect(canvas.cursor! == (2, 0))
    }

    @Test func secretFieldMasksUntilRevealed() {
        let secret = SecretField(text: "hunter2")
        var canvas = Canvas(width: 12, height: 1)
        secret.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 12, height: 1), at: 0)
        #expect(canvas.text == "•••••••")
        #expect(!canvas.text.contains("hunter"))
        widgetSend(secret, [.control("r")])
        #expect(secret.isRevealed)
        canvas.erase()
        secret.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 12, height: 1), at: 0)
        #expect(canvas.text == "hunter2")
        widgetSend(secret, [.backspace] + widgetTyping("3"))
        #expect(secret.text == "hunter3")
        secret.allowsReveal = false
        widgetSend(secret, [.control("r")])  // hiding is always allowed
        #expect(!secret.isRevealed)
        widgetSend(secret, [.control("r")])
        #expect(!secret.isRevealed)
    }

    @Test func textAreaEnterSplitsLinesAndArrowsKeepTheColumn() {
        let area = TextArea(text: "Buy milk\nCall the bank")
        #expect(area.cursor == (1, 13))
        widgetSend(area, [.up])
        #expect(area.cursor == (0, 8))
        widgetSend(area, [.home, .right, .right, .right, .enter])
        #expect(area.text == "Buy\n milk\nCall the bank")
        #expect(area.cursor == (1, 0))
        widgetSend(area, [.end, .down])  // column 5 → line 2 column 5
        #expect(area.cursor == (2, 5))
        #expect(area.handle(.down) == .ignored)  // last line: for the form
        widgetSend(area, [.home, .backspace])  // joins with the line before
        #expect(area.text == "Buy\n milkCall the bank")
        #expect(area.cursor == (1, 5))
        widgetSend(area, [.up, .end, .delete])  // joins the next
        #expect(area.text == "Buy milkCall the bank")
        #expect(area.handle(.up) == .ignored)
    }

    @Test func textAreaKeepsTheCursorLineInView() {
        let area = TextArea(text: (1...10).map { "line \($0)" }.joined(separator: "\n"))
        var canvas = Canvas(width: 20, height: 3)
        area.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 20, height: 3), at: 0)
        #expect(canvas.text == "line 8\nline 9\nline 10")
        #expect(canvas.cursor! == (7, 2))
        widgetSend(area, [.pageUp, .pageUp, .pageUp, .pageUp, .pageUp])
        canvas.erase()
        area.render(into: &canvas, frame: Rect(x: 0, y: 0, width: 20, height: 3), at: 0)
        #expect(canvas.text == "line 1\nline 2\nline 3")
        #expect(area.cursor.line == 0)
    }
}
