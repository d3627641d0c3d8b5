// The grid layout: the same rows, sections and animations, each row one line of
// aligned columns under a header row. Widths are measured from the values drawn;
// the column cursor moves with `moveColumnCursor(by:)`, and each render scrolls
// the unfrozen columns the least that shows the cursor's column whole.

/// Where one grid column goes in a frame: its canvas column and its width in cells.
struct GridPlacement: Hashable {
    /// The index in `gridColumns`.
    var column: Int
    var x: Int
    /// Cells given to the column (less than its width when the frame cuts it).
    var width: Int
}

extension TableView {
    /// Cells between two columns.
    static let gridGap = 2
    /// Cells of the ` │ ` after the frozen columns.
    static let gridFrozenGap = 3
    /// The narrowest the cursor's column may be shown beside the frozen columns:
    /// narrower than this, the frozen columns make way for it.
    static let gridCursorMinimumWidth = 8
    /// What a NULL value shows.
    static let gridNullSymbol = "∅"

    // MARK: Columns and the cursor

    /// The columns in the order they are drawn: the frozen ones, then the others.
    var gridDisplayOrder: [Int] {
        guard let columns = gridColumns else { return [] }
        return columns.indices.filter { columns[$0].isFrozen } + columns.indices.filter { !columns[$0].isFrozen }
    }

    /// Moves the grid's column cursor `delta` columns right (left when negative) in the
    /// order the columns are drawn (frozen ones first), stopping at the ends; the next
    /// render scrolls to show it. Returns whether it moved.
    ///
    ///     table.moveColumnCursor(by: 1)    // → in a grid
    @discardableResult
    public func moveColumnCursor(by delta: Int) -> Bool {
        let order = gridDisplayOrder
        guard !order.isEmpty else { return false }
        let position = order.firstIndex(of: clampedCursorColumn) ?? 0
        let target = order[max(0, min(order.count - 1, position + delta))]
        guard target != gridState.cursorColumn else { return false }
        gridState.cursorColumn = target
        return true
    }

    /// The widths the grid's columns are drawn at now, in cells: set by hand, or measured
    /// (at least the name's, at most ``GridColumn/maximumWidth``). Empty without a grid.
    public var gridColumnWidths: [Int] {
        guard let columns = gridColumns else { return [] }
        return columns.indices.map { width(ofGridColumn: $0, columns[$0]) }
    }

    /// Forgets the measured widths: the next frame measures its rows afresh (e.g. after
    /// the rows' values changed a lot: another filter or file).
    public func remeasureGridColumns() {
        gridWidths = (gridColumns ?? []).map { Self.measuredWidth(of: $0.title, cap: $0.maximumWidth) }
    }

    var clampedCursorColumn: Int {
        max(0, min(gridState.cursorColumn, (gridColumns?.count ?? 1) - 1))
    }

    func gridColumnsDidChange(from old: [GridColumn]?) {
        guard let columns = gridColumns else {
            gridWidths = []
            gridPlacements.removeAll()
            return
        }
        if old?.map(\.title) != columns.map(\.title) {
            remeasureGridColumns()
            if old == nil { gridState = GridState() }
        }
        gridState.cursorColumn = clampedCursorColumn
    }

    private func width(ofGridColumn index: Int, _ column: GridColumn) -> Int {
        if let width = column.width { return width }
        return index < gridWidths.count ? min(gridWidths[index], column.maximumWidth) : 1
    }

    private static func measuredWidth(of text: String, cap: Int) -> Int {
        max(1, min(DisplayWidth.of(text), cap))
    }

    // MARK: Measuring and placing

    /// Widens the measured columns to fit `cell`'s values (capped).
    func measureGridValues(of cell: TableCell) {
        guard let columns = gridColumns else { return }
        if gridWidths.count != columns.count { remeasureGridColumns() }
        let count = min(cell.values.count, columns.count)
        for i in 0..<count {
            guard let value = cell.values[i], gridWidths[i] < columns[i].maximumWidth else { continue }
            let width = DisplayWidth.of(value)
            if width > gridWidths[i] { gridWidths[i] = min(width, columns[i].maximumWidth) }
        }
    }

    /// Where the columns go in a row of `geometry`: the frozen ones from the left (unless the
    /// cursor's column would not fit beside them), then the unfrozen ones from the scroll
    /// offset, which moves the least that shows the cursor's column whole and leaves no
    /// room unused on the right. Updates ``gridState``'s offset, ``gridPlacements``
    /// and ``gridSeparatorX``.
    func placeGridColumns(in geometry: Geometry) {
        gridPlacements.removeAll(keepingCapacity: true)
        gridSeparatorX = nil
        guard let columns = gridColumns, !columns.isEmpty else { return }
        let left = geometry.contentX + 1
        let right = geometry.contentX + geometry.contentWidth - 1
        let available = right - left
        guard available > 0 else { return }
        let cursor = clampedCursorColumn
        gridState.cursorColumn = cursor
        let frozen = columns.indices.filter { columns[$0].isFrozen }
        let scrolled = columns.indices.filter { !columns[$0].isFrozen }
        let widths = gridColumnWidths

        func span(_ range: Range<Int>) -> Int {
            range.isEmpty ? 0 : range.reduce(0) { $0 + widths[scrolled[$1]] } + Self.gridGap * (range.count - 1)
        }
        let frozenSpan = frozen.reduce(0) { $0 + widths[$1] } + Self.gridGap * max(0, frozen.count - 1)
        let cursorPosition = scrolled.firstIndex(of: cursor)
        var showsFrozen = !frozen.isEmpty
        if showsFrozen, let cursorPosition {
            let needed = min(widths[scrolled[cursorPosition]], Self.gridCursorMinimumWidth)
            showsFrozen = frozenSpan + Self.gridFrozenGap + needed <= available
        }
        let scrolledAvailable = available - (showsFrozen ? frozenSpan + Self.gridFrozenGap : 0)

        var offset = max(0, min(gridState.horizontalOffset, scrolled.count - 1))
        if let cursorPosition {
            if cursorPosition < offset { offset = cursorPosition }
            while offset < cursorPosition && span(offset..<(cursorPosition + 1)) > scrolledAvailable { offset += 1 }
        }
        while offset > 0 && span((offset - 1)..<scrolled.count) <= scrolledAvailable { offset -= 1 }
        gridState.horizontalOffset = max(0, offset)

        var x = left
        if showsFrozen {
            for column in frozen where x < right {
                gridPlacements.append(GridPlacement(column: column, x: x, width: min(widths[column], right - x)))
                x += widths[column] + Self.gridGap
            }
            x += Self.gridFrozenGap - Self.gridGap
            let separator = x - 2
            if separator < right { gridSeparatorX = separator }
        }
        var position = offset
        while position < scrolled.count, x < right {
            let column = scrolled[position]
            gridPlacements.append(GridPlacement(column: column, x: x, width: min(widths[column], right - x)))
            x += widths[column] + Self.gridGap
            position += 1
        }
    }

    // MARK: Drawing

    /// The header row: each column's name (the cursor's reversed) over its values.
    func drawGridHeader(into canvas: inout Canvas, y: Int, geometry: Geometry) {
        guard let columns = gridColumns else { return }
        canvas.fill(" ", x: geometry.contentX, y: y, width: geometry.contentWidth)
        let cursor = clampedCursorColumn
        for placement in gridPlacements {
            let column = columns[placement.column]
            let attributes: CellAttributes = placement.column == cursor ? [.bold, .reverse] : .bold
            canvas.fill(" ", x: placement.x, y: y, width: placement.width, attributes: attributes)
            drawGridText(
                column.title,
                alignment: column.alignment,
                into: &canvas,
                placement: placement,
                y: y,
                attributes: attributes
            )
        }
        if let x = gridSeparatorX { canvas.put("│", x: x, y: y, attributes: .dim) }
    }

    /// A row's line of values; `base` holds the row's attributes (reverse when selected,
    /// dim while fading). The cursor's cell of the selected row is bold and underlined
    /// instead of reversed; a value waiting for a store's answer is dim, marked before it.
    func drawGridLine(_ cell: TableCell, selected: Bool, into canvas: inout Canvas, y: Int, base: CellAttributes) {
        guard let columns = gridColumns else { return }
        let cursor = clampedCursorColumn
        for placement in gridPlacements {
            var attributes = base
            if selected && placement.column == cursor {
                attributes.remove(.reverse)
                attributes.formUnion([.bold, .underline])
                canvas.fill(" ", x: placement.x, y: y, width: placement.width, attributes: attributes)
            }
            if cell.pendingColumns.contains(placement.column) {
                attributes.insert(.dim)
                canvas.put(TableCell.pendingMark, x: placement.x - 1, y: y, attributes: base.union(.dim), maxWidth: 1)
            }
            let alignment = columns[placement.column].alignment
            let value: String? = placement.column < cell.values.count ? cell.values[placement.column] : ""
            if let value {
                let x = drawGridText(
                    value,
                    alignment: alignment,
                    into: &canvas,
                    placement: placement,
                    y: y,
                    attributes: attributes
                )
                for highlight in cell.highlights where highlight.column == placement.column {
                    highlightGridText(value, highlight.range, x: x, placement: placement, y: y, into: &canvas)
                }
            } else {
                drawGridText(
                    Self.gridNullSymbol,
                    alignment: alignment,
                    into: &canvas,
                    placement: placement,
                    y: y,
                    attributes: attributes.union(.dim)
                )
            }
        }
        if let x = gridSeparatorX { canvas.put("│", x: x, y: y, attributes: base.union(.dim)) }
    }

    /// `text` in its column, right-aligned for `.trailing`, cut with `…` when longer; returns
    /// the canvas column where it starts.
    @discardableResult
    private func drawGridText(
        _ text: String,
        alignment: GridColumn.Alignment,
        into canvas: inout Canvas,
        placement: GridPlacement,
        y: Int,
        attributes: CellAttributes
    ) -> Int {
        guard !text.isEmpty else { return placement.x }
        var x = placement.x
        if alignment == .trailing {
            let width = DisplayWidth.of(text)
            if width < placement.width { x += placement.width - width }
        }
        canvas.put(text, x: x, y: y, attributes: attributes, maxWidth: placement.x + placement.width - x)
        return x
    }

    /// Shows characters `range` of `text`, drawn from canvas column `x`, apart: reversed, or
    /// (already reversed: the selected row) bold and underlined instead. Only what shows of them:
    /// not past the column's end, nor over the `…` of a cut value.
    private func highlightGridText(
        _ text: String,
        _ range: Range<Int>,
        x: Int,
        placement: GridPlacement,
        y: Int,
        into canvas: inout Canvas
    ) {
        guard !range.isEmpty, range.lowerBound >= 0, y >= 0, y < canvas.height else { return }
        let characters = Array(text)
        guard range.lowerBound < characters.count else { return }
        let upper = min(range.upperBound, characters.count)
        let start = x + DisplayWidth.of(String(characters[..<range.lowerBound]))
        var end = start + DisplayWidth.of(String(characters[range.lowerBound..<upper]))
        let limit = placement.x + placement.width
        let isCut = x + DisplayWidth.of(text) > limit
        end = min(end, isCut ? limit - 1 : limit, canvas.width)
        guard start < end else { return }
        for column in max(0, start)..<end {
            var attributes = canvas[column, y].attributes
            if attributes.contains(.reverse) {
                attributes.remove(.reverse)
                attributes.formUnion([.bold, .underline])
            } else {
                attributes.formUnion([.reverse, .bold])
            }
            canvas[column, y].attributes = attributes
        }
    }

    /// Where the cursor's column of the selected row was drawn in the last frame, as a rect of
    /// one line: what an editor of that cell is drawn over. Nil without a grid, a selection,
    /// or when the row or the column was not on screen.
    ///
    ///     if let cell = table.selectedGridCellFrame { field.render(into: &canvas, frame: cell, at: now) }
    public var selectedGridCellFrame: Rect? {
        guard gridColumns != nil, let selection, let frame = lastFrame, layout.contains(selection),
            let placement = gridPlacements.first(where: { $0.column == clampedCursorColumn })
        else { return nil }
        let line = layout.rowTop(selection) - scrollOffset
        guard line >= 0, line < frame.height else { return nil }
        return Rect(x: placement.x, y: frame.y + line, width: placement.width, height: 1)
    }

    /// The grid column under canvas column `x` in the last frame, if any.
    func gridColumn(atX x: Int) -> Int? {
        gridPlacements.first { x >= $0.x - 1 && x < $0.x + $0.width + 1 }?.column
    }
}
