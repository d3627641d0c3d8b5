import TerminalUI

/// An entry's previous passwords with the time each was replaced (`h` on a
/// password entry): masked until Ctrl-R, dropped when the view closes (Esc).
///
///     loop.push(PasswordHistoryView(name: "Bank", history: entry.history))
final class PasswordHistoryView: View {
    let name: String
    private(set) var history: PasswordHistory
    private(set) var isRevealed = false

    init(name: String, history: PasswordHistory) {
        self.name = name
        self.history = history
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        canvas.put(
            "Password history of “\(name)”",
            x: frame.x + 1,
            y: frame.y,
            attributes: .bold,
            maxWidth: frame.width - 2
        )
        if history.items.isEmpty {
            canvas.put(
                "No previous passwords",
                x: frame.x + 2,
                y: frame.y + 2,
                attributes: .dim,
                maxWidth: frame.width - 4
            )
        }
        for (index, item) in history.items.enumerated() where index < frame.height - 4 {
            let shown = isRevealed ? item.password : String(repeating: "•", count: min(20, max(6, item.password.count)))
            canvas.put(
                "replaced \(item.replaced.replacingOccurrences(of: "T", with: " "))   \(shown)",
                x: frame.x + 2,
                y: frame.y + 2 + index,
                maxWidth: frame.width - 4
            )
        }
        canvas.put(
            "Ctrl-R reveal · Esc back",
            x: frame.x + 1,
            y: frame.maxY - 1,
            attributes: .dim,
            maxWidth: frame.width - 2
        )
    }

    func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .control("r"):
            isRevealed.toggle()
            return .handled
        case .escape, .character("q"), .character("h"), .left:
            history = PasswordHistory()  // drop the plaintext with the view
            isRevealed = false
            return .dismiss
        default:
            return .handled
        }
    }
}
