/// A framed rectangle with an optional title in its top edge: the body of
/// overlays and dialogs. The inside is blanked so nothing beneath shows through.
enum Box {
    static func draw(
        into canvas: inout Canvas,
        frame: Rect,
        title: String? = nil,
        attributes: CellAttributes = []
    ) {
        guard frame.width >= 2, frame.height >= 2 else { return }
        let right = frame.maxX - 1
        let bottom = frame.maxY - 1
        canvas.fill("─", x: frame.x + 1, y: frame.y, width: frame.width - 2, attributes: attributes)
        canvas.fill("─", x: frame.x + 1, y: bottom, width: frame.width - 2, attributes: attributes)
        canvas.put("┌", x: frame.x, y: frame.y, attributes: attributes)
        canvas.put("┐", x: right, y: frame.y, attributes: attributes)
        canvas.put("└", x: frame.x, y: bottom, attributes: attributes)
        canvas.put("┘", x: right, y: bottom, attributes: attributes)
        for y in (frame.y + 1)..<bottom {
            canvas.put("│", x: frame.x, y: y, attributes: attributes)
            canvas.fill(" ", x: frame.x + 1, y: y, width: frame.width - 2)
            canvas.put("│", x: right, y: y, attributes: attributes)
        }
        if let title, !title.isEmpty, frame.width > 6 {
            canvas.put(
                " \(title) ",
                x: frame.x + 2,
                y: frame.y,
                attributes: attributes.union(.bold),
                maxWidth: frame.width - 4
            )
        }
    }

    /// The inside of a box drawn in `frame`, less `padding` columns left and right.
    static func content(of frame: Rect, padding: Int = 1) -> Rect {
        frame.inset(top: 1, left: 1 + padding, bottom: 1, right: 1 + padding)
    }
}
