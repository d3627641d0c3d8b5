import Foundation

// Keys and mouse (the key map is in `handle(_:)`'s documentation). Input is handled between frames and
// never waits for an animation: a scroll ends a running one at once.

extension TableView {
    /// Rows moved by one mouse-wheel notch.
    static let wheelRows = 3

    /// Handles one event; returns false when the table does not use it (e.g. `q`,
    /// `/`, Tab), so the screen can.
    ///
    /// ↑/↓ `k`/`j` move; PgUp/PgDn `b`/Space page; Home/End `g`/`G`; `{`/`}`
    /// previous/next section; `f` then the start of an index title jumps to its
    /// section (Enter/Esc ends); Enter/→ calls `didSelectRow`; `d`/Delete shows
    /// the row's Delete button, which Enter or `d` confirms (`commitDelete`) and
    /// Esc or moving away cancels; the wheel moves the selection; a click selects
    /// a row (a second click on it selects it for the delegate), jumps from the
    /// index sidebar, or presses the Delete button.
    ///
    /// In a grid (``gridColumns``), ←/→ `h`/`l` move the column cursor instead
    /// (→ no longer selects; Enter does), and a click also puts the cursor on
    /// the column under it (on the header row, only that).
    ///
    ///     if !table.handle(event) { screen.handleAppKey(event) }
    @discardableResult
    public func handle(_ event: InputEvent) -> Bool {
        reloadIfNeeded()
        if indexSearchText != nil, let handled = handleIndexSearch(event) { return handled }
        if let editing = editingIndexPath {
            switch event {
            case .enter, .character("d"), .delete:
                editingIndexPath = nil
                delegate?.commitDelete(at: editing)
                return true
            case .escape:
                editingIndexPath = nil
                return true
            case .mouseClick(let x, let y) where isOnDeleteButton(x: x, y: y, of: editing):
                editingIndexPath = nil
                delegate?.commitDelete(at: editing)
                return true
            case .resize, .function, .control:
                break
            default:
                editingIndexPath = nil  // moving away (or anything else) cancels
            }
        }
        if gridColumns != nil {
            switch event {
            case .left, .character("h"):
                moveColumnCursor(by: -1)
                return true
            case .right, .character("l"):
                moveColumnCursor(by: 1)
                return true
            case .mouseClick(let x, let y) where y == gridHeaderY:
                guard lastFrame.map({ x >= $0.x && x < $0.maxX }) ?? false else { return false }
                if let column = gridColumn(atX: x) { gridState.cursorColumn = column }
                return true
            default:
                break
            }
        }
        switch event {
        case .up, .character("k"): moveSelection(by: -1)
        case .down, .character("j"): moveSelection(by: 1)
        case .pageUp, .character("b"): page(by: -1)
        case .pageDown, .character(" "): page(by: 1)
        case .home, .character("g"): moveSelection(to: layout.firstIndexPath, margin: .above)
        case .end, .character("G"): moveSelection(to: layout.lastIndexPath, margin: .below)
        case .character("{"): jumpSection(forward: false)
        case .character("}"): jumpSection(forward: true)
        case .character("f"):
            guard !layout.indexTitles.isEmpty else { return false }
            indexSearchText = ""
            indexSearchMatched = true
            indexSearchMatch = nil
        case .enter, .right:
            guard let selection else { return false }
            delegate?.didSelectRow(at: selection)
        case .character("d"), .delete:
            guard let selection else { return false }
            guard delegate?.canDeleteRow(at: selection) ?? true else { return true }
            editingIndexPath = selection
            scrollToVisible(selection, margin: .none)
        case .mouseWheel(let up, let x, let y):
            guard lastFrame?.contains(x: x, y: y) ?? false else { return false }
            moveSelection(by: up ? -Self.wheelRows : Self.wheelRows)
        case .mouseClick(let x, let y):
            return handleClick(x: x, y: y)
        default:
            return false
        }
        return true
    }

    // MARK: Moving the selection

    private func moveSelection(by rows: Int) {
        guard layout.totalRows > 0 else { return }
        guard let current = selection, layout.contains(current) else {
            moveSelection(to: firstVisibleRow() ?? layout.firstIndexPath, margin: .none)
            return
        }
        let target = max(0, min(layout.totalRows - 1, layout.flatIndex(of: current) + rows))
        moveSelection(to: layout.indexPath(atFlatIndex: target), margin: rows < 0 ? .above : .below)
    }

    private func moveSelection(to indexPath: IndexPath?, margin: ScrollMargin) {
        guard let indexPath else { return }
        let previous = selection
        setSelection(indexPath)
        scrollToVisible(indexPath, margin: margin)
        if previous != indexPath { delegate?.selectionDidChange(to: indexPath) }
    }

    /// A page: the selection moves by a screenful of rows and the view with it,
    /// so the selection keeps its line.
    private func page(by direction: Int) {
        guard layout.totalRows > 0 else { return }
        let rows = max(1, (viewportHeight - stickyHeight) / layout.rowHeight - 1)
        guard let current = selection, layout.contains(current) else {
            moveSelection(by: direction)
            return
        }
        let screenLine = layout.rowTop(current) - scrollOffset
        let target = max(0, min(layout.totalRows - 1, layout.flatIndex(of: current) + direction * rows))
        guard let next = layout.indexPath(atFlatIndex: target) else { return }
        setScrollOffset(layout.rowTop(next) - screenLine)
        moveSelection(to: next, margin: direction < 0 ? .above : .below)
    }

    private func firstVisibleRow() -> IndexPath? {
        layout.indexPath(nearLine: clampedOffset(scrollOffset) + stickyHeight)
    }

    /// `}`: the first row of the next section with rows. `{`: the first row of
    /// this section, or of the previous one when already there.
    private func jumpSection(forward: Bool) {
        guard layout.totalRows > 0 else { return }
        let current = selection.flatMap { layout.contains($0) ? $0 : nil } ?? layout.firstIndexPath!
        var s = current.section
        if forward {
            repeat { s += 1 } while s < layout.numberOfSections && layout.rowCounts[s] == 0
            guard s < layout.numberOfSections else {
                moveSelection(to: layout.lastIndexPath, margin: .below)
                return
            }
        } else if current.row == 0 {
            repeat { s -= 1 } while s >= 0 && layout.rowCounts[s] == 0
            guard s >= 0 else {
                scrollToSection(0)
                return
            }
        }
        scrollToSection(s)
    }

    // MARK: Index jump (`f`)

    /// Handles an event while the `f` prompt is open; nil passes it on after
    /// closing the prompt (arrows, clicks: the jump is over). A prefix that only one
    /// title has jumps there and closes the prompt; one that several have keeps it
    /// open for the next letter.
    private func handleIndexSearch(_ event: InputEvent) -> Bool? {
        guard var text = indexSearchText else { return nil }
        switch event {
        case .escape, .enter:
            indexSearchText = nil
            return true
        case .backspace:
            if text.isEmpty {
                indexSearchText = nil
                return true
            }
            text.removeLast()
        case .character(let c):
            text.append(c)
        case .resize, .function, .control:
            return false
        default:
            indexSearchText = nil
            return nil
        }
        indexSearchText = text
        guard !text.isEmpty else {
            indexSearchMatched = true
            indexSearchMatch = nil
            return true
        }
        let titles = layout.indexTitles
        let prefix = text.lowercased()
        if let t = titles.firstIndex(where: { $0.lowercased().hasPrefix(prefix) }) {
            indexSearchMatched = true
            indexSearchMatch = t
            jumpToIndexTitle(t)
            // The only title that fits: the jump is done (`f` + letter), the next key is the list's again.
            if !titles[(t + 1)...].contains(where: { $0.lowercased().hasPrefix(prefix) }) { indexSearchText = nil }
        } else {
            indexSearchMatched = false
        }
        return true
    }

    private func jumpToIndexTitle(_ index: Int) {
        guard let dataSource, index >= 0, index < layout.indexTitles.count else { return }
        scrollToSection(dataSource.section(forSectionIndexTitle: layout.indexTitles[index], at: index))
    }

    // MARK: Mouse

    private func handleClick(x: Int, y: Int) -> Bool {
        guard let frame = lastFrame, frame.contains(x: x, y: y) else { return false }
        let geometry = geometry(for: frame)
        if geometry.sidebarWidth > 0, x >= geometry.sidebarX {
            let sidebar = IndexSidebar(titleCount: layout.indexTitles.count, lines: frame.height)
            if let t = sidebar.titleIndex(atLine: y - frame.y) { jumpToIndexTitle(t) }
            return true
        }
        guard x < geometry.contentX + geometry.contentWidth else { return true }
        let line = y - frame.y
        if line < stickyHeight, let s = layout.section(atLine: scrollOffset), layout.sectionTops[s] != scrollOffset {
            return true  // the sticky header
        }
        guard let (entry, top) = layout.entry(atLine: scrollOffset + line), case .row(let ip) = entry else {
            return true
        }
        if gridColumns != nil, let column = gridColumn(atX: x) { gridState.cursorColumn = column }
        if line == top - scrollOffset, let dataSource,
            x == geometry.contentX + geometry.contentWidth - 2,
            dataSource.cell(forRowAt: ip).accessory == .detailButton
        {
            delegate?.accessoryTapped(at: ip)
            return true
        }
        if ip == selection {
            delegate?.didSelectRow(at: ip)
        } else {
            moveSelection(to: ip, margin: .none)
        }
        return true
    }

    private func isOnDeleteButton(x: Int, y: Int, of indexPath: IndexPath) -> Bool {
        guard let frame = lastFrame, frame.contains(x: x, y: y), layout.contains(indexPath) else { return false }
        let geometry = geometry(for: frame)
        let buttonWidth = DisplayWidth.of(Self.deleteButtonTitle)
        let right = geometry.contentX + geometry.contentWidth
        let top = layout.rowTop(indexPath) - scrollOffset + frame.y
        return x >= right - buttonWidth && x < right && y >= top && y < top + layout.rowHeight
    }
}
