import Foundation

// Batch updates in UIKit's shape. Deletes, reloads and move sources use the
// index paths before the update; inserts and move destinations those after it.
// `endUpdates` validates the batch against the data source's new counts
// (UIKit's rule; see TerminalUI.docc/TableViewBatchUpdates.md), keeps the selection and scroll on the same object, and
// starts the animation.

extension TableView {
    /// Starts a batch; nested pairs are allowed and the outermost `endUpdates` applies it.
    ///
    ///     table.beginUpdates()
    ///     table.deleteRows(at: [IndexPath(row: 1, section: 0)])
    ///     table.insertSections(IndexSet(integer: 2))
    ///     try table.endUpdates()
    public func beginUpdates() {
        updateDepth += 1
    }

    /// Applies the batch: validates it against the data source (which must already
    /// hold the new data), remaps the selection, the scroll position and the Delete
    /// button, and animates unless `animated` is false, animations are off, or the
    /// table has not been drawn yet. A running animation finishes at once first.
    ///
    /// On an invalid batch the table reloads itself (so it matches the data
    /// source again) and throws; the caller logs the error.
    public func endUpdates(animated: Bool = true) throws(TableViewError) {
        guard updateDepth > 0 else { throw .endUpdatesWithoutBeginUpdates }
        updateDepth -= 1
        guard updateDepth == 0 else { return }
        let batch = pendingBatch
        pendingBatch = TableUpdateBatch()
        try apply(batch, animated: animated)
    }

    /// `beginUpdates()`, `updates()`, `endUpdates(animated:)`.
    ///
    ///     try table.performBatchUpdates {
    ///         table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 4, section: 1))
    ///     }
    public func performBatchUpdates(_ updates: () -> Void, animated: Bool = true) throws(TableViewError) {
        beginUpdates()
        updates()
        try endUpdates(animated: animated)
    }

    /// Rows inserted, at their index paths after the update.
    public func insertRows(at indexPaths: [IndexPath]) {
        record { $0.insertedRows.append(contentsOf: indexPaths) }
    }

    /// Rows deleted, at their index paths before the update.
    public func deleteRows(at indexPaths: [IndexPath]) {
        record { $0.deletedRows.append(contentsOf: indexPaths) }
    }

    /// Rows whose content changed, at their index paths before the update; they flash.
    public func reloadRows(at indexPaths: [IndexPath]) {
        record { $0.reloadedRows.append(contentsOf: indexPaths) }
    }

    /// A row moved from `indexPath` (before) to `newIndexPath` (after); it travels.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedRows.append((indexPath, newIndexPath)) }
    }

    /// Sections inserted, at their indexes after the update (all their rows are new).
    public func insertSections(_ sections: IndexSet) {
        record { $0.insertedSections.append(contentsOf: sections) }
    }

    /// Sections deleted, at their indexes before the update (with the rows left in them).
    public func deleteSections(_ sections: IndexSet) {
        record { $0.deletedSections.append(contentsOf: sections) }
    }

    /// Sections whose rows all changed, at their indexes before the update.
    public func reloadSections(_ sections: IndexSet) {
        record { $0.reloadedSections.append(contentsOf: sections) }
    }

    /// Records an operation; outside `beginUpdates`/`endUpdates` it is applied at
    /// once as its own batch (as UIKit does), its error kept in `lastUpdateError`.
    private func record(_ change: (inout TableUpdateBatch) -> Void) {
        change(&pendingBatch)
        guard updateDepth == 0 else { return }
        let batch = pendingBatch
        pendingBatch = TableUpdateBatch()
        do { try apply(batch, animated: true) } catch {
            // Kept in lastUpdateError; the table reloaded.
        }
    }

    func apply(_ batch: TableUpdateBatch, animated: Bool) throws(TableViewError) {
        animation = nil  // a running animation finishes at once
        guard !needsReload, let dataSource else {
            // Never loaded: there is no "before" to check against or animate from.
            reloadData()
            return
        }
        let newLayout = TableLayout(dataSource: dataSource, rowHeight: rowHeight)
        let map: TableUpdateMap
        do {
            map = try TableUpdateMap(batch: batch, oldRowCounts: layout.rowCounts, newRowCounts: newLayout.rowCounts)
        } catch {
            lastUpdateError = error
            reloadData()
            throw error
        }
        lastUpdateError = nil
        let old = layout
        let oldOffset = clampedOffset(scrollOffset)
        let height = viewportHeight

        // The selected object: followed through the batch; if deleted, the row
        // that takes its place (the next one), else the last row.
        let oldSelection = selection.flatMap { old.contains($0) ? $0 : nil }
        var newSelection = oldSelection.flatMap { map.newIndexPath(forOld: $0) }
        var selectionDeleted = false
        if let oldSelection, newSelection == nil {
            newSelection = map.successor(ofDeleted: oldSelection) ?? newLayout.lastIndexPath
            selectionDeleted = true
        }
        if oldSelection == nil { newSelection = newLayout.firstIndexPath }

        // The scroll anchor: the selected row if it was on screen, else the first
        // row or header on screen that survives without moving; it keeps its line.
        var newOffset = oldOffset
        let selectionWasVisible = oldSelection.map { isVisible($0, in: old, offset: oldOffset) } ?? false
        if selectionWasVisible, let oldSelection, let newSelection {
            newOffset = newLayout.rowTop(newSelection) - (old.rowTop(oldSelection) - oldOffset)
        } else {
            var anchored = false
            old.forEachEntry(from: oldOffset, height: height) { entry, top in
                guard !anchored else { return }
                switch entry {
                case .header(let s):
                    if let n = map.oldToNewSection[s] {
                        newOffset = newLayout.sectionTops[n] - (top - oldOffset)
                        anchored = true
                    }
                case .row(let ip):
                    if !map.isMoved(old: ip), let nip = map.newIndexPath(forOld: ip) {
                        newOffset = newLayout.rowTop(nip) - (top - oldOffset)
                        anchored = true
                    }
                }
            }
        }

        // Scrolled to the very top, the top stays in view, as UIKit's content
        // offset does: rows inserted above push the content down (a live
        // insert into a new first section is seen), as long as the selected
        // row stays wholly on screen.
        if oldOffset == 0, newOffset > 0 {
            let staysOnScreen = newSelection.map { newLayout.rowTop($0) + newLayout.rowHeight <= height } ?? true
            if staysOnScreen { newOffset = 0 }
        }

        layout = newLayout
        scrollOffset = clampedOffset(newOffset)
        selection = newSelection
        selectedIdentity = newSelection.flatMap { dataSource.rowIdentity(at: $0) }
        if selectionWasVisible, let newSelection { scrollToVisible(newSelection, margin: .none) }
        editingIndexPath = editingIndexPath.flatMap { map.newIndexPath(forOld: $0) }

        if animated, animatesUpdates, Self.animationsEnabled, lastFrame != nil, !batch.isEmpty {
            let cache = cellCache
            let built = TableAnimation.build(
                old: old,
                oldOffset: oldOffset,
                new: layout,
                newOffset: scrollOffset,
                viewportHeight: height,
                map: map,
                duration: animationDuration,
                oldCell: { ip in cache.first(where: { $0.indexPath == ip })?.cell },
                newCell: { ip in dataSource.cell(forRowAt: ip) }
            )
            animation = built
            cellCache.removeAll(keepingCapacity: true)
            for item in built.items {
                if let ip = item.newIndexPath, case .row(let cell) = item.content { cellCache.append((ip, cell)) }
            }
        } else {
            // Keep the cached cells usable for the next batch: renumber them.
            var remapped: [(indexPath: IndexPath, cell: TableCell)] = []
            for entry in cellCache {
                if let ip = map.newIndexPath(forOld: entry.indexPath), !map.isReloaded(old: entry.indexPath) {
                    remapped.append((ip, entry.cell))
                }
            }
            cellCache = remapped
        }
        if selectionDeleted { delegate?.selectionDidChange(to: selection) }
    }

    func isVisible(_ indexPath: IndexPath, in layout: TableLayout, offset: Int) -> Bool {
        let top = layout.rowTop(indexPath)
        return top + layout.rowHeight > offset && top < offset + viewportHeight
    }
}
