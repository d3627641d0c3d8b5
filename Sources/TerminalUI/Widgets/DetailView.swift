/// Label/value rows, like a grouped table on a detail screen: labels dim in a
/// column on the left, values on the right, long values wrapped at word
/// boundaries (and at their own line breaks).
///
/// Scrolls when taller than its frame: ↑/↓ or j/k by a line, PgUp/PgDn or
/// b/Space by a page, Home/End or g/G to the ends. Other keys (Esc, ←) are
/// `.ignored`, for the app to go back.
///
///     let detail = DetailView(rows: [
///         .init(label: "Book", value: "Dune Messiah"),
///         .init(label: "City", value: "Santa Clara, CA"),
///         .init(label: "Closed", value: "2023-03-10"),
///     ])
///     detail.render(into: &canvas, frame: canvas.bounds.inset(top: 1, bottom: 1), at: now)
public final class DetailView: View {
    /// One label and its value (which may be long or contain line breaks).
    public struct Row: Sendable, Equatable {
        /// The label, on the left.
        public var label: String
        /// The value, wrapped beside the label.
        public var value: String
        /// A row showing `value` beside `label`.
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The rows; setting them scrolls back to the top.
    public var rows: [Row] {
        didSet { scrollOffset = 0 }
    }
    /// First line shown.
    public private(set) var scrollOffset = 0
    /// Lines of content at the last render's width.
    public private(set) var contentHeight = 0
    private var pageHeight = 1

    /// A detail view of `rows`.
    public init(rows: [Row]) { self.rows = rows }

    /// Convenience: rows from (label, value) pairs.
    public convenience init(_ pairs: [(String, String)]) {
        self.init(rows: pairs.map { Row(label: $0.0, value: $0.1) })
    }

    private func layout(width: Int) -> (labelWidth: Int, lines: [(label: String?, value: String)]) {
        let widest = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        let labelWidth = min(widest, max(4, width / 3))
        let valueWidth = max(1, width - labelWidth - 2)
        var lines: [(String?, String)] = []
        for row in rows {
            let wrapped = TextWrap.lines(row.value, width: valueWidth)
            for (index, line) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
                lines.append((index == 0 ? row.label : nil, line))
            }
        }
        return (labelWidth, lines)
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let content = frame.inset(left: 1, right: 1)
        let (labelWidth, lines) = layout(width: content.width)
        contentHeight = lines.count
        pageHeight = frame.height
        scrollOffset = max(0, min(scrollOffset, lines.count - frame.height))
        for row in 0..<frame.height {
            let index = scrollOffset + row
            guard index < lines.count else { break }
            let y = frame.y + row
            if let label = lines[index].label {
                let width = min(DisplayWidth.of(label), labelWidth)
                canvas.put(label, x: content.x + labelWidth - width, y: y, attributes: .dim, maxWidth: labelWidth)
            }
            canvas.put(
                lines[index].value,
                x: content.x + labelWidth + 2,
                y: y,
                maxWidth: max(0, content.maxX - content.x - labelWidth - 2)
            )
        }
        if lines.count > frame.height {
            // A scroll hint in the right margin: more below (▼), or only above (▲).
            let more = scrollOffset + frame.height < lines.count ? "▼" : "▲"
            canvas.put(more, x: frame.maxX - 1, y: frame.maxY - 1, attributes: .dim)
        }
    }

    public func handle(_ event: InputEvent) -> EventResult {
        let maxOffset = max(0, contentHeight - pageHeight)
        switch event {
        case .up, .character("k"): scrollOffset = max(0, scrollOffset - 1)
        case .down, .character("j"): scrollOffset = min(maxOffset, scrollOffset + 1)
        case .pageUp, .character("b"): scrollOffset = max(0, scrollOffset - max(1, pageHeight - 1))
        case .pageDown, .character(" "): scrollOffset = min(maxOffset, scrollOffset + max(1, pageHeight - 1))
        case .home, .character("g"): scrollOffset = 0
        case .end, .character("G"): scrollOffset = maxOffset
        case .mouseWheel(let up, _, _): scrollOffset = up ? max(0, scrollOffset - 3) : min(maxOffset, scrollOffset + 3)
        default: return .ignored
        }
        return .handled
    }
}
