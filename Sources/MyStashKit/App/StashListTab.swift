import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// The app's two lists (Notes, Passwords) as list screen tabs.
///
/// Sorted by the section initial, then by title or name case-insensitively
/// (SQLite NOCASE), sectioned by first letter (`#` for the rest) with the
/// letters in the index on the right; `/` looks in titles and note bodies, or
/// in names, user IDs and URLs — never in passwords. Only titles and names are
/// plaintext in the file, so the search runs in memory after unlocking
/// (``Stash/objectIDs(of:matching:)``, the tab's `searchObjectIDs`), and the
/// cells are opened by the stash (a password's TOTP code, with its seconds left).
///
///     let notes = StashListTab.listTab(for: .notes, stash: stash)
///     let configuration = ListScreenConfiguration(title: "MyStash",
///                                                 tabs: [notes, StashListTab.listTab(for: .passwords, stash: stash)])
enum StashListTab {
    /// The tab of `kind`.
    static func listTab(for kind: StashKind, stash: Stash) -> ListTab {
        var tab = ListTab(
            title: kind == .notes ? "Notes" : "Passwords",
            entity: kind.entity,
            sortDescriptors: [
                FetchSort(kind.sectionKey),
                FetchSort(kind.nameKey, comparison: .caseInsensitive),
            ],
            sectionNameKeyPath: kind.sectionKey,
            cell: cellMaker(for: kind, stash: stash)
        )
        tab.fetchBatchSize = 40
        tab.searchObjectIDs = { [unowned stash] text in try stash.objectIDs(of: kind, matching: text) }
        tab.searchDescription = kind == .notes ? "titles and notes" : "names, user IDs and URLs"
        tab.noun = kind == .notes ? ("note", "notes") : ("password", "passwords")
        tab.emptyMessage =
            kind == .notes ? "No notes yet — press a to add one" : "No passwords yet — press a to add one"
        tab.objectName = { object in "“\(object.string(kind.nameKey) ?? "")”" }
        return tab
    }

    /// The cell of a note (title; first line of the body) or a password
    /// (name; user ID, URL and the TOTP code — never the password), opened by the stash.
    static func cellMaker(for kind: StashKind, stash: Stash) -> (ManagedObject) -> TableCell {
        { [unowned stash] object in
            let entry = try? stash.sealedEntry(object)
            return TableCell(
                style: .subtitle,
                title: entry?.entryName ?? object.string(kind.nameKey) ?? "",
                detail: entry.map { stash.listDetail(of: $0) } ?? stash.listDetail(of: object),
                accessory: .disclosureIndicator
            )
        }
    }
}
