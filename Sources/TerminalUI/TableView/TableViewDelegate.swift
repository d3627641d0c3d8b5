import Foundation

/// Receives a `TableView`'s user actions: select, commit a delete, tap an accessory.
///
/// Every method has a default that does nothing, so a delegate implements
/// only what it needs.
///
///     final class BookListScreen: TableViewDelegate {
///         func didSelectRow(at indexPath: IndexPath) { showDetail(indexPath) }
///         func commitDelete(at indexPath: IndexPath) {
///             context.delete(controller.object(at: indexPath))   // the save's batch removes the row
///             try? context.save()
///         }
///     }
///     tableView.delegate = screen   // weak
public protocol TableViewDelegate: AnyObject {
    /// Enter, →, or a click on the selected row.
    func didSelectRow(at indexPath: IndexPath)
    /// The inline Delete button was confirmed (Enter or `d`, or clicked).
    /// Delete the object; the data source's change then reaches the table as a batch.
    func commitDelete(at indexPath: IndexPath)
    /// A click on a `.detailButton` accessory.
    func accessoryTapped(at indexPath: IndexPath)
    /// Whether `d`/Delete may reveal the Delete button on this row. Default: `true`.
    func canDeleteRow(at indexPath: IndexPath) -> Bool
    /// The user moved the selection (keys, wheel, click, index jump).
    /// Not called when a batch update only renumbers the same selected object.
    func selectionDidChange(to indexPath: IndexPath?)
}

extension TableViewDelegate {
    public func didSelectRow(at indexPath: IndexPath) {}
    public func commitDelete(at indexPath: IndexPath) {}
    public func accessoryTapped(at indexPath: IndexPath) {}
    public func canDeleteRow(at indexPath: IndexPath) -> Bool { true }
    public func selectionDidChange(to indexPath: IndexPath?) {}
}
