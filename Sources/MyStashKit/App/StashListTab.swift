import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// One list of the app (Notes or Passwords): a fetched results controller
/// driving a table through the shared `FetchedResultsTableAdapter`.
///
/// Sorted by the section initial, then by title or name case-insensitively
/// (SQLite NOCASE), sectioned by first letter (`#` for the rest) with the
/// letters in the index on the right. The tab is the table's delegate and
/// forwards selection and confirmed deletes to `onSelect` / `onDelete`.
///
///     let notes = try StashListTab(kind: .notes, stash: stash, animated: true)
///     notes.onSelect = { object in browser.edit(object) }
///     notes.onDelete = { object in try? stash.delete(object) }
final class StashListTab: TableViewDelegate {
    let kind: StashKind
    let controller: FetchedResultsController
    let tableView: TableView
    let adapter: FetchedResultsTableAdapter
    var onSelect: ((ManagedObject) -> Void)?
    var onDelete: ((ManagedObject) -> Void)?

    init(kind: StashKind, stash: Stash, animated: Bool) throws {
        let context = stash.context
        self.kind = kind
        var request = FetchRequest(entity: kind.entity)
        request.sortDescriptors = [FetchSort(kind.sectionKey),
                                   FetchSort(kind.nameKey, comparison: .caseInsensitive)]
        request.fetchBatchSize = 40
        controller = FetchedResultsController(fetchRequest: request, context: context,
                                              sectionNameKeyPath: kind.sectionKey)
        try controller.performFetch()
        tableView = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
        tableView.emptyMessage = kind == .notes ? "No notes yet — press a to add one"
                                                : "No passwords yet — press a to add one"
        tableView.animatesUpdates = animated
        adapter = FetchedResultsTableAdapter(controller: controller, tableView: tableView,
                                             cellForObject: StashListTab.cellMaker(for: kind, stash: stash))
        adapter.animatesChanges = animated
        tableView.delegate = self
    }

    /// The cell of a note (title; first line of the body) or a password
    /// (name; user ID and URL — never the password), opened by the stash.
    static func cellMaker(for kind: StashKind, stash: Stash) -> (ManagedObject) -> TableCell {
        { [unowned stash] object in
            TableCell(style: .subtitle, title: object.string(kind.nameKey) ?? "",
                      detail: stash.listDetail(of: object), accessory: .disclosureIndicator)
        }
    }

    /// The selected object, if any.
    var selectedObject: ManagedObject? { adapter.selectedObject }

    /// Number of items in the list.
    var count: Int { controller.numberOfObjects }

    // MARK: TableViewDelegate

    func didSelectRow(at indexPath: IndexPath) {
        guard controller.objectID(at: indexPath) != nil else { return }
        onSelect?(controller.object(at: indexPath))
    }

    func commitDelete(at indexPath: IndexPath) {
        guard controller.objectID(at: indexPath) != nil else { return }
        onDelete?(controller.object(at: indexPath))
    }
}
