/// A horizontal bar chart: one row per bar, its label, a bar scaled so that the
/// largest value fills the bar area, and the value.
///
///     2010 ████████████████ 157
///     2009 ██████████████▍ 140
///     2008 ██▌ 25
///
/// Sub-cell lengths use the eighth blocks `█▉▊▋▌▍▎▏`; with ``usesBlocks`` off
/// (`NO_COLOR`, a narrow terminal) bars are whole cells of `#`. A row can be
/// selected (↑/↓ j/k, Home/End, PgUp/PgDn; drawn in reverse video) and the rows
/// scroll to keep it in view. New values set with ``setBars(_:at:animated:)``
/// animate: each bar grows or shrinks from the length it had to its new one.
///
///     let chart = BarChart()
///     chart.setBars([.init(label: "2010", value: 157), .init(label: "2009", value: 140)], at: clock.now)
///     chart.render(into: &canvas, frame: Rect(x: 0, y: 2, width: 80, height: 20), at: clock.now)
public final class BarChart: View {
    /// One row.
    public struct Bar: Equatable, Sendable {
        /// The text left of the bar ("2010").
        public var label: String
        /// The count the bar's length stands for (the largest fills the width).
        public var value: Int
        /// A bar of `value` labelled `label`.
        public init(label: String, value: Int) { (self.label, self.value) = (label, value) }
    }

    /// The bars, top to bottom, as they are now (the animation's destination).
    public private(set) var bars: [Bar] = []
    /// The selected row, nil when there are no bars.
    public private(set) var selectedIndex: Int?
    /// Eighth-block bars (true) or `#` (false).
    public var usesBlocks = true
    /// How long a change of values animates.
    public var animationDuration = 0.3
    /// Shown when there are no bars.
    public var emptyMessage = "No data"
    /// The first row drawn (scrolling keeps the selection visible).
    public private(set) var topIndex = 0

    /// The value each label's bar had when the last change began (for the animation).
    private var startValues: [String: Double] = [:]
    private var animationStart = -Double.infinity
    /// The last frame's height (for paging).
    private var visibleRows = 1

    /// An empty chart; ``setBars(_:at:animated:)`` gives it bars.
    public init() {}

    /// The eighth blocks, from one eighth to a full cell.
    package static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]

    /// Replaces the bars. With `animated`, every bar moves from the length it shows at `time`
    /// to its new one (a new label grows from nothing). The selection stays on the same label
    /// when it is still there, else on the row at the same position.
    public func setBars(_ newBars: [Bar], at time: Double, animated: Bool = true) {
        let selectedLabel = selectedIndex.map { bars[$0].label }
        if animated {
            var current: [String: Double] = [:]
            for bar in bars { current[bar.label] = displayedValue(of: bar, at: time) }
            startValues = current
            animationStart = time
        } else {
            startValues = [:]
            animationStart = -Double.infinity
        }
        bars = newBars
        if newBars.isEmpty {
            selectedIndex = nil
        } else if let selectedLabel, let index = newBars.firstIndex(where: { $0.label == selectedLabel }) {
            selectedIndex = index
        } else {
            selectedIndex = min(selectedIndex ?? 0, newBars.count - 1)
        }
    }

    /// Selects row `index` (clamped).
    public func select(_ index: Int) {
        guard !bars.isEmpty else {
            selectedIndex = nil
            return
        }
        selectedIndex = max(0, min(bars.count - 1, index))
    }

    /// Selects the bar labelled `label`, if there is one.
    public func select(label: String) {
        if let index = bars.firstIndex(where: { $0.label == label }) { selectedIndex = index }
    }

    /// The selected bar.
    public var selectedBar: Bar? { selectedIndex.map { bars[$0] } }

    /// True while a change animates.
    public func needsTick(at time: Double) -> Bool { time < animationStart + animationDuration }

    /// The value a bar is drawn with at `time` (between its old and new value while animating).
    package func displayedValue(of bar: Bar, at time: Double) -> Double {
        let target = Double(bar.value)
        guard time < animationStart + animationDuration else { return target }
        let start = startValues[bar.label] ?? 0
        let t = max(0, min(1, (time - animationStart) / animationDuration))
        let eased = 1 - (1 - t) * (1 - t)
        return start + (target - start) * eased
    }

    /// ↑/↓ j/k, PgUp/PgDn, Home/End g/G move the selection; other keys are ignored.
    public func handle(_ event: InputEvent) -> EventResult {
        guard let index = selectedIndex else { return .ignored }
        switch event {
        case .up, .character("k"): select(index - 1)
        case .down, .character("j"): select(index + 1)
        case .pageUp, .character("b"): select(index - max(1, visibleRows - 1))
        case .pageDown, .character(" "): select(index + max(1, visibleRows - 1))
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(bars.count - 1)
        default: return .ignored
        }
        return .handled
    }

    /// The text of a bar `length` cells long (fractions in eighths with blocks, rounded to whole `#` without).
    ///
    ///     BarChart.barText(length: 2.5, usesBlocks: true)    // "██▌"
    ///     BarChart.barText(length: 2.5, usesBlocks: false)   // "###"
    package static func barText(length: Double, usesBlocks: Bool) -> String {
        guard length > 0 else { return "" }
        guard usesBlocks else {
            return String(repeating: "#", count: max(1, Int(length.rounded())))
        }
        let totalEighths = max(1, Int((length * 8).rounded()))
        var text = String(repeating: "█", count: totalEighths / 8)
        if totalEighths % 8 > 0 { text.append(eighths[totalEighths % 8 - 1]) }
        return text
    }

    /// Draws the rows from ``topIndex``, the selection in reverse video; the bar area is what
    /// is left of `frame.width` after the widest label and the widest value.
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        visibleRows = frame.height
        guard !bars.isEmpty else {
            let width = DisplayWidth.of(emptyMessage)
            canvas.put(
                emptyMessage,
                x: frame.x + max(0, (frame.width - width) / 2),
                y: frame.y + frame.height / 2,
                attributes: .dim,
                maxWidth: frame.width
            )
            return
        }
        scrollToSelection()
        let labelWidth = bars.map { DisplayWidth.of($0.label) }.max() ?? 0
        let valueWidth = bars.map { String($0.value).count }.max() ?? 1
        let values = bars.map { displayedValue(of: $0, at: time) }
        let largest = max(values.max() ?? 0, 1e-9)
        // label, space, bar, space, value; a space of margin at each end.
        let barArea = max(1, frame.width - 2 - labelWidth - 1 - 1 - valueWidth)
        for row in 0..<frame.height {
            let index = topIndex + row
            guard index < bars.count else { break }
            let bar = bars[index]
            let y = frame.y + row
            let selected = index == selectedIndex
            var x = frame.x + 1
            let labelText = String(repeating: " ", count: max(0, labelWidth - DisplayWidth.of(bar.label))) + bar.label
            x += canvas.put(labelText, x: x, y: y, attributes: selected ? .bold : [], maxWidth: frame.maxX - x)
            x += 1
            let text = BarChart.barText(length: Double(barArea) * values[index] / largest, usesBlocks: usesBlocks)
            x += canvas.put(text, x: x, y: y, attributes: .accent, maxWidth: frame.maxX - x, truncate: false)
            x += 1
            canvas.put(String(bar.value), x: x, y: y, maxWidth: max(0, frame.maxX - x))
            if selected { canvas.addAttributes(.reverse, x: frame.x, y: y, width: frame.width) }
        }
    }

    private func scrollToSelection() {
        guard let selectedIndex else {
            topIndex = 0
            return
        }
        if selectedIndex < topIndex { topIndex = selectedIndex }
        if selectedIndex >= topIndex + visibleRows { topIndex = selectedIndex - visibleRows + 1 }
        topIndex = max(0, min(topIndex, max(0, bars.count - visibleRows)))
    }
}
