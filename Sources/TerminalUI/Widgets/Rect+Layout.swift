/// Layout helpers the widgets use to carve a frame into parts.
///
///     let screen = canvas.bounds
///     let navigationBar = screen.row(0)                    // top line
///     let statusLine = screen.row(screen.height - 1)       // bottom line
///     let content = screen.inset(top: 1, bottom: 1)        // everything between
///     let dialog = screen.centered(width: 40, height: 7)
extension Rect {
    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The single row `index` (counted from this rectangle's top) of this rectangle.
    public func row(_ index: Int) -> Rect {
        Rect(x: x, y: y + index, width: width, height: 1)
    }

    /// This rectangle shrunk by the given margins (never below zero size).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(
            x: x + left,
            y: y + top,
            width: max(0, width - left - right),
            height: max(0, height - top - bottom)
        )
    }

    /// This rectangle shrunk by `margin` on every side.
    public func inset(by margin: Int) -> Rect {
        inset(top: margin, left: margin, bottom: margin, right: margin)
    }

    /// A rectangle of the given size (clamped to this one) centred in this one.
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = max(0, min(w, width))
        let ch = max(0, min(h, height))
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
