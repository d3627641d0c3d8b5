import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// Connects a `FetchedResultsController` to a `TableView`: it is the
/// controller's delegate and the table's data source.
///
/// A change batch from the controller arrives as
/// will-change, section changes, object changes, did-change; the adapter
/// turns them into `beginUpdates()`, the table's batch operations (insert /
/// delete / move rows and sections; an update becomes a reload, which
/// flashes) and `endUpdates(animated:)`, which validates the batch and
/// animates it. It contains no special cases for controller bugs: the
/// controller's batches are correct by construction, and if `endUpdates`
/// ever refuses one the adapter reloads the table and reports the error to
/// ``log``.
///
/// Swapping the controller (another sort tab, a search, a filter) is a
/// reload that keeps the selection on the same object when it is still in
/// the new results: the adapter gives the table each row's `ObjectID` as its
/// identity and answers `indexPath(forRowIdentity:)` with the controller's
/// O(log N) `indexPath(for:)`.
///
/// It works for any entity; the cell and the header are closures.
///
///     let controller = FetchedResultsController(fetchRequest: request, context: context,
///                                               sectionNameKeyPath: "details.publishedYear")
///     controller.sectionIndexTitleProvider = { $0 }          // "2025", not "2"
///     try controller.performFetch()
///     let table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
///     let adapter = FetchedResultsTableAdapter(
///         controller: controller, tableView: table,
///         cellForObject: { book in
///             TableCell(style: .subtitle, title: book.string("name") ?? "",
///                       detail: "\(book.string("author") ?? ""), \(book.string("language") ?? "")")
///         },
///         headerTitle: { section in "\(section.name) (\(section.numberOfObjects))" })
///     adapter.log = { message in logFile.write(message) }
///     // later, another tab:
///     try byName.performFetch()
///     adapter.swap(to: byName)
public final class FetchedResultsTableAdapter: FetchedResultsControllerDelegate, TableViewDataSource {
    /// The controller whose results the table shows (see ``swap(to:)``).
    public private(set) var controller: FetchedResultsController
    /// The table fed by this adapter (its `dataSource` is the adapter; held weakly there).
    package let tableView: TableView
    /// Makes the cell of an object; called only for visible rows.
    public var cellForObject: (ManagedObject) -> TableCell
    /// The header of a section; nil shows the section's name (no header when
    /// the controller has no section key path).
    public var headerTitle: ((SectionInfo) -> String)?
    /// Whether batches animate (false for `--no-animation`; the table's own
    /// switches are honoured as well).
    package var animatesChanges = true
    /// Where errors go that should never happen (an update batch the table
    /// refused). Default: nowhere; the last one is also kept in ``lastError``.
    public var log: (String) -> Void = { _ in }
    /// The last batch the table refused, if any.
    public private(set) var lastError: Error?
    /// Called after each batch reached the table (e.g. to update a status line).
    package var didApplyChanges: (() -> Void)?
    /// Batches applied so far (tests, status).
    package private(set) var batchCount = 0

    /// Sections as `SectionInfo`, built once per batch or swap (headers ask per section).
    private var sectionCache: [SectionInfo]?

    /// Becomes the controller's delegate (which turns its change tracking on)
    /// and the table's data source, and loads the table. The controller gets
    /// ready for change sets in the background meanwhile
    /// (`startInBackground(.prepareForChanges)`), so that the first one is not slower.
    ///
    /// The controller should have performed its fetch.
    public init(
        controller: FetchedResultsController,
        tableView: TableView,
        cellForObject: @escaping (ManagedObject) -> TableCell,
        headerTitle: ((SectionInfo) -> String)? = nil
    ) {
        self.controller = controller
        self.tableView = tableView
        self.cellForObject = cellForObject
        self.headerTitle = headerTitle
        controller.delegate = self
        tableView.dataSource = self
        tableView.reloadData()
        controller.startInBackground(.prepareForChanges)
    }

    deinit {
        if controller.delegate === self { controller.delegate = nil }
    }

    // MARK: Swapping controllers

    /// Shows `newController`'s results instead (another sort, a search, a
    /// filter): the old controller stops tracking, the new one starts, and the
    /// table reloads with the selection on the same object, at the same
    /// height on screen, when the new results contain it; otherwise the first
    /// row is selected and the table scrolls to the top (the old position
    /// means nothing in other results).
    ///
    ///     try filtered.performFetch()
    ///     adapter.swap(to: filtered)
    public func swap(to newController: FetchedResultsController) {
        let selected = selectedObjectID
        if controller !== newController, controller.delegate === self { controller.delegate = nil }
        controller = newController
        newController.delegate = self
        sectionCache = nil
        // The table remembers the selected row's identity (an ObjectID) and
        // asks `indexPath(forRowIdentity:)` where it is now.
        tableView.reloadData()
        if let selected, newController.indexPath(for: selected) == nil {
            tableView.scrollOffset = 0
            tableView.selectRow(at: IndexPath(row: 0, section: 0))
        }
        newController.startInBackground(.prepareForChanges)
    }

    /// Reloads the table from the controller as it is now (after a refetch).
    package func reload() {
        sectionCache = nil
        tableView.reloadData()
    }

    // MARK: Selection helpers

    /// The ID of the selected object, if any.
    package var selectedObjectID: ObjectID? {
        tableView.selection.flatMap { controller.objectID(at: $0) }
    }

    /// The selected object, if any (loads its batch).
    package var selectedObject: ManagedObject? {
        guard let indexPath = tableView.selection else { return nil }
        return controller.existingObject(at: indexPath)
    }

    /// Selects the object with `id` when it is in the results; returns whether it was.
    @discardableResult
    public func select(_ id: ObjectID) -> Bool {
        guard let indexPath = controller.indexPath(for: id) else { return false }
        tableView.selectRow(at: indexPath)
        return true
    }

    /// The 1-based position of the selection among all rows (for a status line's `123/572`).
    package var selectedPosition: Int? {
        guard let indexPath = tableView.selection, indexPath.section < controller.numberOfSections else { return nil }
        var position = indexPath.row + 1
        for s in 0..<indexPath.section { position += controller.numberOfObjects(inSection: s) }
        return position
    }

    // MARK: TableViewDataSource

    /// The controller's section count.
    public var numberOfSections: Int { controller.numberOfSections }

    /// The controller's object count in `section` (0 out of range).
    public func numberOfRows(inSection section: Int) -> Int {
        section < controller.numberOfSections ? controller.numberOfObjects(inSection: section) : 0
    }

    /// ``cellForObject`` of the object at `indexPath` (faults in its batch); an empty cell
    /// while its row is gone (deleted by another process, the batch not processed yet).
    public func cell(forRowAt indexPath: IndexPath) -> TableCell {
        guard let object = controller.existingObject(at: indexPath) else { return TableCell(title: "") }
        return cellForObject(object)
    }

    /// ``headerTitle`` of the section, else its name (nil without a section key path).
    public func titleForHeader(inSection section: Int) -> String? {
        let sections = sectionInfos
        guard section < sections.count else { return nil }
        if let headerTitle { return headerTitle(sections[section]) }
        return controller.sectionNameKeyPath == nil ? nil : sections[section].name
    }

    /// The controller's `sectionIndexTitles` (none without a section key path).
    public func sectionIndexTitles() -> [String] {
        controller.sectionNameKeyPath == nil ? [] : controller.sectionIndexTitles
    }

    /// The controller's `section(forSectionIndexTitle:at:)`.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        controller.section(forSectionIndexTitle: title, at: index)
    }

    /// The row's `ObjectID`: the table anchors its selection on it.
    public func rowIdentity(at indexPath: IndexPath) -> AnyHashable? {
        controller.objectID(at: indexPath)
    }

    /// Where the object with that `ObjectID` is now (O(log N)), nil when it is not in the results.
    public func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath? {
        guard let id = identity.base as? ObjectID else { return nil }
        return controller.indexPath(for: id)
    }

    private var sectionInfos: [SectionInfo] {
        if let sectionCache { return sectionCache }
        let sections = controller.sections
        sectionCache = sections
        return sections
    }

    // MARK: FetchedResultsControllerDelegate

    /// Will-change: `beginUpdates()`.
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {
        guard controller === self.controller else { return }
        sectionCache = nil
        tableView.beginUpdates()
    }

    /// A section inserted or deleted: the table's section operation.
    public func controller(
        _ controller: FetchedResultsController,
        didChange section: SectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: ChangeType
    ) {
        guard controller === self.controller else { return }
        switch type {
        case .insert: tableView.insertSections(IndexSet(integer: sectionIndex))
        case .delete: tableView.deleteSections(IndexSet(integer: sectionIndex))
        case .update: tableView.reloadSections(IndexSet(integer: sectionIndex))
        case .move: break  // the controller never moves sections (they are ordered by their key)
        }
    }

    /// An object inserted, deleted, moved or updated: insert / delete / move / reload of its row
    /// (old index paths for deletes and reloads, new ones for inserts, both for moves).
    public func controller(
        _ controller: FetchedResultsController,
        didChange objectID: ObjectID,
        at indexPath: IndexPath?,
        for type: ChangeType,
        newIndexPath: IndexPath?
    ) {
        guard controller === self.controller else { return }
        switch type {
        case .insert:
            if let newIndexPath { tableView.insertRows(at: [newIndexPath]) }
        case .delete:
            if let indexPath { tableView.deleteRows(at: [indexPath]) }
        case .move:
            if let indexPath, let newIndexPath { tableView.moveRow(at: indexPath, to: newIndexPath) }
        case .update:
            if let old = indexPath ?? newIndexPath { tableView.reloadRows(at: [old]) }
        }
    }

    /// Did-change: `endUpdates(animated:)`; a refused batch is logged and the table reloaded.
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {
        guard controller === self.controller else { return }
        sectionCache = nil
        batchCount += 1
        do {
            try tableView.endUpdates(animated: animatesChanges)
        } catch {
            // Should never happen: the controller's batches obey the table's rule.
            lastError = error
            log("FetchedResultsTableAdapter: the table refused a batch; reloaded instead: \(error)")
            tableView.reloadData()
        }
        didApplyChanges?()
    }
}
