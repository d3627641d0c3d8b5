import Foundation

// Drawing: a function of the table's state and the data source. No terminal
// calls; only the rows that intersect the frame are asked for.

extension TableView {
    /// Width of the inline Delete button, `" Delete "`.
    static let deleteButtonTitle = " Delete "

    /// Where things go inside a frame.
    struct Geometry {
        var frame: Rect
        var contentX: Int
        var contentWidth: Int
        /// Zero when there is no sidebar.
        var sidebarWidth: Int
        var sidebarX: Int { frame.maxX - sidebarWidth }
    }

    func geometry(for frame: Rect) -> Geometry {
        var sidebarWidth = 0
        if showsSectionIndex, !layout.indexTitles.isEmpty {
            sidebarWidth = min(5, max(1, layout.indexTitleWidth))
            if frame.width < sidebarWidth + 12 { sidebarWidth = 0 }
        }
        let contentWidth = frame.width - (sidebarWidth > 0 ? sidebarWidth + 1 : 0)
        return Geometry(frame: frame, contentX: frame.x, contentWidth: contentWidth, sidebarWidth: sidebarWidth)
    }

    /// Draws the table into `frame` of `canvas` as of `time` (seconds on the
    /// app's clock; it only matters while a batch animates).
    ///
    ///     var canvas = Canvas(width: 80, height: 24)
    ///     table.render(into: &canvas, frame: canvas.bounds, at: 0)
    ///     print(canvas.text)
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        reloadIfNeeded()
        let outer = frame.intersection(canvas.bounds)
        guard !outer.isEmpty else { return }
        // A grid's header row takes the first line; the rows scroll below it.
        let frame = gridColumns == nil ? outer : outer.inset(top: 1)
        gridHeaderY = gridColumns == nil ? nil : outer.y
        guard !frame.isEmpty else {
            canvas.fill(" ", x: outer.x, y: outer.y, width: outer.width)
            return
        }
        if let last = lastFrame, last.height != frame.height {
            animation = nil
            lastFrame = frame
            scrollOffset = clampedOffset(scrollOffset)
            if let selection { scrollToVisible(selection, margin: .none) }
        }
        lastFrame = frame
        if pendingScrollToSelection {
            pendingScrollToSelection = false
            if let selection { scrollToVisible(selection, margin: .both) }
        }
        scrollOffset = clampedOffset(scrollOffset)

        for y in outer.y..<outer.maxY { canvas.fill(" ", x: outer.x, y: y, width: outer.width) }
        let geometry = geometry(for: frame)

        if var running = animation {
            if running.startTime == nil {
                running.startTime = time
                animation = running
            }
            if running.isRunning(at: time) {
                if gridColumns != nil {
                    for item in running.items { if case .row(let cell) = item.content { measureGridValues(of: cell) } }
                    layOutGrid(into: &canvas, geometry: geometry)
                }
                drawAnimated(
                    running,
                    q: AnimationCurve.easeInOut(running.progress(at: time)),
                    into: &canvas,
                    geometry: geometry
                )
            } else {
                animation = nil
                drawRows(into: &canvas, geometry: geometry)
            }
        } else {
            drawRows(into: &canvas, geometry: geometry)
        }
        if layout.totalRows == 0 { drawEmptyMessage(into: &canvas, geometry: geometry) }
        drawSidebar(into: &canvas, geometry: geometry)
        drawIndexSearchPrompt(into: &canvas, geometry: geometry)
    }

    /// Draws into the whole canvas.
    public func render(into canvas: inout Canvas, at time: Double) {
        render(into: &canvas, frame: canvas.bounds, at: time)
    }

    // MARK: Static frame

    private func drawRows(into canvas: inout Canvas, geometry: Geometry) {
        cellCache.removeAll(keepingCapacity: true)
        guard let dataSource else {
            if gridColumns != nil { layOutGrid(into: &canvas, geometry: geometry) }
            return
        }
        let offset = scrollOffset
        let height = geometry.frame.height
        // The visible rows' cells first: a grid measures its columns from them before drawing.
        layout.forEachEntry(from: offset, height: height) { entry, _ in
            if case .row(let ip) = entry { cellCache.append((ip, dataSource.cell(forRowAt: ip))) }
        }
        if gridColumns != nil {
            for entry in cellCache { measureGridValues(of: entry.cell) }
            layOutGrid(into: &canvas, geometry: geometry)
        }
        var next = 0
        layout.forEachEntry(from: offset, height: height) { entry, top in
            switch entry {
            case .header(let s):
                drawHeader(
                    layout.headerTitles[s] ?? "",
                    at: top - offset,
                    attributes: [],
                    into: &canvas,
                    geometry: geometry
                )
            case .row(let ip):
                let cell = cellCache[next].cell
                next += 1
                drawRow(
                    cell,
                    indexPath: ip,
                    at: top - offset,
                    lines: layout.rowHeight,
                    attributes: [],
                    into: &canvas,
                    geometry: geometry
                )
            }
        }
        // The sticky header: that of the section the top line belongs to.
        if let s = layout.section(atLine: offset), let title = layout.headerTitles[s], layout.sectionTops[s] != offset {
            let y = min(0, layout.sectionTops[s + 1] - offset - 1)
            drawHeader(title, at: y, attributes: [], into: &canvas, geometry: geometry)
        }
    }

    /// A grid's columns placed for this frame, and its header row drawn above the rows.
    private func layOutGrid(into canvas: inout Canvas, geometry: Geometry) {
        placeGridColumns(in: geometry)
        if let y = gridHeaderY { drawGridHeader(into: &canvas, y: y, geometry: geometry) }
    }

    // MARK: Animated frame

    private func drawAnimated(_ running: TableAnimation, q: Double, into canvas: inout Canvas, geometry: Geometry) {
        // Deleted rows underneath, then the rest, then moving rows on top.
        for pass in 0..<3 {
            for item in running.items {
                let itemPass: Int
                switch item.effect {
                case .fadeOut: itemPass = 0
                case .move: itemPass = 2
                default: itemPass = 1
                }
                guard itemPass == pass else { continue }
                let (top, height) = item.frame(at: q)
                guard height > 0, top < geometry.frame.height, top + height > 0 else { continue }
                let attributes = item.effectAttributes(at: q)
                switch item.content {
                case .header(let title):
                    drawHeader(title, at: top, attributes: attributes, into: &canvas, geometry: geometry)
                case .row(let cell):
                    drawRow(
                        cell,
                        indexPath: item.newIndexPath,
                        at: top,
                        lines: min(height, layout.rowHeight),
                        attributes: attributes,
                        into: &canvas,
                        geometry: geometry
                    )
                }
            }
        }
        // Sticky header: the section of whatever covers the top line.
        for item in running.items where item.effect != .move {
            let (top, height) = item.frame(at: q)
            guard height > 0, top <= 0, top + height > 0 else { continue }
            if case .header = item.content, top == 0 { break }
            if let title = item.sectionTitle {
                drawHeader(title, at: 0, attributes: [], into: &canvas, geometry: geometry)
            }
            break
        }
    }

    // MARK: Pieces

    /// A section header line: the title, bold in the accent colour, then a rule.
    private func drawHeader(
        _ title: String,
        at line: Int,
        attributes: CellAttributes,
        into canvas: inout Canvas,
        geometry: Geometry
    ) {
        guard line >= 0, line < geometry.frame.height else { return }
        let y = geometry.frame.y + line
        let x = geometry.contentX
        let width = geometry.contentWidth
        canvas.fill(" ", x: x, y: y, width: width)
        let written = canvas.put(
            title,
            x: x + 1,
            y: y,
            attributes: attributes.union([.bold, .accent]),
            maxWidth: width - 2
        )
        let ruleX = x + 1 + written + 1
        canvas.fill("─", x: ruleX, y: y, width: x + width - 1 - ruleX, attributes: attributes.union(.dim))
    }

    /// The first `lines` lines of a row whose top is at frame line `line`.
    private func drawRow(
        _ cell: TableCell,
        indexPath: IndexPath?,
        at line: Int,
        lines: Int,
        attributes: CellAttributes,
        into canvas: inout Canvas,
        geometry: Geometry
    ) {
        let editing = indexPath != nil && indexPath == editingIndexPath
        let selected = indexPath != nil && indexPath == selection && !editing
        var base = selected ? attributes.union(.reverse) : attributes
        if cell.isPending { base.insert(.dim) }
        let buttonWidth = editing ? min(DisplayWidth.of(Self.deleteButtonTitle), max(0, geometry.contentWidth - 4)) : 0
        let x = geometry.contentX
        let width = geometry.contentWidth
        for l in 0..<lines {
            let frameLine = line + l
            guard frameLine >= 0, frameLine < geometry.frame.height else { continue }
            let y = geometry.frame.y + frameLine
            canvas.fill(" ", x: x, y: y, width: width, attributes: base)
            if gridColumns != nil {
                if l == 0 { drawGridLine(cell, selected: selected, into: &canvas, y: y, base: base) }
            } else {
                cell.draw(
                    line: l,
                    rowHeight: layout.rowHeight,
                    into: &canvas,
                    x: x,
                    y: y,
                    width: width - buttonWidth,
                    attributes: base
                )
            }
            if cell.isPending && l == 0 {
                canvas.put(TableCell.pendingMark, x: x, y: y, attributes: base, maxWidth: 1)
            }
            if buttonWidth > 0 {
                let buttonAttributes: CellAttributes = [.reverse, .bold, .destructive]
                canvas.fill(" ", x: x + width - buttonWidth, y: y, width: buttonWidth, attributes: buttonAttributes)
                if l == (layout.rowHeight - 1) / 2 {
                    canvas.put(
                        Self.deleteButtonTitle,
                        x: x + width - buttonWidth,
                        y: y,
                        attributes: buttonAttributes,
                        maxWidth: buttonWidth
                    )
                }
            }
        }
    }

    private func drawEmptyMessage(into canvas: inout Canvas, geometry: Geometry) {
        let width = DisplayWidth.of(emptyMessage)
        let x = geometry.contentX + max(0, (geometry.contentWidth - width) / 2)
        let y = geometry.frame.y + geometry.frame.height / 2
        canvas.put(emptyMessage, x: x, y: y, attributes: .dim, maxWidth: geometry.contentWidth)
    }

    /// Index titles top to bottom at the right edge, compressed with `•` when
    /// there are more titles than lines.
    private func drawSidebar(into canvas: inout Canvas, geometry: Geometry) {
        guard geometry.sidebarWidth > 0 else { return }
        let titles = layout.indexTitles
        let sidebar = IndexSidebar(titleCount: titles.count, lines: geometry.frame.height)
        let highlighted = indexSearchText != nil && indexSearchMatched ? indexSearchMatch : nil
        for i in 0..<sidebar.usedLines {
            let y = geometry.frame.y + sidebar.firstLine + i
            switch sidebar.slot(at: i) {
            case .title(let t):
                let title = titles[t]
                let width = min(DisplayWidth.of(title), geometry.sidebarWidth)
                let x = geometry.sidebarX + (geometry.sidebarWidth - width) / 2
                let attributes: CellAttributes = t == highlighted ? [.accent, .reverse] : .accent
                canvas.put(title, x: x, y: y, attributes: attributes, maxWidth: geometry.sidebarWidth)
            case .bullet:
                canvas.put(
                    "•",
                    x: geometry.sidebarX + (geometry.sidebarWidth - 1) / 2,
                    y: y,
                    attributes: [.accent, .dim]
                )
            case nil:
                break
            }
        }
    }

    /// While `f` is jumping: the typed prefix on the frame's last line.
    private func drawIndexSearchPrompt(into canvas: inout Canvas, geometry: Geometry) {
        guard let text = indexSearchText else { return }
        let y = geometry.frame.maxY - 1
        canvas.fill(" ", x: geometry.contentX, y: y, width: geometry.contentWidth, attributes: .reverse)
        let prompt = " Go to index: " + text
        let written = canvas.put(
            prompt,
            x: geometry.contentX,
            y: y,
            attributes: .reverse,
            maxWidth: geometry.contentWidth
        )
        if !indexSearchMatched {
            canvas.put(
                "  (no match)",
                x: geometry.contentX + written,
                y: y,
                attributes: [.reverse, .dim],
                maxWidth: geometry.contentWidth - written
            )
        }
        canvas.cursor = (geometry.contentX + written, y)
    }
}
