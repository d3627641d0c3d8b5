import SQLiteStore
import TerminalUI

/// A ``ListTab``'s columns when it shows as a grid: every column in its order,
/// with what the person made of each (hidden, frozen, width).
///
/// The screen keeps one per tab as the person arranges it (``ListScreen/grid``);
/// the tab's own is where it starts. The table view gets the visible columns
/// (``gridColumns``) and each row's values in that order (``values(of:)``).
///
///     tab.grid = ListGrid(columns: [
///         ListColumn("name"), ListColumn("city"), ListColumn("cert", type: .integer),
///     ])
public struct ListGrid {
    /// Every column, hidden ones too, in their order.
    public var columns: [ListColumn]

    /// A grid of `columns`.
    public init(columns: [ListColumn]) {
        self.columns = columns
    }

    /// The indices in ``columns`` of the columns shown, in order.
    public var visibleIndices: [Int] { columns.indices.filter { !columns[$0].isHidden } }

    /// The columns shown, as the table view describes them.
    public var gridColumns: [GridColumn] { visibleIndices.map { columns[$0].gridColumn } }

    /// An object's values in the columns shown (nil: NULL).
    public func values(of object: ManagedObject) -> [String?] {
        var values: [String?] = []
        values.reserveCapacity(columns.count)
        for column in columns where !column.isHidden { values.append(column.value(of: object)) }
        return values
    }

    /// The column at position `visibleIndex` among those shown (the table's column cursor).
    public func column(atVisibleIndex visibleIndex: Int) -> ListColumn? {
        let visible = visibleIndices
        return visible.indices.contains(visibleIndex) ? columns[visible[visibleIndex]] : nil
    }

    /// The position in ``columns`` of the shown column at `visibleIndex`.
    public func index(ofVisibleIndex visibleIndex: Int) -> Int? {
        let visible = visibleIndices
        return visible.indices.contains(visibleIndex) ? visible[visibleIndex] : nil
    }

    /// The columns shown in the order the grid draws them (the frozen ones first), as
    /// positions in ``columns``.
    public var displayOrder: [Int] {
        let visible = visibleIndices
        return visible.filter { columns[$0].isFrozen } + visible.filter { !columns[$0].isFrozen }
    }

    /// Moves the column at `index` of ``columns`` past `delta` neighbours in the order the grid
    /// draws them (among the frozen columns, or among the others); returns whether it moved.
    ///
    ///     grid.move(columnAt: 2, by: -1)   // one column to the left
    @discardableResult
    public mutating func move(columnAt index: Int, by delta: Int) -> Bool {
        guard columns.indices.contains(index), delta != 0 else { return false }
        let frozen = columns[index].isFrozen
        let group = displayOrder.filter { columns[$0].isFrozen == frozen }
        guard let position = group.firstIndex(of: index) else { return false }
        let target = max(0, min(group.count - 1, position + delta))
        guard target != position else { return false }
        // Inserted at the neighbour's index after the removal: after it when it was to the right
        // (the removal shifted it left by one), before it when it was to the left.
        let anchor = group[target]
        let moved = columns.remove(at: index)
        columns.insert(moved, at: anchor)
        return true
    }

    /// Freezes the shown column at `visibleIndex`, or unfreezes it; returns whether it is frozen now.
    @discardableResult
    public mutating func toggleFrozen(atVisibleIndex visibleIndex: Int) -> Bool {
        let visible = visibleIndices
        guard visible.indices.contains(visibleIndex) else { return false }
        columns[visible[visibleIndex]].isFrozen.toggle()
        return columns[visible[visibleIndex]].isFrozen
    }
}
