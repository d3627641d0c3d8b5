/// A one-line text-entry bar at the bottom of a screen: the mechanics shared by
/// `SearchField` and `FilterField` (a bold prompt, a one-line editor, text on
/// the right, incremental `onChange`, Enter commits, Esc or Backspace on an
/// empty field cancels).
///
/// It exists so the two bars cannot drift apart; apps use the subclasses, and
/// it cannot be created or subclassed outside TerminalUI.
///
///     let bar: EntryBar = useFilter ? FilterField() : SearchField()
///     bar.onCommit = { text in apply(text) }
///     bar.activate()
///     loop.push(bar)
public class EntryBar: View {
    let field = TextField()

    /// Shown right-aligned (e.g. "3 of 17", "42 books").
    public var trailingText: String?

    /// Drawn bold before the text.
    public var prompt: String

    /// True from `activate` until Enter commits or the field is cancelled.
    public private(set) var isActive = false

    /// The text as typed (kept after Enter, cleared by Esc).
    public var text: String {
        get { field.text }
        set { field.text = newValue }
    }

    /// The insertion point, in characters (set: moved there, kept within the text).
    public var cursorIndex: Int {
        get { field.cursorIndex }
        set { field.cursorIndex = newValue }
    }

    /// Longest text accepted, in characters (nil: unlimited): an edit that would make it longer is refused.
    public var maximumLength: Int? {
        get { field.maximumLength }
        set { field.maximumLength = newValue }
    }

    /// Called after an edit (once per burst of input, such as a paste: see `InputBurst`).
    public var onChange: ((String) -> Void)?

    /// Enter: the field closes with the text.
    public var onCommit: ((String) -> Void)?

    /// Esc, or Backspace on an empty field.
    public var onCancel: (() -> Void)?

    init(prompt: String) {
        self.prompt = prompt
        field.fieldAttributes = []
        field.onChange = { [unowned self] text in self.onChange?(text) }
    }

    /// Opens the field with `text` and the cursor at its end.
    public func activate(text: String = "") {
        field.text = text
        isActive = true
    }

    /// Closes the field without calling any callback.
    public func deactivate() { isActive = false }

    public var isOpaque: Bool { false }

    /// Whether Enter may close the field now (a filter with an error may not).
    var canCommit: Bool { true }

    public func handle(_ event: InputEvent) -> EventResult {
        guard isActive else { return .ignored }
        switch event {
        case .enter:
            guard canCommit else { return .handled }
            isActive = false
            onCommit?(field.text)
            return .dismiss
        case .escape:
            cancel()
            return .dismiss
        case .backspace where field.text.isEmpty:
            cancel()
            return .dismiss
        case .resize, .mouseWheel, .mouseClick:
            return .handled
        default:
            _ = field.handle(event)
            return .handled  // the line is modal: nothing else reacts while typing
        }
    }

    private func cancel() {
        isActive = false
        field.text = ""
        onCancel?()
    }

    /// Draws on the last row of `frame` while active.
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard isActive, !frame.isEmpty else { return }
        renderLine(into: &canvas, x: frame.x, y: frame.maxY - 1, width: frame.width, time: time)
    }

    /// Draws prompt, text and `trailingText` on row `y`; returns the x where the text starts.
    @discardableResult
    func renderLine(into canvas: inout Canvas, x: Int, y: Int, width: Int, time: Double) -> Int {
        canvas.fill(" ", x: x, y: y, width: width)
        let promptWidth = canvas.put(prompt, x: x, y: y, attributes: .bold, maxWidth: width)
        var fieldWidth = width - promptWidth
        if let trailing = trailingText, !trailing.isEmpty {
            let trailingWidth = min(DisplayWidth.of(trailing), max(0, fieldWidth / 2))
            if trailingWidth > 0 {
                canvas.put(
                    trailing,
                    x: x + width - trailingWidth,
                    y: y,
                    attributes: .dim,
                    maxWidth: trailingWidth
                )
                fieldWidth -= trailingWidth + 1
            }
        }
        field.render(
            into: &canvas,
            frame: Rect(x: x + promptWidth, y: y, width: max(0, fieldWidth), height: 1),
            at: time
        )
        return x + promptWidth
    }
}
