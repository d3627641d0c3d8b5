/// A row of tabs (sort orders, note kinds) with the current one highlighted.
///
/// Tab and Shift-Tab move to the next and previous tab (wrapping); the digit
/// keys 1–9 (or a mouse click) choose a tab directly. `onSelect` is called with the new index
/// whenever the selection changes through a key.
///
///     let tabs = TabBar(titles: ["Published", "Title", "Author"])
///     tabs.onSelect = { index in screen.switchSort(to: index) }
///     _ = tabs.handle(.tab)          // selectedIndex 1, onSelect(1)
///     tabs.render(into: &canvas, frame: canvas.bounds.row(1), at: now)
///     //  1 Published │ 2 Title │ 3 Author     ("2 Title" in reverse video)
public final class TabBar: View {
    /// The tabs, left to right.
    public var titles: [String]
    /// The highlighted tab. Setting it directly does not call `onSelect`.
    public var selectedIndex: Int
    /// Show the digit that selects each tab. Default true.
    public var showsNumbers = true
    /// Called with the new index when a key or click changes the tab.
    public var onSelect: ((Int) -> Void)?
    private var lastFrame: Rect?

    /// A tab bar with `selectedIndex` highlighted.
    public init(titles: [String], selectedIndex: Int = 0) {
        self.titles = titles
        self.selectedIndex = selectedIndex
    }

    /// Selects `index` (clamped) and calls `onSelect` when it changed.
    public func select(_ index: Int) {
        guard !titles.isEmpty else { return }
        let clamped = max(0, min(titles.count - 1, index))
        guard clamped != selectedIndex else { return }
        selectedIndex = clamped
        onSelect?(clamped)
    }

    public func handle(_ event: InputEvent) -> EventResult {
        guard !titles.isEmpty else { return .ignored }
        switch event {
        case .tab:
            select((selectedIndex + 1) % titles.count)
            return .handled
        case .backTab:
            select((selectedIndex + titles.count - 1) % titles.count)
            return .handled
        case .mouseClick(let x, let y):
            guard let frame = lastFrame, frame.contains(x: x, y: y),
                let index = index(atColumn: x, frame: frame)
            else { return .ignored }
            select(index)
            return .handled
        case .character(let character):
            guard let digit = character.wholeNumberValue, character.isASCII,
                digit >= 1, digit <= min(9, titles.count)
            else { return .ignored }
            select(digit - 1)
            return .handled
        default:
            return .ignored
        }
    }

    /// The text drawn for tab `index`, e.g. " 2 Name ".
    public func label(at index: Int) -> String {
        showsNumbers && index < 9 ? " \(index + 1) \(titles[index]) " : " \(titles[index]) "
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        lastFrame = frame
        var x = frame.x
        for index in titles.indices {
            if index > 0 {
                guard x < frame.maxX else { break }
                x += canvas.put("│", x: x, y: frame.y, attributes: .dim, maxWidth: frame.maxX - x)
            }
            guard x < frame.maxX else { break }
            let selected = index == selectedIndex
            x += canvas.put(
                label(at: index),
                x: x,
                y: frame.y,
                attributes: selected ? [.reverse, .bold] : [],
                maxWidth: frame.maxX - x
            )
        }
    }

    /// The tab under column `x` of the last rendered row (for mouse clicks), if any.
    public func index(atColumn column: Int, frame: Rect) -> Int? {
        var x = frame.x
        for index in titles.indices {
            if index > 0 { x += 1 }
            let width = DisplayWidth.of(label(at: index))
            if column >= x && column < x + width { return index }
            x += width
        }
        return nil
    }
}
