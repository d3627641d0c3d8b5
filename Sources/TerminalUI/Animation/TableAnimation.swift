import Foundation

/// A batch update in motion: the items on screen with their start and end
/// positions, and the clock window over which they travel.
///
/// Built once by `endUpdates` from the layouts before and after the batch (only
/// the rows visible before or after are involved); the table view's state is
/// already final, so finishing early is just dropping the animation. The start
/// time is taken from the first frame rendered after the batch, so the run
/// loop's clock (or a test's chosen times) drives it.
struct TableAnimation {
    private(set) var items: [AnimatedItem]
    let duration: Double
    /// Set by the first `render` after the batch.
    var startTime: Double?
    /// The table's viewport height the items were laid out for.
    let viewportHeight: Int

    /// Linear progress 0...1 at `time` (0 before the first frame).
    func progress(at time: Double) -> Double {
        guard let startTime else { return 0 }
        guard duration > 0 else { return 1 }
        return max(0, min(1, (time - startTime) / duration))
    }

    /// True until the end of the animation (and before its first frame).
    func isRunning(at time: Double) -> Bool {
        guard let startTime else { return true }
        return time < startTime + duration
    }

    /// Lays out the animation of `map` from the old viewport to the new one.
    ///
    /// - Parameters:
    ///   - oldCell: the cell last drawn for an old index path (deleted rows can no
    ///     longer be asked of the data source).
    ///   - newCell: asks the data source for a row after the update.
    static func build(
        old: TableLayout,
        oldOffset: Int,
        new: TableLayout,
        newOffset: Int,
        viewportHeight: Int,
        map: TableUpdateMap,
        duration: Double,
        oldCell: (IndexPath) -> TableCell?,
        newCell: (IndexPath) -> TableCell
    ) -> TableAnimation {
        typealias Entry = TableLayout.Entry
        var items: [AnimatedItem] = []
        var survivorIndex: [Entry: Int] = [:]
        var oldOrder: [Int] = []
        var newOrder: [Int] = []

        func survivor(new newEntry: Entry, old oldEntry: Entry) -> Int {
            if let index = survivorIndex[newEntry] { return index }
            let content: AnimatedItem.Content
            var effect = AnimatedItem.Effect.none
            var newIndexPath: IndexPath?
            var sectionTitle: String?
            switch (newEntry, oldEntry) {
            case (.header(let n), _):
                content = .header(new.headerTitles[n] ?? "")
                sectionTitle = new.headerTitles[n]
            case (.row(let nip), .row(let oip)):
                content = .row(newCell(nip))
                newIndexPath = nip
                sectionTitle = new.headerTitles[nip.section]
                if map.isMoved(old: oip) { effect = .move } else if map.isReloaded(old: oip) { effect = .flash }
            case (.row(let nip), .header):
                content = .row(newCell(nip))  // not produced by the walks below
                newIndexPath = nip
            }
            let height = new.height(of: newEntry)
            items.append(
                AnimatedItem(
                    content: content,
                    effect: effect,
                    fromY: old.top(of: oldEntry) - oldOffset,
                    toY: new.top(of: newEntry) - newOffset,
                    fromHeight: height,
                    toHeight: height,
                    newIndexPath: newIndexPath,
                    sectionTitle: sectionTitle
                )
            )
            survivorIndex[newEntry] = items.count - 1
            return items.count - 1
        }

        // Everything visible before the update: survivors and deleted items.
        var deletedItems = Set<Int>()
        old.forEachEntry(from: oldOffset, height: viewportHeight) { entry, top in
            switch entry {
            case .header(let s):
                if let n = map.oldToNewSection[s], new.headerTitles[n] != nil {
                    oldOrder.append(survivor(new: .header(n), old: entry))
                    return
                }
                items.append(
                    AnimatedItem(
                        content: .header(old.headerTitles[s] ?? ""),
                        effect: .fadeOut,
                        fromY: top - oldOffset,
                        toY: top - oldOffset,
                        fromHeight: 1,
                        toHeight: 0,
                        newIndexPath: nil,
                        sectionTitle: old.headerTitles[s]
                    )
                )
            case .row(let ip):
                if let nip = map.newIndexPath(forOld: ip) {
                    oldOrder.append(survivor(new: .row(nip), old: entry))
                    return
                }
                let cell = oldCell(ip) ?? TableCell(title: "")
                items.append(
                    AnimatedItem(
                        content: .row(cell),
                        effect: .fadeOut,
                        fromY: top - oldOffset,
                        toY: top - oldOffset,
                        fromHeight: old.rowHeight,
                        toHeight: 0,
                        newIndexPath: nil,
                        sectionTitle: old.headerTitles[ip.section]
                    )
                )
            }
            deletedItems.insert(items.count - 1)
            oldOrder.append(items.count - 1)
        }

        // Everything visible after it: survivors and inserted items.
        var insertedItems = Set<Int>()
        new.forEachEntry(from: newOffset, height: viewportHeight) { entry, top in
            switch entry {
            case .header(let n):
                if let s = map.newToOldSection[n], old.headerTitles[s] != nil {
                    newOrder.append(survivor(new: entry, old: .header(s)))
                    return
                }
                items.append(
                    AnimatedItem(
                        content: .header(new.headerTitles[n] ?? ""),
                        effect: .fadeIn,
                        fromY: top - newOffset,
                        toY: top - newOffset,
                        fromHeight: 0,
                        toHeight: 1,
                        newIndexPath: nil,
                        sectionTitle: new.headerTitles[n]
                    )
                )
            case .row(let nip):
                if let oip = map.oldIndexPath(forNew: nip) {
                    newOrder.append(survivor(new: entry, old: .row(oip)))
                    return
                }
                items.append(
                    AnimatedItem(
                        content: .row(newCell(nip)),
                        effect: .fadeIn,
                        fromY: top - newOffset,
                        toY: top - newOffset,
                        fromHeight: 0,
                        toHeight: new.rowHeight,
                        newIndexPath: nip,
                        sectionTitle: new.headerTitles[nip.section]
                    )
                )
            }
            insertedItems.insert(items.count - 1)
            newOrder.append(items.count - 1)
        }

        // A deleted item collapses onto the end edge of the item before it (in
        // the old order); one with nothing before it onto the next survivor.
        func isAnchor(_ i: Int) -> Bool { items[i].effect != .move }
        var leading: [Int] = []
        var anchorEnd: Int?
        for i in oldOrder where isAnchor(i) {
            if deletedItems.contains(i) {
                if let end = anchorEnd { items[i].toY = end } else { leading.append(i) }
            } else {
                for j in leading { items[j].toY = items[i].toY }
                leading.removeAll()
                anchorEnd = items[i].toY + items[i].toHeight
            }
        }
        // An inserted item opens from the start edge of the item before it (in
        // the new order); one with nothing before it from the next survivor.
        leading.removeAll()
        var anchorStart: Int?
        for i in newOrder where isAnchor(i) {
            if insertedItems.contains(i) {
                if let end = anchorStart { items[i].fromY = end } else { leading.append(i) }
            } else {
                for j in leading { items[j].fromY = items[i].fromY }
                leading.removeAll()
                anchorStart = items[i].fromY + items[i].fromHeight
            }
        }
        return TableAnimation(items: items, duration: duration, startTime: nil, viewportHeight: viewportHeight)
    }
}
