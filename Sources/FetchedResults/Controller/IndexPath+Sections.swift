import Foundation

// Foundation on Linux has no `section`/`item` on IndexPath. These are internal
// on purpose: TerminalUI declares public ones, and two public declarations
// would make every file importing both modules ambiguous.
extension IndexPath {
    init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    var section: Int { self[0] }
    var item: Int { self[1] }
}
