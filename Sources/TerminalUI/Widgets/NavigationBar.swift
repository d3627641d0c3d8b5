/// The top line of a screen: a bold centred title, an optional "‹ Back" on
/// the left and optional text on the right (a count, a mode).
///
/// The title stays centred on the line while it fits between the sides, and is
/// truncated with `…` when it does not.
///
///     let bar = NavigationBar(title: "Books", trailingText: "572 books")
///     bar.backTitle = "Books"      // on a detail screen: "‹ Books"
///     bar.render(into: &canvas, frame: canvas.bounds.row(0), at: now)
public final class NavigationBar: View {
    /// Bold, centred.
    public var title: String
    /// When set, "‹ <backTitle>" is drawn on the left (Esc/← goes back).
    public var backTitle: String?
    /// Dim, right-aligned (a count, a position).
    public var trailingText: String?

    /// A bar with a title and optional sides.
    public init(title: String, backTitle: String? = nil, trailingText: String? = nil) {
        self.title = title
        self.backTitle = backTitle
        self.trailingText = trailingText
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let y = frame.y
        var left = frame.x
        var right = frame.maxX
        if let backTitle {
            left +=
                canvas.put(
                    "‹ \(backTitle)",
                    x: frame.x,
                    y: y,
                    attributes: .accent,
                    maxWidth: max(0, frame.width / 3)
                ) + 1
        }
        if let trailingText, !trailingText.isEmpty {
            let width = min(DisplayWidth.of(trailingText), max(0, frame.width / 3))
            canvas.put(trailingText, x: frame.maxX - width, y: y, attributes: .dim, maxWidth: width)
            right -= width + 1
        }
        let available = right - left
        guard available > 0 else { return }
        let titleWidth = min(DisplayWidth.of(title), available)
        var x = frame.x + (frame.width - titleWidth) / 2
        x = max(left, min(x, right - titleWidth))
        canvas.put(title, x: x, y: y, attributes: .bold, maxWidth: available)
    }
}
