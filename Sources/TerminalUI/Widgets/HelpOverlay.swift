/// A centred box listing key bindings; any key closes it.
///
/// Opened by `?` or F1 (the run loop does this itself when given
/// `helpBindings`). A binding with empty `keys` is a heading. When the list is
/// taller than the screen, ↑/↓/PgUp/PgDn scroll it and every other key closes.
///
///     let help = HelpOverlay(bindings: [
///         ("", "Browse"),
///         ("↑/↓ j/k", "move the selection"),
///         ("/", "search, n/N next/previous match"),
///         ("q", "quit"),
///     ])
///     loop.push(help)           // drawn over the current screen
public final class HelpOverlay: View {
    /// In the top edge of the box.
    public var title: String
    /// Keys and what they do, in order; empty `keys` makes a heading.
    public var bindings: [(keys: String, description: String)]
    /// First list line shown (when the list does not fit).
    public private(set) var scrollOffset = 0
    /// Called when the overlay closes.
    public var onDismiss: (() -> Void)?
    private var visibleLines = 0

    /// An overlay listing `bindings`.
    public init(title: String = "Keys", bindings: [(keys: String, description: String)]) {
        self.title = title
        self.bindings = bindings
    }

    public var isOpaque: Bool { false }

    private var keysWidth: Int {
        bindings.filter { !$0.keys.isEmpty }.map { DisplayWidth.of($0.keys) }.max() ?? 0
    }

    private var contentWidth: Int {
        let rows = bindings.map { binding in
            binding.keys.isEmpty
                ? DisplayWidth.of(binding.description)
                : keysWidth + 2 + DisplayWidth.of(binding.description)
        }
        return max(rows.max() ?? 0, DisplayWidth.of(Self.footer), DisplayWidth.of(title) + 2)
    }

    static let footer = "Press any key to close"

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let box = frame.centered(width: contentWidth + 4, height: bindings.count + 4)
        guard box.width >= 4, box.height >= 3 else { return }
        Box.draw(into: &canvas, frame: box, title: title)
        let inside = Box.content(of: box)
        let listHeight = max(0, inside.height - 1)  // last inside line: the footer
        visibleLines = listHeight
        scrollOffset = max(0, min(scrollOffset, bindings.count - listHeight))
        for row in 0..<listHeight {
            let index = scrollOffset + row
            guard index < bindings.count else { break }
            let binding = bindings[index]
            let y = inside.y + row
            if binding.keys.isEmpty {
                canvas.put(binding.description, x: inside.x, y: y, attributes: .bold, maxWidth: inside.width)
            } else {
                canvas.put(binding.keys, x: inside.x, y: y, attributes: .accent, maxWidth: inside.width)
                let descriptionX = inside.x + keysWidth + 2
                canvas.put(binding.description, x: descriptionX, y: y, maxWidth: inside.maxX - descriptionX)
            }
        }
        let footer = bindings.count > listHeight ? "↑/↓ scroll · any other key closes" : Self.footer
        canvas.put(footer, x: inside.x, y: inside.maxY - 1, attributes: .dim, maxWidth: inside.width)
    }

    public func handle(_ event: InputEvent) -> EventResult {
        let scrollable = bindings.count > visibleLines && visibleLines > 0
        if scrollable {
            switch event {
            case .up:
                scrollOffset = max(0, scrollOffset - 1)
                return .handled
            case .down:
                scrollOffset += 1
                return .handled
            case .pageUp:
                scrollOffset = max(0, scrollOffset - visibleLines)
                return .handled
            case .pageDown:
                scrollOffset += visibleLines
                return .handled
            default: break
            }
        }
        if case .resize = event { return .handled }
        if case .mouseWheel = event { return .handled }
        onDismiss?()
        return .dismiss
    }
}
