import Testing

@testable import TerminalUI

/// Golden screens of the widgets (Golden/Widget*.txt; UPDATE_GOLDEN=1 rewrites them).
@Suite struct WidgetGoldenTests {
    static let keys: [(keys: String, description: String)] = [
        ("", "Browse"),
        ("↑/↓ j/k", "move the selection"),
        ("PgUp/PgDn Space/b", "page up / down"),
        ("Home/End g/G", "first / last row"),
        ("{ }", "previous / next section"),
        ("Tab/Shift-Tab", "switch sort tab"),
        ("Enter →", "show details"),
        ("Esc ←", "back"),
        ("", "Find"),
        ("/", "search; n/N next / previous match"),
        ("\\", "filter"),
        ("", "Edit"),
        ("d Delete", "reveal Delete; Enter or d confirms"),
        ("u", "undo"),
        ("", "Screen"),
        ("Ctrl-L", "redraw"),
        ("? F1", "this help"),
        ("q", "quit"),
    ]

    private func helpScreen(width: Int, height: Int) -> Canvas {
        widgetCanvas(width: width, height: height) { canvas in
            widgetBackground(&canvas)
            HelpOverlay(bindings: Self.keys).render(into: &canvas, frame: canvas.bounds, at: 0)
        }
    }

    @Test func helpOverlay80x24() { Golden.check(helpScreen(width: 80, height: 24), "WidgetHelpOverlay-80x24") }
    @Test func helpOverlay40x12ScrollsAndTruncates() {
        Golden.check(helpScreen(width: 40, height: 12), "WidgetHelpOverlay-40x12")
    }
    @Test func helpOverlay120x40() { Golden.check(helpScreen(width: 120, height: 40), "WidgetHelpOverlay-120x40") }

    /// Navigation bar, tab bar and a status line with a transient message: the frame of the bank list.
    private func chrome(width: Int, height: Int, at time: Double) -> Canvas {
        widgetCanvas(width: width, height: height) { canvas in
            let screen = canvas.bounds
            NavigationBar(title: "Failed Banks", trailingText: "572 banks")
                .render(into: &canvas, frame: screen.row(0), at: time)
            let tabs = TabBar(titles: ["Closing Date", "Name", "State"], selectedIndex: 1)
            tabs.render(into: &canvas, frame: screen.row(1), at: time)
            let status = StatusLine(hints: "? help  / search  \\ filter  d delete  q quit", trailingText: "123/572")
            status.showMessage("Deleted Silicon Valley Bank — u to undo", at: 0, duration: 4)
            status.render(into: &canvas, frame: screen.row(screen.height - 1), at: time)
        }
    }

    @Test func statusLineWithMessageAndTabBar80x24() {
        Golden.check(chrome(width: 80, height: 24, at: 1), "WidgetChrome-message-80x24")
    }
    @Test func statusLineAfterTheMessageExpired80x24() {
        Golden.check(chrome(width: 80, height: 24, at: 5), "WidgetChrome-hints-80x24")
    }
    @Test func chromeTruncatesAt40x12() {
        Golden.check(chrome(width: 40, height: 12, at: 1), "WidgetChrome-message-40x12")
    }
    @Test func chrome120x40() {
        Golden.check(chrome(width: 120, height: 40, at: 5), "WidgetChrome-hints-120x40")
    }

    @Test func navigationBarWithBackAndALongTitle() {
        let canvas = widgetCanvas(width: 40, height: 3) { canvas in
            NavigationBar(title: "Detail", backTitle: "Banks").render(into: &canvas, frame: canvas.bounds.row(0), at: 0)
            NavigationBar(title: "The First National Bank of Chicago Heights", backTitle: "Banks", trailingText: "3/9")
                .render(into: &canvas, frame: canvas.bounds.row(2), at: 0)
        }
        Golden.check(canvas, "WidgetNavigationBar-40x3")
    }

    private func makeForm() -> Form {
        let form = Form(
            title: "Edit Password",
            fields: [
                .text("name", label: "Name", value: "example.com"),
                .text("user", label: "User ID", value: "jane@example.com"),
                .secret("password", label: "Password", value: "correct horse"),
                .multiline(
                    "notes",
                    label: "Notes",
                    value: "Recovery codes in the safe.\nChanged 2024-05-01.",
                    height: 4
                ),
            ]
        )
        widgetSend(form, [.tab])  // focus on User ID
        return form
    }

    @Test func form80x24() {
        let form = makeForm()
        let canvas = widgetCanvas(width: 80, height: 24) { form.render(into: &$0, frame: $0.bounds, at: 0) }
        #expect(canvas.cursor! == (27, 3))  // after "jane@example.com" in the User ID field
        Golden.check(canvas, "WidgetForm-80x24")
    }

    @Test func form40x12ShrinksTheTextArea() {
        let form = makeForm()
        form.errorMessage = "Name is taken"
        let canvas = widgetCanvas(width: 40, height: 12) { form.render(into: &$0, frame: $0.bounds, at: 0) }
        Golden.check(canvas, "WidgetForm-40x12")
    }

    @Test func formAskingToDiscardChanges120x40() {
        let form = makeForm()
        widgetSend(form, widgetTyping(".uk") + [.escape])
        let canvas = widgetCanvas(width: 120, height: 40) { form.render(into: &$0, frame: $0.bounds, at: 0) }
        #expect(canvas.cursor == nil)
        Golden.check(canvas, "WidgetFormDiscard-120x40")
    }

    private let bankRows: [(String, String)] = [
        ("Bank", "Silicon Valley Bank"),
        ("City", "Santa Clara"),
        ("State", "CA"),
        ("Cert", "24735"),
        ("Acquired by", "First–Citizens Bank & Trust Company"),
        ("Closed", "2023-03-10"),
        ("Updated", "2023-08-21"),
        ("Fund", "10539"),
        (
            "Notes",
            "The second-largest bank failure in United States history at the time; deposits were transferred to a bridge bank, Silicon Valley Bridge Bank, N.A., operated by the FDIC.\n東京支店: なし"
        ),
    ]

    @Test func detailView80x24() {
        let detail = DetailView(bankRows)
        Golden.check(
            widgetCanvas(width: 80, height: 24) { detail.render(into: &$0, frame: $0.bounds, at: 0) },
            "WidgetDetailView-80x24"
        )
    }

    @Test func detailView40x12WrapsAndScrolls() {
        let detail = DetailView(bankRows)
        var canvas = widgetCanvas(width: 40, height: 12) { detail.render(into: &$0, frame: $0.bounds, at: 0) }
        Golden.check(canvas, "WidgetDetailView-40x12")
        widgetSend(detail, [.end])
        canvas.erase()
        detail.render(into: &canvas, frame: canvas.bounds, at: 0)
        Golden.check(canvas, "WidgetDetailView-40x12-end")
    }

    @Test func detailView120x40() {
        let detail = DetailView(bankRows)
        Golden.check(
            widgetCanvas(width: 120, height: 40) { detail.render(into: &$0, frame: $0.bounds, at: 0) },
            "WidgetDetailView-120x40"
        )
    }

    @Test func tooSmallScreen() {
        let view = TooSmallView(minimumWidth: 20, minimumHeight: 5)
        Golden.check(
            widgetCanvas(width: 19, height: 4) { view.render(into: &$0, frame: $0.bounds, at: 0) },
            "WidgetTooSmall-19x4"
        )
        Golden.check(
            widgetCanvas(width: 30, height: 1) { view.render(into: &$0, frame: $0.bounds, at: 0) },
            "WidgetTooSmall-30x1"
        )
    }

    @Test func tooSmallScreenThroughTheRunLoop() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(width: 12, height: 4, clock: clock, script: [(0, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock, minimumWidth: 40, minimumHeight: 10)
        _ = loop.run()
        Golden.check(screen.frames[0], "WidgetTooSmall-12x4")
    }

    @Test func searchFieldAtTheBottom80x24() {
        let search = SearchField()
        search.activate(text: "silicon")
        search.trailingText = "1 of 2"
        let canvas = widgetCanvas(width: 80, height: 24) { canvas in
            widgetBackground(&canvas)
            search.render(into: &canvas, frame: canvas.bounds, at: 0)
        }
        #expect(canvas.cursor! == (8, 23))
        Golden.check(canvas, "WidgetSearchField-80x24")
    }

    @Test func filterFieldShowsACaretUnderTheError80x24() {
        let filter = FilterField()
        filter.activate(text: "state == \"CA and city beginswith \"San\"")
        filter.setError("expected a value after 'beginswith'", at: 33)
        filter.trailingText = "0 banks"
        let canvas = widgetCanvas(width: 80, height: 24) { canvas in
            widgetBackground(&canvas)
            filter.render(into: &canvas, frame: canvas.bounds, at: 0)
        }
        Golden.check(canvas, "WidgetFilterField-error-80x24")
    }

    @Test func filterErrorNearTheRightEdgeGoesLeftOfTheCaret40x12() {
        let filter = FilterField()
        filter.activate(text: "name contains \"Bank\" and state ==")
        filter.setError("expected a value", at: 33)
        let canvas = widgetCanvas(width: 40, height: 12) { filter.render(into: &$0, frame: $0.bounds, at: 0) }
        Golden.check(canvas, "WidgetFilterField-error-40x12")
    }

    @Test func confirmDialog80x24() {
        let dialog = ConfirmDialog(
            title: "Delete",
            message: "Delete Silicon Valley Bank? This can be undone with u.",
            confirmTitle: "Delete",
            cancelTitle: "Cancel"
        )
        dialog.isDestructive = true
        let canvas = widgetCanvas(width: 80, height: 24) { canvas in
            widgetBackground(&canvas)
            dialog.render(into: &canvas, frame: canvas.bounds, at: 0)
        }
        Golden.check(canvas, "WidgetConfirmDialog-80x24")
    }

    @Test func passphrasePrompt40x12() {
        let prompt = PromptDialog(title: "mystash", message: "Master passphrase:", isSecure: true)
        widgetSend(prompt, widgetTyping("open sesame"))
        prompt.errorMessage = "Wrong passphrase"
        let canvas = widgetCanvas(width: 40, height: 12) { canvas in
            widgetBackground(&canvas)
            prompt.render(into: &canvas, frame: canvas.bounds, at: 0)
        }
        Golden.check(canvas, "WidgetPromptDialog-secure-40x12")
    }

    @Test func cjkAndEmojiTextField() {
        // Each line: the same field after more keys, 16 cells wide.
        let field = TextField(text: "")
        var canvas = Canvas(width: 20, height: 5)
        let steps: [[InputEvent]] = [
            widgetTyping("東京 Bank 😀"),
            widgetTyping("🏦銀行"),
            [.home, .right, .right],
            [.control("k")] + widgetTyping("é"),
            [.end] + widgetTyping("ｶﾀｶﾅ全角"),
        ]
        var cursors: [Int] = []
        for (row, events) in steps.enumerated() {
            widgetSend(field, events)
            field.render(into: &canvas, frame: Rect(x: 2, y: row, width: 16, height: 1), at: 0)
            cursors.append(canvas.cursor!.x)
        }
        #expect(field.text == "東京éｶﾀｶﾅ全角")
        // 12 cells; 18 scrolled by 3; after 京 (cell 4), scrolled back to show 京; "東京é"; + 4 halfwidth + 4 fullwidth.
        #expect(cursors == [14, 17, 4, 7, 15])
        Golden.check(canvas, "WidgetTextField-cjk-emoji-20x5")
    }
}
