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
        var tab =
            kind == .notes
            ? recordTab(of: NoteRecord.self, kind: kind, stash: stash)
            : recordTab(of: PasswordRecord.self, kind: kind, stash: stash)
        tab.fetchBatchSize = 40
        tab.searchObjectIDs = { [unowned stash] text in try stash.objectIDs(of: kind, matching: text) }
        tab.searchDescription = kind == .notes ? "titles and notes" : "names, user IDs and URLs"
        tab.noun = kind == .notes ? ("note", "notes") : ("password", "passwords")
        tab.emptyMessage =
            kind == .notes ? "No notes yet — press a to add one" : "No passwords yet — press a to add one"
        return tab
    }

    /// The tab listing `Entry`s: each row drawn from the record of the row (decoded only for the
    /// rows drawn), a note's title and the first line of its body, or a password entry's name
    /// and its user ID, URL and TOTP code — never the password — opened by the stash.
    private static func recordTab<Entry: SealedEntry>(of type: Entry.Type, kind: StashKind, stash: Stash) -> ListTab {
        ListTab(
            title: kind == .notes ? "Notes" : "Passwords",
            records: Entry.self,
            sortDescriptors: [
                FetchSort(kind.sectionKey),
                FetchSort(kind.nameKey, comparison: .caseInsensitive),
            ],
            sectionNameKeyPath: kind.sectionKey,
            name: { entry in "“\(entry.entryName)”" }
        ) { [unowned stash] entry in
            TableCell(
                style: .subtitle,
                title: entry.entryName,
                detail: stash.listDetail(of: entry),
                accessory: .disclosureIndicator
            )
        }
    }
}
