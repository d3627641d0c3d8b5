/// The `\` filter line at the bottom of a screen: like `SearchField`, plus an
/// error shown under the text with a caret at the position where the filter
/// expression stops making sense.
///
/// The app parses the text in `onChange` and sets or clears the error. While
/// an error is set, Enter does not commit (the field stays open); Esc cancels.
///
///     let filter = FilterField()
///     filter.onChange = { text in
///         do { try controller.setFilter(text); filter.clearError() }
///         catch let error as PredicateError { filter.setError(error.reason, at: error.position) }
///     }
///     filter.activate()
///     loop.push(filter)
///     // \state == "CA
///     //          ^ unterminated string
public final class FilterField: View {
    let core = QueryFieldCore(prompt: "\\")

    /// Shown right-aligned (e.g. "42 banks").
    public var trailingText: String?
    /// The error message, if the text does not parse.
    public private(set) var errorMessage: String?
    /// Where the error is, in characters from the start of the text.
    public private(set) var errorPosition: Int?

    /// An inactive field; `prompt` is drawn before the text.
    public init(prompt: String = "\\") { core.prompt = prompt }

    /// Drawn bold before the text.
    public var prompt: String {
        get { core.prompt }
        set { core.prompt = newValue }
    }

    /// True from `activate` until a commit or Esc.
    public var isActive: Bool { core.isActive }

    /// The filter expression as typed.
    public var text: String {
        get { core.field.text }
        set { core.field.text = newValue }
    }

    /// The insertion point, in characters.
    public var cursorIndex: Int { core.field.cursorIndex }

    /// Called after every edit: parse here, then `setError` or `clearError`.
    public var onChange: ((String) -> Void)? {
        get { core.onChange }
        set { core.onChange = newValue }
    }

    /// Enter with no error set: apply the filter.
    public var onCommit: ((String) -> Void)? {
        get { core.onCommit }
        set { core.onCommit = newValue }
    }

    /// Esc: drop the filter.
    public var onCancel: (() -> Void)? {
        get { core.onCancel }
        set { core.onCancel = newValue }
    }

    /// Shows `message` with a caret under character `position` of the text (nil: no caret).
    public func setError(_ message: String, at position: Int?) {
        errorMessage = message
        errorPosition = position
    }

    /// The text parses again.
    public func clearError() {
        errorMessage = nil
        errorPosition = nil
    }

    /// Opens the field with `text` (e.g. the filter in force) and no error.
    public func activate(text: String = "") {
        core.activate(text: text)
        clearError()
    }

    /// Closes the field without calling any callback.
    public func deactivate() { core.deactivate() }

    public var isOpaque: Bool { false }

    public func handle(_ event: InputEvent) -> EventResult {
        let result = core.handle(event, canCommit: errorMessage == nil)
        if result == .dismiss && !core.isActive && core.field.text.isEmpty { clearError() }
        return result
    }

    /// Draws on the last row of `frame` (the last two while an error shows).
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard isActive, !frame.isEmpty else { return }
        let hasErrorLine = errorMessage != nil && frame.height >= 2
        let fieldY = hasErrorLine ? frame.maxY - 2 : frame.maxY - 1
        let textX = core.render(into: &canvas, x: frame.x, y: fieldY, width: frame.width,
                                trailing: trailingText, trailingAttributes: .dim, time: time)
        guard hasErrorLine, let errorMessage else { return }
        let y = frame.maxY - 1
        canvas.fill(" ", x: frame.x, y: y, width: frame.width)
        let errorAttributes: CellAttributes = [.bold, .destructive]
        guard let position = errorPosition else {
            canvas.put(errorMessage, x: textX, y: y, attributes: errorAttributes, maxWidth: frame.maxX - textX)
            return
        }
        // The caret's column: the text's cells before `position`, less the field's scroll.
        let characters = Array(core.field.text)
        let before = characters.prefix(max(0, min(position, characters.count)))
        let caretX = textX + DisplayWidth.of(String(before)) - core.field.scrollOffset
        guard caretX >= frame.x, caretX < frame.maxX else {
            canvas.put(errorMessage, x: textX, y: y, attributes: errorAttributes, maxWidth: frame.maxX - textX)
            return
        }
        canvas.put("^", x: caretX, y: y, attributes: errorAttributes)
        let messageWidth = DisplayWidth.of(errorMessage)
        if caretX + 2 + messageWidth <= frame.maxX || caretX - frame.x < messageWidth + 1 {
            canvas.put(errorMessage, x: caretX + 2, y: y, attributes: errorAttributes, maxWidth: frame.maxX - caretX - 2)
        } else {
            canvas.put(errorMessage, x: caretX - 1 - messageWidth, y: y, attributes: errorAttributes)
        }
    }
}
