import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

extension ListScreen {
    func configureSearchField() {
        searchField.onChange = { [unowned self] text in self.searchSoon(text) }
        searchField.onCommit = { [unowned self] text in
            self.runPendingSearch()
            if text.isEmpty { self.search = nil }
            self.searchField.trailingText = nil
        }
        searchField.onCancel = { [unowned self] in
            self.pendingSearchText = nil
            self.search = nil
            if let origin = self.searchOrigin { self.adapter.select(origin) }
            self.searchField.trailingText = nil
        }
    }

    func beginSearch() {
        searchOrigin = adapter.selectedObjectID
        searchField.activate()
        searchField.trailingText = nil
        search = nil
    }

    /// An edit of the search text: searched right after the next frame, once for
    /// all the edits made before it (a burst of keys, a paste), not once per key.
    func searchSoon(_ text: String) {
        let scheduled = pendingSearchText != nil
        pendingSearchText = text
        guard !scheduled else { return }
        loop.afterNextFrame { [weak self] in self?.runPendingSearch() }
    }

    /// Runs the search typed but not yet searched, if any.
    func runPendingSearch() {
        guard let text = pendingSearchText else { return }
        pendingSearchText = nil
        searchAsYouType(text)
    }

    /// The first match at or after where the search began.
    func searchAsYouType(_ text: String) {
        guard !text.isEmpty else {
            search = nil
            searchField.trailingText = nil
            if let origin = searchOrigin { adapter.select(origin) }
            return
        }
        let controller = adapter.controller
        // A text that extends one without matches in the same results has none either: no query.
        if let search, search.count == 0, text.hasPrefix(search.text),
            search.key == ListSearch.Key(controller: ObjectIdentifier(controller), batch: adapter.batchCount)
        {
            searchField.trailingText = "no match"
            return
        }
        guard let newSearch = makeSearch(text) else { return }
        search = newSearch
        let start = searchOrigin.flatMap { controller.position(ofObject: $0) } ?? 0
        if let found = newSearch.match(in: controller, from: start, forward: true) {
            table.selectRow(at: controller.indexPath(atPosition: found.position))
            searchField.trailingText = "\(found.ordinal) of \(newSearch.count)"
        } else {
            searchField.trailingText = "no match"
        }
    }

    /// A search for `text` over the shown results; nil (with the reason on the
    /// search line or the status line) when the tab cannot be searched.
    func makeSearch(_ text: String) -> ListSearch? {
        searchCount += 1
        let key = ListSearch.Key(controller: ObjectIdentifier(adapter.controller), batch: adapter.batchCount)
        do {
            if let searchObjectIDs = tab.searchObjectIDs {
                return ListSearch(text: text, matching: try searchObjectIDs(text), in: adapter.controller, key: key)
            }
            let predicate = try showsGrid ? gridSearchPredicate(text) : tab.predicate(forSearch: text)
            guard let predicate else {
                searchField.trailingText = "cannot search"
                return nil
            }
            return try ListSearch(
                text: text,
                predicate: predicate,
                tab: tab,
                filter: filter,
                context: context,
                key: key
            )
        } catch {
            searchField.trailingText = "error"
            statusLine.showMessage("Search failed: \(error)", at: now, style: .error)
            return nil
        }
    }

    /// `n` / `N`: the next or previous match after the selection, wrapping.
    func findNext(forward: Bool) {
        guard var current = search, !current.text.isEmpty else {
            statusLine.showMessage("No search: press / to search \(tab.searchDescription)", at: now)
            return
        }
        let controller = adapter.controller
        let key = ListSearch.Key(controller: ObjectIdentifier(controller), batch: adapter.batchCount)
        if current.key != key {  // the results changed since: search them again
            guard let fresh = makeSearch(current.text) else { return }
            current = fresh
            search = fresh
        }
        let here =
            table.selection.flatMap { controller.objectID(at: $0) }.flatMap { controller.position(ofObject: $0) }
            ?? (forward ? -1 : 0)
        guard controller.numberOfObjects > 0,
            let found = current.match(in: controller, from: here + (forward ? 1 : -1), forward: forward)
        else {
            statusLine.showMessage("No \(tab.noun.singular) matches \"\(current.text)\"", at: now)
            return
        }
        table.selectRow(at: controller.indexPath(atPosition: found.position))
        var message = "/\(current.text): \(found.ordinal) of \(current.count)"
        if forward, found.position <= here { message += " (wrapped to the top)" }
        if !forward, found.position >= here { message += " (wrapped to the bottom)" }
        statusLine.showMessage(message, at: now)
    }
}
