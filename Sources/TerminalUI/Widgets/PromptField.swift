/// A question on the status line: a bold prompt and the answer typed (a file name to save
/// to), like `SearchField` and `FilterField`, with an error shown under the answer when the
/// app refuses it.
///
/// The app activates it with its question; while active it takes every key (it is modal).
/// Enter calls `onCommit` and closes; the app that refuses the answer opens it again with
/// ``setError(_:)`` (the answer kept, the reason shown until the next edit). Esc, or Backspace on
/// an empty field, calls `onCancel` and closes.
///
///     let save = PromptField(prompt: "Save as: ")
///     save.trailingText = ".csv .tsv .jsonl .sqlite"
///     save.onCommit = { name in
///         guard name.hasSuffix(".csv") else {
///             save.activate(text: name)
///             save.setError("not a .csv file")
///             return
///         }
///         write(to: name)
///     }
///     save.activate(text: "books.csv")
public final class PromptField: EntryBar {
    /// Why the answer was refused, shown under it until the next edit.
    public private(set) var errorMessage: String?

    /// An inactive field; `prompt` is drawn before the answer.
    public override init(prompt: String) {
        super.init(prompt: prompt)
        let change = field.onChange
        field.onChange = { [unowned self] text in
            self.errorMessage = nil
            change?(text)
        }
    }

    /// Shows `message` under the answer (in the destructive style) until the next edit.
    public func setError(_ message: String) { errorMessage = message }

    /// Opens the field with `text` (the cursor at its end), no error and no trailing text change.
    public override func activate(text: String = "") {
        super.activate(text: text)
        errorMessage = nil
    }

    /// Draws on the last row of `frame` (the last two while an error shows: the answer, then the error).
    public override func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard isActive, !frame.isEmpty else { return }
        guard let errorMessage, frame.height >= 2 else {
            super.render(into: &canvas, frame: frame, at: time)
            return
        }
        let textX = renderLine(into: &canvas, x: frame.x, y: frame.maxY - 2, width: frame.width, time: time)
        canvas.fill(" ", x: frame.x, y: frame.maxY - 1, width: frame.width)
        canvas.put(
            errorMessage,
            x: textX,
            y: frame.maxY - 1,
            attributes: [.bold, .destructive],
            maxWidth: frame.maxX - textX
        )
    }
}
