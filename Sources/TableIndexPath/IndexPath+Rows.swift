import Foundation

// Foundation on Linux has `IndexPath` but not UIKit's `section`/`row`
// conveniences (checked with Swift 6.3: `IndexPath(row:section:)`,
// `.section`, `.row` and `.item` do not exist). They live in this one small
// module, below both the controller and the table view, and both re-export it:
// code that imports `FetchedResults` or `TerminalUI` (or both) sees one
// declaration, never two ambiguous ones.

extension IndexPath {
    /// A two-element index path `[section, row]`, as UIKit's `IndexPath(row:section:)`.
    ///
    ///     let path = IndexPath(row: 3, section: 1)
    ///     path.section   // 1
    ///     path.row       // 3
    public init(row: Int, section: Int) {
        // Grown from one index rather than made from an array: no allocation (a change set makes two per object).
        self.init(index: section)
        append(row)
    }

    /// A two-element index path `[section, item]`; the same as `init(row:section:)`.
    public init(item: Int, section: Int) {
        self.init(row: item, section: section)
    }

    /// The first index: the section of a table row.
    public var section: Int { self[0] }

    /// The second index: the row within its section.
    public var row: Int { self[1] }

    /// The second index, under its collection-view name.
    public var item: Int { self[1] }
}
