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
/// in names, user IDs and URLs — never in passwords.
///
///     let notes = StashListTab.listTab(for: .notes)
///     let configuration = ListScreenConfiguration(title: "MyStash", tabs: [notes, StashListTab.listTab(for: .passwords)])
enum StashListTab {
    /// The tab of `kind`.
    static func listTab(for kind: StashKind) -> ListTab {
        var tab = ListTab(title: kind == .notes ? "Notes" : "Passwords", entity: kind.entity,
                          sortDescriptors: [FetchSort(kind.sectionKey),
                                            FetchSort(kind.nameKey, comparison: .caseInsensitive)],
                          sectionNameKeyPath: kind.sectionKey, cell: cellMaker(for: kind))
        tab.fetchBatchSize = 40
        tab.searchKeyPaths = kind == .notes ? ["title", "body"] : ["name", "userID", "url"]
        tab.searchDescription = kind == .notes ? "titles and notes" : "names, user IDs and URLs"
        tab.noun = kind == .notes ? ("note", "notes") : ("password", "passwords")
        tab.emptyMessage = kind == .notes ? "No notes yet — press a to add one" : "No passwords yet — press a to add one"
        tab.objectName = { object in "“\(object.string(kind.nameKey) ?? "")”" }
        return tab
    }

    /// The cell of a note (title; first line of the body) or a password
    /// (name; user ID and URL — never the password).
    static func cellMaker(for kind: StashKind) -> (ManagedObject) -> TableCell {
        switch kind {
        case .notes:
            return { note in
                let body = note.string("body") ?? ""
                let firstLine = body.split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
                return TableCell(style: .subtitle, title: note.string("title") ?? "",
                                 detail: firstLine ?? "No additional text", accessory: .disclosureIndicator)
            }
        case .passwords:
            return { entry in
                var parts: [String] = []
                if let user = entry.string("userID"), !user.isEmpty { parts.append(user) }
                if let url = entry.string("url"), !url.isEmpty { parts.append(url) }
                return TableCell(style: .subtitle, title: entry.string("name") ?? "",
                                 detail: parts.isEmpty ? "••••••" : parts.joined(separator: " · "),
                                 accessory: .disclosureIndicator)
            }
        }
    }
}
