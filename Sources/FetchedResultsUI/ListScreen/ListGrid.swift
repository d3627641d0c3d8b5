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

    /// Freezes the shown column at `visibleIndex`, or unfreezes it; returns whether it is frozen now.
    @discardableResult
    public mutating func toggleFrozen(atVisibleIndex visibleIndex: Int) -> Bool {
        let visible = visibleIndices
        guard visible.indices.contains(visibleIndex) else { return false }
        columns[visible[visibleIndex]].isFrozen.toggle()
        return columns[visible[visibleIndex]].isFrozen
    }
}
