/// The `/` search line at the bottom of a screen.
///
/// The app activates it on `/`; while active it takes every key (it is modal).
/// Each edit calls `onChange` with the text (incremental search); Enter calls
/// `onCommit` and closes, keeping the match (then `n`/`N`, handled by the app,
/// go to the next/previous match); Esc, or Backspace on an empty field, calls
/// `onCancel` and closes with the text cleared. Closing returns `.dismiss`,
/// so the field can be pushed on the run loop as an overlay, or embedded in a
/// screen that forwards keys while `isActive`.
///
///     let search = SearchField()
///     search.onChange = { text in table.selectFirstMatch(text) }
///     search.onCommit = { text in lastSearch = text }
///     // on "/":
///     search.activate()
///     loop.push(search)
///     // the app updates the count it shows on the right:
///     search.trailingText = "3 of 17"
public final class SearchField: View {
    let core = QueryFieldCore(prompt: "/")

    /// Shown right-aligned (e.g. "3 of 17", "no match").
    public var trailingText: String?

    /// An inactive field; `prompt` is drawn before the text.
    public init(prompt: String = "/") { core.prompt = prompt }

    /// Drawn bold before the text.
    public var prompt: String {
        get { core.prompt }
        set { core.prompt = newValue }
    }

    /// True from `activate` until Enter or Esc.
    public var isActive: Bool { core.isActive }

    /// The search text (kept after Enter, cleared by Esc).
    public var text: String {
        get { core.field.text }
        set { core.field.text = newValue }
    }

    /// The insertion point, in characters.
    public var cursorIndex: Int { core.field.cursorIndex }

    /// Called after every edit (incremental search).
    public var onChange: ((String) -> Void)? {
        get { core.onChange }
        set { core.onChange = newValue }
    }

    /// Enter: keep the match.
    public var onCommit: ((String) -> Void)? {
        get { core.onCommit }
        set { core.onCommit = newValue }
    }

    /// Esc, or Backspace on an empty field.
    public var onCancel: (() -> Void)? {
        get { core.onCancel }
        set { core.onCancel = newValue }
    }

    /// Opens the field with `text` (e.g. the previous search) and the cursor at its end.
    public func activate(text: String = "") {
        core.activate(text: text)
        trailingText = nil
    }

    /// Closes the field without calling any callback.
    public func deactivate() { core.deactivate() }

    public var isOpaque: Bool { false }

    public func handle(_ event: InputEvent) -> EventResult {
        core.handle(event, canCommit: true)
    }

    /// Draws on the last row of `frame` while active.
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard isActive, !frame.isEmpty else { return }
        core.render(into: &canvas, x: frame.x, y: frame.maxY - 1, width: frame.width,
                    trailing: trailingText, trailingAttributes: .dim, time: time)
    }
}
