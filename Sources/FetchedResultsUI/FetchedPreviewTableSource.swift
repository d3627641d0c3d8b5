import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// A table's data source for a controller's provisional first page
/// (`FetchedResultsController.previewFirstObjects(limit:)`), shown while its full
/// fetch has not run yet; a ``FetchedResultsTableAdapter`` takes over afterwards.
///
/// The rows are grouped by their section names, in order. Section sizes are not
/// known yet, so headers get only the name (``headerTitle`` decides what to show,
/// e.g. "2025 (…)"), and there is no section index. Rows are identified by their
/// `ObjectID`, as the adapter's are, so the table keeps the selection on the same
/// object when the adapter replaces this source.
///
/// The objects are loaded once, in `init`, with one query.
///
///     let rows = try controller.previewFirstObjects(limit: screen.height)
///     let preview = try FetchedPreviewTableSource(
///         rows: rows, context: context, isSectioned: controller.sectionNameKeyPath != nil,
///         cellForObject: { book in TableCell(style: .subtitle, title: book.string("name") ?? "") },
///         headerTitle: { name in "\(name) (…)" })
///     table.dataSource = preview                    // weak: keep `preview` alive
///     loop.afterNextFrame {
///         try? controller.performFetch()
///         adapter = FetchedResultsTableAdapter(controller: controller, tableView: table, cellForObject: …)
///     }
package final class FetchedPreviewTableSource: TableViewDataSource {
    /// The rows shown, in order.
    package let rows: [FetchedPreviewRow]
    /// Whether the rows are shown in sections with headers (the controller has a section key path).
    package let isSectioned: Bool
    /// Makes the cell of an object (as ``FetchedResultsTableAdapter/cellForObject`` does).
    package var cellForObject: (ManagedObject) -> TableCell
    /// The header of a section, given its name; nil shows the name itself.
    package var headerTitle: ((String) -> String)?

    private struct Section {
        var name: String
        var start: Int
        var count: Int
    }

    private let sections: [Section]
    private let objects: [ObjectID: ManagedObject]
    private let indexPaths: [ObjectID: IndexPath]

    /// Groups `rows` into sections and loads their objects from `context`.
    ///
    /// - Throws: the store's error when the objects cannot be read.
    package init(
        rows: [FetchedPreviewRow],
        context: ObjectContext,
        isSectioned: Bool,
        cellForObject: @escaping (ManagedObject) -> TableCell,
        headerTitle: ((String) -> String)? = nil
    ) throws {
        self.rows = rows
        self.isSectioned = isSectioned
        self.cellForObject = cellForObject
        self.headerTitle = headerTitle
        var sections: [Section] = []
        var indexPaths: [ObjectID: IndexPath] = [:]
        for (position, row) in rows.enumerated() {
            if sections.isEmpty || (isSectioned && sections[sections.count - 1].name != row.sectionName) {
                sections.append(Section(name: row.sectionName, start: position, count: 0))
            }
            indexPaths[row.objectID] = IndexPath(row: sections[sections.count - 1].count, section: sections.count - 1)
            sections[sections.count - 1].count += 1
        }
        self.sections = sections
        self.indexPaths = indexPaths
        var objects: [ObjectID: ManagedObject] = [:]
        for object in try context.objects(with: rows.map(\.objectID)) { objects[object.objectID] = object }
        self.objects = objects
    }

    // MARK: TableViewDataSource

    /// One section per run of equal section names (one in all without sections; none without rows).
    package var numberOfSections: Int { sections.count }

    package func numberOfRows(inSection section: Int) -> Int {
        section >= 0 && section < sections.count ? sections[section].count : 0
    }

    /// ``cellForObject`` of the row's object; an empty cell when the object is gone.
    package func cell(forRowAt indexPath: IndexPath) -> TableCell {
        guard indexPath.section >= 0, indexPath.section < sections.count,
            indexPath.row >= 0, indexPath.row < sections[indexPath.section].count,
            let object = objects[rows[sections[indexPath.section].start + indexPath.row].objectID]
        else {
            return TableCell(title: "")
        }
        return cellForObject(object)
    }

    /// ``headerTitle`` of the section's name, else the name (nil without sections).
    package func titleForHeader(inSection section: Int) -> String? {
        guard isSectioned, section >= 0, section < sections.count else { return nil }
        let name = sections[section].name
        return headerTitle?(name) ?? name
    }

    /// The row's `ObjectID`.
    package func rowIdentity(at indexPath: IndexPath) -> AnyHashable? {
        guard indexPath.section >= 0, indexPath.section < sections.count,
            indexPath.row >= 0, indexPath.row < sections[indexPath.section].count
        else { return nil }
        return rows[sections[indexPath.section].start + indexPath.row].objectID
    }

    /// Where the object with that `ObjectID` is among the preview rows.
    package func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath? {
        (identity.base as? ObjectID).flatMap { indexPaths[$0] }
    }
}
