import Foundation

// Foundation on Linux has `IndexPath` but not UIKit's `section`/`row`
// conveniences (checked with Swift 6.3: `IndexPath(row:section:)`,
// `.section`, `.row` and `.item` do not exist), so the table view adds them.

extension IndexPath {
    /// A two-element index path `[section, row]`, as UIKit's `IndexPath(row:section:)`.
    ///
    ///     let path = IndexPath(row: 3, section: 1)
    ///     path.section   // 1
    ///     path.row       // 3
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// A two-element index path `[section, item]`; the same as `init(row:section:)`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The first index: the section of a table row.
    public var section: Int { self[0] }

    /// The second index: the row within its section.
    public var row: Int { self[1] }

    /// The second index, under its collection-view name.
    public var item: Int { self[1] }
}
