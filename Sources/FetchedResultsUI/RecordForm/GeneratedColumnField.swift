import TerminalUI

/// A form's field for a generated column (SQLite computes it): its value, or "generated" when
/// there is none yet, dim and not editable — keys reach it only to move on.
final class GeneratedColumnField: FormControl {
    /// What the field shows; the form's save leaves generated columns out whatever it holds.
    var value: String
    var isFocused = false
    var preferredHeight: Int { 1 }

    init(value: String) { self.value = value }

    func handle(_ event: InputEvent) -> EventResult { .ignored }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let text = value.isEmpty ? "generated" : "\(value) (generated)"
        canvas.put(text, x: frame.x, y: frame.y, attributes: .dim, maxWidth: frame.width)
    }
}
