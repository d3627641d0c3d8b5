import TerminalUI

/// The browser's `:` line: a query typed on the status line (a ``PromptField``, as Ctrl-S's
/// file name), over the screen it was opened from. Enter hands the query to ``onRun`` and
/// stays open: the browser closes it once the query runs, or shows why not
/// (``showError(_:offset:)``: the message under the line, the cursor where the trouble is).
/// Up and Down recall the ``QueryHistory``; Tab completes the word before the cursor
/// (``QueryCompletion``), again: the next name, the names shown on the right. Esc closes it.
/// While the query is checked elsewhere (``beginChecking(_:)``: on a server, off the screen's
/// thread) the line says so and waits; Esc then abandons the check and keeps the line, its text as typed.
///
///     let line = QueryLine(history: history, completion: names)
///     line.onRun = { sql in run(sql) }
///     loop.push(line)
final class QueryLine: View {
    let field = PromptField(prompt: ": ")
    /// The queries run before, oldest first.
    var history: QueryHistory
    /// The names Tab offers.
    var completion: QueryCompletion
    /// Enter, with the query (not empty).
    var onRun: ((String) -> Void)?
    /// Esc.
    var onCancel: (() -> Void)?
    /// Esc while a check is under way (``beginChecking(_:)``): the check abandoned, the line kept.
    var onStopChecking: (() -> Void)?
    /// The check under way (``beginChecking(_:)``), nil when none is.
    private(set) var checking: Int?
    /// The checks begun so far: each one's number.
    private var checks = 0

    /// Up/Down: the entry shown (nil: the text typed), and that text.
    private var recalled: (index: Int, draft: String)?
    /// Tab: the names offered for the word, the one put in, and the text it made.
    private var completing: Completing?

    /// A line recalling `history`, completing from `completion`, opened with `text`.
    init(history: QueryHistory, completion: QueryCompletion, text: String = "") {
        self.history = history
        self.completion = completion
        field.activate(text: text)
    }

    var isOpaque: Bool { false }

    /// The query as typed.
    var text: String { field.text }

    /// Opens the line again with `text` (the query refused or cancelled), `message` under it,
    /// the cursor at character `offset` of the query when known (else at its end).
    func showError(_ message: String, text: String, offset: Int?) {
        field.activate(text: text)
        if let offset { field.cursorIndex = offset }
        field.setError(message)
        field.trailingText = nil
    }

    /// Says `message` ("Checking on the server…") after the query until ``endChecking()``; keys
    /// wait meanwhile but Esc, which abandons the check. Returns the check's number (``checking``).
    func beginChecking(_ message: String) -> Int {
        checks += 1
        checking = checks
        completing = nil
        field.trailingText = message
        return checks
    }

    /// The check is over (its result arrived, or Esc abandoned it): the line takes keys again.
    func endChecking() {
        checking = nil
        field.trailingText = nil
    }

    func handle(_ event: InputEvent) -> EventResult {
        if checking != nil {
            guard event == .escape else { return .handled }
            endChecking()
            onStopChecking?()
            return .handled
        }
        switch event {
        case .enter:
            let sql = field.text
            guard !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return .handled }
            onRun?(sql)
            return .handled
        case .escape:
            field.deactivate()
            onCancel?()
            return .dismiss
        case .up, .down:
            recall(older: event == .up)
            return .handled
        case .tab:
            complete()
            return .handled
        case .resize, .mouseWheel, .mouseClick:
            return .handled
        default:
            recalled = nil
            completing = nil
            field.trailingText = nil
            _ = field.handle(event)
            if !field.isActive {  // Backspace on an empty line closes it, as Esc does
                onCancel?()
                return .dismiss
            }
            return .handled
        }
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        field.render(into: &canvas, frame: frame, at: time)
    }

    /// Up: the query run before the one shown; Down: the one after (past the last: the text typed).
    private func recall(older: Bool) {
        let entries = history.entries
        guard !entries.isEmpty else { return }
        let current = recalled?.index ?? entries.count
        let next = older ? max(0, current - 1) : current + 1
        let draft = recalled?.draft ?? field.text
        completing = nil
        field.trailingText = nil
        if next >= entries.count {
            recalled = nil
            field.activate(text: draft)
        } else {
            recalled = (next, draft)
            field.activate(text: entries[next])
        }
    }

    /// Tab: the word before the cursor completed with the first name that fits; Tab again
    /// (nothing typed meanwhile): the next one, round. Several names: they show on the right.
    private func complete() {
        if var current = completing, current.shown == field.text {
            current.chosen = (current.chosen + 1) % current.words.count
            show(current)
            return
        }
        guard let found = completion.candidates(in: field.text, cursor: field.cursorIndex) else {
            completing = nil
            field.trailingText = "no name to complete"
            return
        }
        show(Completing(original: field.text, range: found.range, words: found.words, chosen: 0, shown: ""))
    }

    /// The typed text with its word replaced by the chosen name, the cursor after it.
    private func show(_ current: Completing) {
        var characters = Array(current.original)
        let word = current.words[current.chosen]
        characters.replaceSubrange(current.range, with: Array(word))
        var shown = current
        shown.shown = String(characters)
        field.text = shown.shown
        field.cursorIndex = current.range.lowerBound + word.count
        field.trailingText = current.words.count > 1 ? current.words.joined(separator: " ") : nil
        completing = shown
    }

    /// A completion under way: the text as typed, its word's characters, the names, the one
    /// put in, and the text that made.
    private struct Completing {
        var original: String
        var range: Range<Int>
        var words: [String]
        var chosen: Int
        var shown: String
    }
}
