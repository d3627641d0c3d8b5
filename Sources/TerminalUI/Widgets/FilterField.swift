/// The `\` filter line at the bottom of a screen: like `SearchField`, plus an
/// error shown under the text with a caret at the position where the filter
/// expression stops making sense.
///
/// The app parses the text in `onChange` and sets or clears the error. While
/// an error is set, Enter does not commit (the field stays open); Esc cancels.
///
///     let filter = FilterField()
///     filter.onChange = { text in
///         do { request.predicate = try FetchPredicate(text); filter.clearError() }
///         catch let error as FetchPredicateError { filter.setError(error.description, at: error.position - 1) }
///         catch { filter.setError("\(error)", at: nil) }
///     }
///     filter.activate()
///     loop.push(filter)
///     // \state == "CA
///     //          ^ unterminated string
public final class FilterField: EntryBar {
    /// The error message, if the text does not parse.
    public private(set) var errorMessage: String?
    /// Where the error is, in characters from the start of the text.
    public private(set) var errorPosition: Int?

    /// An inactive field; `prompt` is drawn before the text.
    public override init(prompt: String = "\\") { super.init(prompt: prompt) }

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
    public override func activate(text: String = "") {
        super.activate(text: text)
        clearError()
    }

    /// Enter does not commit while an error is set.
    override var canCommit: Bool { errorMessage == nil }

    public override func handle(_ event: InputEvent) -> EventResult {
        let result = super.handle(event)
        if result == .dismiss && !isActive && field.text.isEmpty { clearError() }
        return result
    }

    /// Draws on the last row of `frame` (the last two while an error shows).
    public override func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard isActive, !frame.isEmpty else { return }
        let hasErrorLine = errorMessage != nil && frame.height >= 2
        let fieldY = hasErrorLine ? frame.maxY - 2 : frame.maxY - 1
        let textX = renderLine(into: &canvas, x: frame.x, y: fieldY, width: frame.width, time: time)
        guard hasErrorLine, let errorMessage else { return }
        let y = frame.maxY - 1
        canvas.fill(" ", x: frame.x, y: y, width: frame.width)
        let errorAttributes: CellAttributes = [.bold, .destructive]
        guard let position = errorPosition else {
            canvas.put(errorMessage, x: textX, y: y, attributes: errorAttributes, maxWidth: frame.maxX - textX)
            return
        }
        // The caret's column: the text's cells before `position`, less the field's scroll.
        let characters = Array(field.text)
        let before = characters.prefix(max(0, min(position, characters.count)))
        let caretX = textX + DisplayWidth.of(String(before)) - field.scrollOffset
        guard caretX >= frame.x, caretX < frame.maxX else {
            canvas.put(errorMessage, x: textX, y: y, attributes: errorAttributes, maxWidth: frame.maxX - textX)
            return
        }
        canvas.put("^", x: caretX, y: y, attributes: errorAttributes)
        let messageWidth = DisplayWidth.of(errorMessage)
        if caretX + 2 + messageWidth <= frame.maxX || caretX - frame.x < messageWidth + 1 {
            canvas.put(
                errorMessage,
                x: caretX + 2,
                y: y,
                attributes: errorAttributes,
                maxWidth: frame.maxX - caretX - 2
            )
        } else {
            canvas.put(errorMessage, x: caretX - 1 - messageWidth, y: y, attributes: errorAttributes)
        }
    }
}
