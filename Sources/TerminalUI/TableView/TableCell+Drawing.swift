extension TableCell {
    /// Draws line `line` of the cell (0-based) into `width` cells from `x`, with
    /// one column of padding at each side. `base` is added to every attribute
    /// (reverse for the selection, dim while fading, …). The caller has filled
    /// the line's background.
    func draw(
        line: Int,
        rowHeight: Int,
        into canvas: inout Canvas,
        x: Int,
        y: Int,
        width: Int,
        attributes base: CellAttributes
    ) {
        let textX = x + 1
        var available = width - 2
        guard available > 0 else { return }
        if line == 0, let symbol = accessory.symbol, available >= 3 {
            canvas.put(symbol, x: x + width - 2, y: y, attributes: base, maxWidth: 1)
            available -= 2
        }
        switch style {
        case .subtitle:
            if line == 0 {
                canvas.put(title, x: textX, y: y, attributes: base.union(titleAttributes), maxWidth: available)
            } else if line == 1, let detail {
                canvas.put(detail, x: textX, y: y, attributes: base.union(.dim), maxWidth: width - 2)
            }
        case .value1:
            guard line == 0 else { return }
            guard let detail, !detail.isEmpty, available >= 5 else {
                canvas.put(title, x: textX, y: y, attributes: base.union(titleAttributes), maxWidth: available)
                return
            }
            let titleWidth = DisplayWidth.of(title)
            let detailWidth = DisplayWidth.of(detail)
            var detailSpace = detailWidth
            if titleWidth + 1 + detailWidth > available {
                detailSpace = min(detailWidth, max(available - titleWidth - 1, available / 2))
            }
            let titleSpace = available - detailSpace - 1
            canvas.put(title, x: textX, y: y, attributes: base.union(titleAttributes), maxWidth: titleSpace)
            let detailX = textX + available - min(detailSpace, detailWidth)
            canvas.put(detail, x: detailX, y: y, attributes: base.union(.dim), maxWidth: detailSpace)
        }
    }
}
