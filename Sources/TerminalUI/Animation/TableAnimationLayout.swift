import Foundation

/// The items of a ``TableAnimation`` as they are laid out, one step at a time:
/// the entries visible before the batch (survivors and deleted items), those
/// visible after it (survivors and inserted items), then where deleted items
/// collapse to and inserted items open from.
struct TableAnimationLayout {
    typealias Entry = TableLayout.Entry

    let old: TableLayout
    let oldOffset: Int
    let new: TableLayout
    let newOffset: Int
    let viewportHeight: Int
    let map: TableUpdateMap
    private(set) var items: [AnimatedItem] = []
    /// The item of each surviving entry, by its entry after the batch.
    private var survivorIndex: [Entry: Int] = [:]
    /// Items in the order of the old layout, and of the new one.
    private var oldOrder: [Int] = []
    private var newOrder: [Int] = []
    private var deletedItems = Set<Int>()
    private var insertedItems = Set<Int>()

    init(old: TableLayout, oldOffset: Int, new: TableLayout, newOffset: Int, viewportHeight: Int, map: TableUpdateMap) {
        self.old = old
        self.oldOffset = oldOffset
        self.new = new
        self.newOffset = newOffset
        self.viewportHeight = viewportHeight
        self.map = map
    }

    /// Everything visible before the update: survivors, and deleted items that fade out.
    mutating func addItemsVisibleBefore(oldCell: (IndexPath) -> TableCell?, newCell: (IndexPath) -> TableCell) {
        old.forEachEntry(from: oldOffset, height: viewportHeight) { entry, top in
            switch entry {
            case .header(let s):
                if let n = map.oldToNewSection[s], new.headerTitles[n] != nil {
                    oldOrder.append(survivor(new: .header(n), old: entry, newCell: newCell))
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
                    oldOrder.append(survivor(new: .row(nip), old: entry, newCell: newCell))
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
    }

    /// Everything visible after the update: survivors, and inserted items that fade in.
    mutating func addItemsVisibleAfter(newCell: (IndexPath) -> TableCell) {
        new.forEachEntry(from: newOffset, height: viewportHeight) { entry, top in
            switch entry {
            case .header(let n):
                if let s = map.newToOldSection[n], old.headerTitles[s] != nil {
                    newOrder.append(survivor(new: entry, old: .header(s), newCell: newCell))
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
                    newOrder.append(survivor(new: entry, old: .row(oip), newCell: newCell))
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
    }

    /// A deleted item collapses onto the end edge of the item before it (in
    /// the old order); one with nothing before it onto the next survivor.
    mutating func collapseDeletedItems() {
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
    }

    /// An inserted item opens from the start edge of the item before it (in
    /// the new order); one with nothing before it from the next survivor.
    mutating func openInsertedItems() {
        var leading: [Int] = []
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
    }

    /// Moving items do not anchor the others: they travel on their own.
    private func isAnchor(_ i: Int) -> Bool { items[i].effect != .move }

    /// The item of an entry on screen both before and after the batch (made the first
    /// time either walk meets it), travelling from its old place to its new one.
    private mutating func survivor(new newEntry: Entry, old oldEntry: Entry, newCell: (IndexPath) -> TableCell) -> Int {
        if let index = survivorIndex[newEntry] { return index }
        let height = new.height(of: newEntry)
        var item = AnimatedItem(
            content: .header(""),
            effect: .none,
            fromY: old.top(of: oldEntry) - oldOffset,
            toY: new.top(of: newEntry) - newOffset,
            fromHeight: height,
            toHeight: height,
            newIndexPath: nil,
            sectionTitle: nil
        )
        switch (newEntry, oldEntry) {
        case (.header(let n), _):
            item.content = .header(new.headerTitles[n] ?? "")
            item.sectionTitle = new.headerTitles[n]
        case (.row(let nip), .row(let oip)):
            item.content = .row(newCell(nip))
            item.newIndexPath = nip
            item.sectionTitle = new.headerTitles[nip.section]
            if map.isMoved(old: oip) { item.effect = .move } else if map.isReloaded(old: oip) { item.effect = .flash }
        case (.row(let nip), .header):
            item.content = .row(newCell(nip))  // not produced by the walks
            item.newIndexPath = nip
        }
        items.append(item)
        survivorIndex[newEntry] = items.count - 1
        return items.count - 1
    }
}
