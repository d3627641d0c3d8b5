/// The mechanics shared by `SearchField` and `FilterField`: a prompt and a
/// one-line editor on the bottom line, incremental `onChange`, Enter commits,
/// Esc (or Backspace on an empty field) cancels.
final class QueryFieldCore {
    let field = TextField()
    var prompt: String
    private(set) var isActive = false
    var onChange: ((String) -> Void)?
    var onCommit: ((String) -> Void)?
    var onCancel: (() -> Void)?

    init(prompt: String) {
        self.prompt = prompt
        field.fieldAttributes = []
        field.onChange = { [unowned self] text in self.onChange?(text) }
    }

    func activate(text: String) {
        field.text = text
        isActive = true
    }

    func deactivate() { isActive = false }

    /// `canCommit`: whether Enter may close the field now (a filter with an error may not).
    func handle(_ event: InputEvent, canCommit: Bool) -> EventResult {
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
            return .handled   // the line is modal: nothing else reacts while typing
        }
    }

    private func cancel() {
        isActive = false
        field.text = ""
        onCancel?()
    }

    /// Draws prompt, text and `trailing` on row `y`; returns the x where the text starts.
    @discardableResult
    func render(into canvas: inout Canvas, x: Int, y: Int, width: Int, trailing: String?,
                trailingAttributes: CellAttributes, time: Double) -> Int {
        canvas.fill(" ", x: x, y: y, width: width)
        let promptWidth = canvas.put(prompt, x: x, y: y, attributes: .bold, maxWidth: width)
        var fieldWidth = width - promptWidth
        if let trailing, !trailing.isEmpty {
            let trailingWidth = min(DisplayWidth.of(trailing), max(0, fieldWidth / 2))
            if trailingWidth > 0 {
                canvas.put(trailing, x: x + width - trailingWidth, y: y, attributes: trailingAttributes,
                           maxWidth: trailingWidth)
                fieldWidth -= trailingWidth + 1
            }
        }
        field.render(into: &canvas, frame: Rect(x: x + promptWidth, y: y, width: max(0, fieldWidth), height: 1),
                     at: time)
        return x + promptWidth
    }
}
