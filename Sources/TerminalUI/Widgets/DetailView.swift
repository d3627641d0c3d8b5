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
        didSet {
            scrollOffset = 0
            followsEnd = false
            layout = nil
        }
    }
    /// First line shown.
    public private(set) var scrollOffset = 0
    /// Lines of content laid out at the last render's width: all of them once the layout is
    /// done (``needsTick(at:)`` false).
    public private(set) var contentHeight = 0
    private var pageHeight = 1
    /// The rows wrapped at the last render's width, as far as they are.
    private var layout: Layout?
    /// End was pressed before the layout was done: the view stays at the end as it grows.
    private var followsEnd = false
    /// Characters wrapped per frame beyond what the frame shows, while the layout is not done
    /// (a few milliseconds: the loop answers keys between frames).
    static let charactersPerFrame = 65_536

    /// A detail view of `rows`.
    public init(rows: [Row]) { self.rows = rows }

    /// Convenience: rows from (label, value) pairs.
    public convenience init(_ pairs: [(String, String)]) {
        self.init(rows: pairs.map { Row(label: $0.0, value: $0.1) })
    }

    /// The rows' lines at one width, wrapped a piece at a time (``TextWrap/Wrapper``): a value of
    /// megabytes is laid out over several frames, the lines on screen first.
    private struct Layout {
        let width: Int
        let labelWidth: Int
        let valueWidth: Int
        var lines: [(label: String?, value: String)] = []
        var isDone = false
        private var row = 0
        private var wrapper: TextWrap.Wrapper?
        private var linesOfRow = 0

        init(rows: [Row], width: Int) {
            self.width = width
            let widest = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
            labelWidth = min(widest, max(4, width / 3))
            valueWidth = max(1, width - labelWidth - 2)
        }

        /// Wraps on until there are `needed` lines and `budget` more characters were read, or the rows end.
        mutating func extend(_ rows: [Row], toLines needed: Int, characters budget: Int) {
            var taken = 0
            while !isDone && (lines.count < needed || taken < budget) {
                guard row < rows.count else {
                    isDone = true
                    return
                }
                if wrapper == nil {
                    wrapper = TextWrap.Wrapper(rows[row].value, width: valueWidth)
                    linesOfRow = 0
                }
                let before = wrapper!.charactersRead
                for line in wrapper!.next(characters: 4096) {
                    lines.append((linesOfRow == 0 ? rows[row].label : nil, line))
                    linesOfRow += 1
                }
                taken += wrapper!.charactersRead - before + 1
                if wrapper!.isDone {
                    if linesOfRow == 0 { lines.append((rows[row].label, "")) }
                    wrapper = nil
                    row += 1
                }
            }
        }
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let content = frame.inset(left: 1, right: 1)
        if layout?.width != content.width { layout = Layout(rows: rows, width: content.width) }
        // The lines on screen (at the end: what is laid out so far, growing frame by frame).
        let needed = followsEnd ? frame.height : scrollOffset + frame.height
        layout!.extend(rows, toLines: needed, characters: DetailView.charactersPerFrame)
        let (labelWidth, lines) = (layout!.labelWidth, layout!.lines)
        contentHeight = lines.count
        pageHeight = frame.height
        if followsEnd { scrollOffset = lines.count - frame.height }
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
        let laidOut = layout!.isDone
        if lines.count > frame.height || !laidOut {
            // A scroll hint in the right margin: more below (▼), or only above (▲).
            let more = !laidOut || scrollOffset + frame.height < lines.count ? "▼" : "▲"
            canvas.put(more, x: frame.maxX - 1, y: frame.maxY - 1, attributes: .dim)
        }
    }

    /// True while the rows are not all laid out at the last render's width: the loop draws on,
    /// each frame wrapping more (keys are answered between frames).
    public func needsTick(at time: Double) -> Bool { !(layout?.isDone ?? true) }

    public func handle(_ event: InputEvent) -> EventResult {
        // Until the layout is done, the end is not known: the next render stops at the last line.
        let maxOffset = layout?.isDone ?? true ? max(0, contentHeight - pageHeight) : Int.max / 2
        followsEnd = false
        switch event {
        case .up, .character("k"): scrollOffset = max(0, scrollOffset - 1)
        case .down, .character("j"): scrollOffset = min(maxOffset, scrollOffset + 1)
        case .pageUp, .character("b"): scrollOffset = max(0, scrollOffset - max(1, pageHeight - 1))
        case .pageDown, .character(" "): scrollOffset = min(maxOffset, scrollOffset + max(1, pageHeight - 1))
        case .home, .character("g"): scrollOffset = 0
        case .end, .character("G"):
            scrollOffset = maxOffset
            followsEnd = !(layout?.isDone ?? true)
        case .mouseWheel(let up, _, _): scrollOffset = up ? max(0, scrollOffset - 3) : min(maxOffset, scrollOffset + 3)
        default: return .ignored
        }
        return .handled
    }
}
