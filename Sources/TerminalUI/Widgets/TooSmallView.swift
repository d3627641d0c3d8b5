/// What the run loop shows instead of the app while the window is below the
/// app's minimum size: a centred "Terminal too small", the size needed and
/// the size now.
///
/// The loop draws it by itself (see `TerminalRunLoop.minimumWidth`); apps
/// only choose the minimum.
///
///     let tooSmall = TooSmallView(minimumWidth: 20, minimumHeight: 5)
///     tooSmall.render(into: &canvas, frame: canvas.bounds, at: 0)
///     // "Terminal too small" / "need 20×5" / "now 15×4", centred
public final class TooSmallView: View {
    /// The size the app needs.
    public var minimumWidth: Int
    /// The height the app needs.
    public var minimumHeight: Int

    /// The screen for an app that needs `minimumWidth`×`minimumHeight`.
    public init(minimumWidth: Int, minimumHeight: Int) {
        self.minimumWidth = minimumWidth
        self.minimumHeight = minimumHeight
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        // Wrapped to the width: the window may be very narrow.
        let headline = TextWrap.lines("Terminal too small", width: frame.width)
        let lines =
            headline
            + TextWrap.lines("need \(minimumWidth)×\(minimumHeight)", width: frame.width)
            + TextWrap.lines("now \(frame.width)×\(frame.height)", width: frame.width)
        let shown = min(lines.count, frame.height)
        let top = frame.y + (frame.height - shown) / 2
        for (index, line) in lines.prefix(shown).enumerated() {
            let width = min(DisplayWidth.of(line), frame.width)
            canvas.put(
                line,
                x: frame.x + (frame.width - width) / 2,
                y: top + index,
                attributes: index < headline.count ? .bold : .dim,
                maxWidth: frame.width
            )
        }
    }
}
