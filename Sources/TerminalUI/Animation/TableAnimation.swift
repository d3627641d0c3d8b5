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
        var layout = TableAnimationLayout(
            old: old,
            oldOffset: oldOffset,
            new: new,
            newOffset: newOffset,
            viewportHeight: viewportHeight,
            map: map
        )
        layout.addItemsVisibleBefore(oldCell: oldCell, newCell: newCell)
        layout.addItemsVisibleAfter(newCell: newCell)
        layout.collapseDeletedItems()
        layout.openInsertedItems()
        return TableAnimation(items: layout.items, duration: duration, startTime: nil, viewportHeight: viewportHeight)
    }
}
