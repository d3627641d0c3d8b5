/// A centred box listing choices, one of them highlighted; Enter picks it, Esc
/// closes without a choice. An optional *variant* (ascending/descending) is
/// switched with Tab, ←/→ or Space and shown at the foot of the box.
///
/// A sort picker (the columns, and the direction as the variant) and a section
/// key picker are two of these. Choices taller than the box scroll.
///
///     let picker = ChoicePicker(title: "Sort by", choices: ["name", "city", "state"], selectedIndex: 0,
///                               variants: ["ascending", "descending"])
///     picker.onChoose = { index, variant in print(index, variant) }
///     loop.push(picker)
public final class ChoicePicker: View {
    /// In the top edge of the box.
    public var title: String
    /// The choices, top to bottom.
    public var choices: [String]
    /// The highlighted choice.
    public private(set) var selectedIndex: Int
    /// The variants the choice is made with (empty: none).
    public var variants: [String]
    /// The variant in force.
    public private(set) var variantIndex: Int
    /// Called with the chosen index and variant when Enter is pressed, before the picker closes.
    public var onChoose: ((_ index: Int, _ variant: Int) -> Void)?
    /// First choice shown.
    public private(set) var scrollOffset = 0
    private var visibleLines = 1

    /// A picker of `choices` with `selectedIndex` highlighted, and `variants` (optional) starting at `variantIndex`.
    public init(
        title: String,
        choices: [String],
        selectedIndex: Int = 0,
        variants: [String] = [],
        variantIndex: Int = 0
    ) {
        self.title = title
        self.choices = choices
        self.selectedIndex = max(0, min(selectedIndex, choices.count - 1))
        self.variants = variants
        self.variantIndex = variants.isEmpty ? 0 : max(0, min(variantIndex, variants.count - 1))
    }

    public var isOpaque: Bool { false }

    /// The foot line: the variant and how to change it, then the keys.
    var footer: String {
        let keys = "Enter choose · Esc cancel"
        guard !variants.isEmpty else { return keys }
        return "\(variants[variantIndex]) (Tab changes) · \(keys)"
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let widest = max(
            choices.map { DisplayWidth.of($0) + 2 }.max() ?? 0,
            DisplayWidth.of(footer),
            DisplayWidth.of(title) + 2
        )
        let box = frame.centered(width: min(frame.width, widest + 4), height: min(frame.height, choices.count + 5))
        guard box.width >= 4, box.height >= 4 else { return }
        Box.draw(into: &canvas, frame: box, title: title)
        let inside = Box.content(of: box)
        visibleLines = max(1, inside.height - 2)  // a blank line, then the footer
        if selectedIndex < scrollOffset { scrollOffset = selectedIndex }
        if selectedIndex >= scrollOffset + visibleLines { scrollOffset = selectedIndex - visibleLines + 1 }
        for row in 0..<visibleLines {
            let index = scrollOffset + row
            guard index < choices.count else { break }
            let selected = index == selectedIndex
            let text = (selected ? "› " : "  ") + choices[index]
            canvas.put(
                text,
                x: inside.x,
                y: inside.y + row,
                attributes: selected ? [.reverse, .bold] : [],
                maxWidth: inside.width
            )
        }
        canvas.put(footer, x: inside.x, y: inside.maxY - 1, attributes: .dim, maxWidth: inside.width)
    }

    /// ↑/↓ j/k, PgUp/PgDn, Home/End move; Tab, ←/→, Space change the variant; Enter chooses; Esc or q cancels.
    /// Modal: every other key is swallowed.
    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .up, .character("k"): move(to: selectedIndex - 1)
        case .down, .character("j"): move(to: selectedIndex + 1)
        case .pageUp: move(to: selectedIndex - visibleLines)
        case .pageDown: move(to: selectedIndex + visibleLines)
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: choices.count - 1)
        case .tab, .right, .character(" "), .character("l"):
            if !variants.isEmpty { variantIndex = (variantIndex + 1) % variants.count }
        case .backTab, .left, .character("h"):
            if !variants.isEmpty { variantIndex = (variantIndex + variants.count - 1) % variants.count }
        case .enter:
            guard !choices.isEmpty else { return .dismiss }
            onChoose?(selectedIndex, variantIndex)
            return .dismiss
        case .escape, .character("q"):
            return .dismiss
        default:
            break
        }
        return .handled
    }

    private func move(to index: Int) {
        selectedIndex = max(0, min(index, choices.count - 1))
    }
}
