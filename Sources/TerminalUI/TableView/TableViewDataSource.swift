import Foundation

/// Supplies a `TableView` with its sections, rows and index, in UIKit's shape.
///
/// The table asks for counts, header titles and index titles when it loads
/// (`reloadData()`, `endUpdates()`): O(sections), never O(rows). It asks for
/// cells only for the rows it draws in a frame, so a million-row source costs
/// what a ten-row one does.
///
///     final class Books: TableViewDataSource {
///         var years: [(title: String, books: [String])] = []
///         var numberOfSections: Int { years.count }
///         func numberOfRows(inSection section: Int) -> Int { years[section].books.count }
///         func cell(forRowAt indexPath: IndexPath) -> TableCell {
///             TableCell(style: .value1, title: years[indexPath.section].books[indexPath.row])
///         }
///         func titleForHeader(inSection section: Int) -> String? { years[section].title }
///         func sectionIndexTitles() -> [String] { years.map(\.title) }
///     }
///     tableView.dataSource = books   // weak, as in UIKit: keep `books` alive yourself
public protocol TableViewDataSource: AnyObject {
    /// Number of sections (0 for an empty table).
    var numberOfSections: Int { get }
    /// Number of rows in `section`.
    func numberOfRows(inSection section: Int) -> Int
    /// The content of a visible row. Called only while drawing, only for visible rows.
    func cell(forRowAt indexPath: IndexPath) -> TableCell
    /// The sticky header's title; `nil` draws no header line for the section.
    /// Default: `nil`.
    func titleForHeader(inSection section: Int) -> String?
    /// Titles of the index sidebar, top to bottom (e.g. years). Default: none (no sidebar).
    func sectionIndexTitles() -> [String]
    /// The section to jump to for the index title `title` at position `index`
    /// of `sectionIndexTitles()`. Default: `index`, clamped to the sections.
    func section(forSectionIndexTitle title: String, at index: Int) -> Int
    /// A stable identity of the object shown in a row (e.g. its object ID),
    /// used to keep the selection on the same object across `reloadData()`.
    /// Default: `nil` (the selection keeps its index path, clamped).
    func rowIdentity(at indexPath: IndexPath) -> AnyHashable?
    /// Where the object with `identity` is now, if the source can tell cheaply
    /// (a fetched-results controller's `indexPath(for:)`). Default: `nil`, and
    /// the table searches a few rows around the old position instead.
    func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath?
}

extension TableViewDataSource {
    public func titleForHeader(inSection section: Int) -> String? { nil }
    public func sectionIndexTitles() -> [String] { [] }
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        max(0, min(index, numberOfSections - 1))
    }
    public func rowIdentity(at indexPath: IndexPath) -> AnyHashable? { nil }
    public func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath? { nil }
}
