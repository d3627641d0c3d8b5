/// A centred yes/no question ("Delete Dune Messiah?", "Discard changes?").
///
/// `y` answers yes, `n` or Esc no; ←/→ or Tab move between the two buttons and
/// Enter presses the highlighted one. After answering, `onAnswer` is called
/// and the dialog returns `.dismiss`.
///
///     let confirm = ConfirmDialog(message: "Discard changes?", confirmTitle: "Discard", cancelTitle: "Keep editing")
///     confirm.onAnswer = { discard in if discard { loop.pop() } }
///     loop.push(confirm)
public final class ConfirmDialog: View {
    /// In the top edge of the box.
    public var title: String?
    /// The question, wrapped to the box.
    public var message: String
    /// Label of the yes button ("Delete", "Discard").
    public var confirmTitle: String
    /// Label of the no button.
    public var cancelTitle: String
    /// True while the confirm button is highlighted (Enter answers yes).
    public var confirmSelected: Bool
    /// Draw the confirm button in the destructive colour.
    public var isDestructive = false
    /// Called with true (yes) or false (no, Esc) before the dialog closes.
    public var onAnswer: ((Bool) -> Void)?

    /// A dialog; `confirmSelected` chooses which button Enter presses at first.
    public init(
        title: String? = nil,
        message: String,
        confirmTitle: String = "Yes",
        cancelTitle: String = "No",
        confirmSelected: Bool = true
    ) {
        self.title = title
        self.message = message
        self.confirmTitle = confirmTitle
        self.cancelTitle = cancelTitle
        self.confirmSelected = confirmSelected
    }

    public var isOpaque: Bool { false }

    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .character("y"), .character("Y"): return answer(true)
        case .character("n"), .character("N"), .escape: return answer(false)
        case .enter: return answer(confirmSelected)
        case .left, .right, .tab, .backTab, .character("h"), .character("l"):
            confirmSelected.toggle()
            return .handled
        default:
            return .handled  // modal: nothing beneath reacts
        }
    }

    private func answer(_ yes: Bool) -> EventResult {
        onAnswer?(yes)
        return .dismiss
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let confirm = "[ \(confirmTitle) ]"
        let cancel = "[ \(cancelTitle) ]"
        let buttonsWidth = DisplayWidth.of(confirm) + 2 + DisplayWidth.of(cancel)
        let wanted = max(buttonsWidth, min(56, DisplayWidth.of(message)), DisplayWidth.of(title ?? "") + 2) + 4
        let boxWidth = min(frame.width, max(wanted, min(36, frame.width)))
        let inner = max(1, boxWidth - 4)
        let lines = TextWrap.lines(message, width: inner)
        let box = frame.centered(width: boxWidth, height: lines.count + 5)
        guard box.width >= 4, box.height >= 3 else { return }
        Box.draw(into: &canvas, frame: box, title: title)
        let inside = Box.content(of: box)
        for (index, line) in lines.enumerated() where inside.y + 1 + index < inside.maxY {
            canvas.put(line, x: inside.x, y: inside.y + 1 + index, maxWidth: inside.width)
        }
        let y = inside.maxY - 1
        var x = max(inside.x, inside.maxX - buttonsWidth)
        var confirmAttributes: CellAttributes = confirmSelected ? [.reverse, .bold] : []
        if isDestructive { confirmAttributes.insert(.destructive) }
        x += canvas.put(confirm, x: x, y: y, attributes: confirmAttributes, maxWidth: inside.maxX - x) + 2
        canvas.put(
            cancel,
            x: x,
            y: y,
            attributes: confirmSelected ? [] : [.reverse, .bold],
            maxWidth: max(0, inside.maxX - x)
        )
    }
}
