import Testing

@testable import TerminalUI

/// How the widgets react to keys: tabs, status messages, search/filter, help, dialogs, form, detail.
@Suite struct WidgetBehaviourTests {
    @Test func tabBarSwitchesWithTabShiftTabAndDigitsAndWraps() {
        let tabs = TabBar(titles: ["Closing Date", "Name", "State"])
        var selected: [Int] = []
        tabs.onSelect = { selected.append($0) }
        widgetSend(tabs, [.tab, .tab, .tab, .backTab, .character("2"), .character("2"), .character("1")])
        #expect(selected == [1, 2, 0, 2, 1, 0])
        #expect(tabs.handle(.character("4")) == .ignored)
        #expect(tabs.handle(.character("x")) == .ignored)
        #expect(tabs.selectedIndex == 0)
    }

    @Test func tabBarSelectsTheClickedTab() {
        let tabs = TabBar(titles: ["Date", "Name", "State"])
        var canvas = Canvas(width: 40, height: 1)
        tabs.render(into: &canvas, frame: canvas.bounds, at: 0)
        // " 1 Date │ 2 Name │ 3 State ": "2 Name" starts at column 10.
        #expect(tabs.handle(.mouseClick(x: 12, y: 0)) == .handled)
        #expect(tabs.selectedIndex == 1)
        #expect(tabs.handle(.mouseClick(x: 12, y: 5)) == .ignored)
    }

    @Test func statusMessageShowsForItsDurationThenTheHintsReturn() {
        let status = StatusLine(hints: "? help", trailingText: "12/572")
        status.showMessage("Deleted Silicon Valley Bank — u to undo", at: 10, duration: 4)
        #expect(status.message(at: 13.9)?.text == "Deleted Silicon Valley Bank — u to undo")
        #expect(status.message(at: 14) == nil)
        #expect(status.nextWakeTime(after: 11) == 14)
        #expect(status.nextWakeTime(after: 14) == nil)
        var canvas = Canvas(width: 60, height: 1)
        status.render(into: &canvas, frame: canvas.bounds, at: 15)
        #expect(canvas.text == "? help                                                12/572")
    }

    @Test func searchFieldCallsOnChangeOnEveryEditAndCommitsOnEnter() {
        let search = SearchField()
        var changes: [String] = []
        var commits: [String] = []
        search.onChange = { changes.append($0) }
        search.onCommit = { commits.append($0) }
        #expect(search.handle(.character("a")) == .ignored)  // inactive
        search.activate()
        #expect(
            widgetSend(search, widgetTyping("ban") + [.backspace, .character("n")])
                == Array(repeating: .handled, count: 5)
        )
        #expect(changes == ["b", "ba", "ban", "ba", "ban"])
        #expect(search.handle(.enter) == .dismiss)
        #expect(commits == ["ban"])
        #expect(!search.isActive)
        #expect(search.text == "ban")  // kept for n/N and the next "/"
    }

    @Test func searchFieldEscapeOrBackspaceOnEmptyCancelsAndClears() {
        let search = SearchField()
        var cancelled = 0
        search.onCancel = { cancelled += 1 }
        search.activate(text: "bank")
        #expect(search.handle(.escape) == .dismiss)
        #expect(search.text == "")
        search.activate()
        #expect(search.handle(.backspace) == .dismiss)
        #expect(cancelled == 2)
        search.activate()
        #expect(search.handle(.character("q")) == .handled)  // typing, not quitting
        #expect(search.text == "q")
    }

    @Test func filterFieldWithAnErrorDoesNotCommit() {
        let filter = FilterField()
        var commits: [String] = []
        filter.onCommit = { commits.append($0) }
        filter.onChange = { text in
            if text.filter({ $0 == "\"" }).count % 2 == 1 {
                filter.setError(
                    "unterminated string",
                    at: text.firstIndex(of: "\"").map { text.distance(from: text.startIndex, to: $0) }
                )
            } else {
                filter.clearError()
            }
        }
        filter.activate()
        widgetSend(filter, widgetTyping("state == \"CA"))
        #expect(filter.errorMessage == "unterminated string")
        #expect(filter.errorPosition == 9)
        #expect(filter.handle(.enter) == .handled)
        #expect(filter.isActive)
        widgetSend(filter, [.character("\"")])
        #expect(filter.errorMessage == nil)
        #expect(filter.handle(.enter) == .dismiss)
        #expect(commits == ["state == \"CA\""])
    }

    @Test func helpOverlayIsDismissedByAnyKey() {
        let help = HelpOverlay(bindings: [("q", "quit")])
        var dismissed = 0
        help.onDismiss = { dismissed += 1 }
        var canvas = Canvas(width: 80, height: 24)
        help.render(into: &canvas, frame: canvas.bounds, at: 0)
        #expect(help.handle(.down) == .dismiss)  // fits: nothing to scroll
        #expect(help.handle(.character("x")) == .dismiss)
        #expect(dismissed == 2)
        #expect(!help.isOpaque)
    }

    @Test func helpOverlayScrollsWhenTallerThanTheScreen() {
        let help = HelpOverlay(bindings: (1...30).map { ("k\($0)", "binding \($0)") })
        var canvas = Canvas(width: 40, height: 12)
        help.render(into: &canvas, frame: canvas.bounds, at: 0)
        #expect(help.handle(.down) == .handled)
        #expect(help.handle(.pageDown) == .handled)
        canvas.erase()
        help.render(into: &canvas, frame: canvas.bounds, at: 0)
        #expect(help.scrollOffset == 10)  // 1 + a page of 9 lines
        #expect(help.handle(.enter) == .dismiss)
    }

    @Test func confirmDialogAnswersWithYNEscapeAndEnterOnTheHighlightedButton() {
        let yes = ConfirmDialog(message: "Delete?")
        var answers: [Bool] = []
        yes.onAnswer = { answers.append($0) }
        #expect(yes.handle(.character("y")) == .dismiss)
        #expect(yes.handle(.character("n")) == .dismiss)
        #expect(yes.handle(.escape) == .dismiss)
        #expect(yes.handle(.enter) == .dismiss)  // confirm highlighted
        #expect(yes.handle(.right) == .handled)
        #expect(yes.handle(.enter) == .dismiss)  // now cancel
        #expect(yes.handle(.character("q")) == .handled)  // modal
        #expect(answers == [true, false, false, true, false])
    }

    @Test func promptDialogStaysOpenWhenSubmitIsRefusedAndShowsTheError() {
        let prompt = PromptDialog(title: "mystash", message: "Master passphrase:", isSecure: true)
        var tries: [String] = []
        prompt.onSubmit = { text in
            tries.append(text)
            if text != "open sesame" {
                prompt.errorMessage = "Wrong passphrase"
                return false
            }
            return true
        }
        widgetSend(prompt, widgetTyping("guess"))
        #expect(prompt.handle(.enter) == .handled)
        #expect(prompt.errorMessage == "Wrong passphrase")
        widgetSend(prompt, [.control("u")])
        #expect(prompt.errorMessage == nil)  // the next edit clears it
        widgetSend(prompt, widgetTyping("open sesame"))
        #expect(prompt.handle(.enter) == .dismiss)
        #expect(tries == ["guess", "open sesame"])
        var canvas = Canvas(width: 60, height: 12)
        prompt.render(into: &canvas, frame: canvas.bounds, at: 0)
        #expect(!canvas.text.contains("sesame"))
        #expect(canvas.text.contains("•••••••••••"))
    }

    @Test func detailViewScrollsOnlyWithinItsContent() {
        let detail = DetailView((1...20).map { ("Row \($0)", "value \($0)") })
        var canvas = Canvas(width: 40, height: 5)
        detail.render(into: &canvas, frame: canvas.bounds, at: 0)
        widgetSend(detail, [.end])
        #expect(detail.scrollOffset == 15)
        widgetSend(detail, [.down, .pageDown])
        #expect(detail.scrollOffset == 15)
        widgetSend(detail, [.character("g")])
        #expect(detail.scrollOffset == 0)
        widgetSend(detail, [.pageDown])
        #expect(detail.scrollOffset == 4)
        #expect(detail.handle(.escape) == .ignored)
        #expect(detail.handle(.left) == .ignored)
    }
}

/// The form: focus order, saving, cancelling with and without changes.
@Suite struct WidgetFormTests {
    private func makeForm() -> Form {
        Form(
            title: "New Password",
            fields: [
                .text("name", label: "Name", placeholder: "example.com"),
                .text("user", label: "User ID", value: "me"),
                .secret("password", label: "Password"),
                .multiline("notes", label: "Notes", height: 3),
            ]
        )
    }

    @Test func tabAndShiftTabCycleThroughFieldsAndTheSaveButton() {
        let form = makeForm()
        #expect(form.focusIndex == 0)
        widgetSend(form, [.tab, .tab, .tab, .tab])
        #expect(form.focusIndex == 4)  // [ Save ]
        widgetSend(form, [.tab])
        #expect(form.focusIndex == 0)
        widgetSend(form, [.backTab])
        #expect(form.focusIndex == 4)
        #expect(form.fields.filter { $0.control.isFocused }.isEmpty)
    }

    @Test func enterAndArrowsMoveBetweenSingleLineFieldsButStayInsideATextArea() {
        let form = makeForm()
        widgetSend(form, [.enter, .down])
        #expect(form.focusIndex == 2)
        widgetSend(form, [.down])
        #expect(form.focusIndex == 3)
        widgetSend(form, widgetTyping("a") + [.enter] + widgetTyping("b"))
        #expect(form.value(for: "notes") == "a\nb")
        widgetSend(form, [.up])  // to the first line of the notes
        #expect(form.focusIndex == 3)
        widgetSend(form, [.up])  // off the top: previous field
        #expect(form.focusIndex == 2)
    }

    @Test func controlSSavesTheValuesByKey() {
        let form = makeForm()
        var saved: [[String: String]] = []
        form.onSave = {
            saved.append($0)
            return true
        }
        widgetSend(form, widgetTyping("example.com") + [.tab, .tab] + widgetTyping("s3cret"))
        #expect(form.handle(.control("s")) == .dismiss)
        #expect(saved == [["name": "example.com", "user": "me", "password": "s3cret", "notes": ""]])
    }

    @Test func refusedSaveKeepsTheFormOpenWithItsError() {
        let form = makeForm()
        form.onSave = { values in
            if values["name"]!.isEmpty {
                form.errorMessage = "Name is required"
                return false
            }
            return true
        }
        widgetSend(form, [.backTab])  // on [ Save ]
        #expect(form.handle(.enter) == .handled)
        #expect(form.errorMessage == "Name is required")
        widgetSend(form, [.tab] + widgetTyping("x"))
        #expect(form.errorMessage == nil)
        #expect(form.handle(.control("s")) == .dismiss)
    }

    @Test func escapeWithoutChangesCancelsAtOnce() {
        let form = makeForm()
        var cancelled = 0
        form.onCancel = { cancelled += 1 }
        #expect(form.handle(.escape) == .dismiss)
        #expect(cancelled == 1)
    }

    @Test func escapeAfterAnEditAsksBeforeDiscarding() {
        let form = makeForm()
        var cancelled = 0
        form.onCancel = { cancelled += 1 }
        widgetSend(form, widgetTyping("x"))
        #expect(form.hasChanges)
        #expect(form.handle(.escape) == .handled)
        #expect(form.isConfirmingDiscard)
        #expect(form.handle(.character("n")) == .handled)  // keep editing
        #expect(!form.isConfirmingDiscard)
        #expect(cancelled == 0)
        #expect(form.value(for: "name") == "x")
        widgetSend(form, [.escape])
        #expect(form.handle(.enter) == .handled)  // "Keep Editing" is highlighted by default
        widgetSend(form, [.escape])
        #expect(form.handle(.character("y")) == .dismiss)
        #expect(cancelled == 1)
    }

    @Test func undoingAnEditLeavesNoChangesToDiscard() {
        let form = makeForm()
        widgetSend(form, widgetTyping("x") + [.backspace])
        #expect(!form.hasChanges)
    }

    @Test func charactersNeverLeakOutOfTheForm() {
        let form = makeForm()
        widgetSend(form, [.backTab])
        #expect(form.handle(.character("q")) == .handled)
    }
}
