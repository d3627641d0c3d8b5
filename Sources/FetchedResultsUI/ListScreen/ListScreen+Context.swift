import FetchedResults
import Foundation
import SQLiteStore

extension ListScreen {
    /// Shows the objects of `newContext` instead (another store: the file now at
    /// the store's path after another was renamed over it), on the same tab and
    /// filter, from the top. What belonged to the old context goes: screens pushed
    /// above the list, the search, the remembered selections, the background warming
    /// (started again for the new store). The old context's controllers are let go,
    /// so the old store can close once the app drops it too.
    ///
    ///     oldStore.prepareForReopening()
    ///     let reopened = try Store(path: other, model: model)
    ///     try list.show(context: ObjectContext(store: reopened), readOnlyReason: nil)
    ///
    /// - Throws: the new fetch's error; the list then still shows the old context.
    public func show(context newContext: ObjectContext, readOnlyReason: String?) throws {
        let controller = makeController(for: tab, context: newContext, filter: filter)
        try controller.performFetch()
        while let top = loop.topView, top !== self { loop.pop() }
        searchField.deactivate()
        filterField.deactivate()
        search = nil
        pendingSearchText = nil
        searchOrigin = nil
        selectionByTab = [:]
        context = newContext
        configuration.readOnlyReason = readOnlyReason
        applyLockPolicy()
        if !isLoading, let adapter {
            adapter.swap(to: controller)
        } else {
            install(controller)
            // The controller fetching the old store in the background goes, and the keys kept for it.
            loading = nil
            preview = nil
            isLoading = false
        }
        table.scrollOffset = 0
        table.selectRow(at: IndexPath(row: 0, section: 0))
        tabsToWarm = configuration.tabs.indices.filter { $0 != tabIndex && configuration.tabs[$0].cacheName != nil }
    }

    /// Lets go of everything over the store — the adapter and its controller, the screens
    /// pushed above, the search, the context (an empty stand-in takes its place) — so that the
    /// store can close before its path is opened again: the table is empty and "Loading…" until
    /// ``show(context:readOnlyReason:)``. (A stand-in of the store's own model would not do: a
    /// model over another program's tables opens only over a file that has them.)
    private func letGoOfStore() throws {
        while let top = loop.topView, top !== self { loop.pop() }
        adapter?.controller.cancelBackgroundWork()
        adapter = nil
        table.dataSource = nil
        loading = nil
        preview = nil
        isLoading = true
        search = nil
        tabsToWarm = []
        let empty = Model(version: 1, applicationID: 0, entities: [])
        context = ObjectContext(store: try Store(path: ":memory:", model: empty))
    }

    /// Another file was renamed over the store's path: shows the file now there
    /// (``ListScreenConfiguration/reopenReplacedStore`` opens it), on the same tab
    /// and filter, from the top, and says so in the status line; the undo stack, the
    /// search and pushed screens belonged to the old file and go. When the new file
    /// cannot be browsed the screen quits with ``loadError`` set to the refusal:
    /// nothing of the old file is shown or written after its replacement.
    ///
    /// The old store is let go before the path is opened again (the two files would
    /// share the `-wal` and `-shm` files named after the path: `Store.prepareForReopening()`),
    /// so the screen must be its only holder besides the app's reopen closure.
    /// The polling ticker calls it when ``ListScreenConfiguration/reopenReplacedStore`` is set.
    ///
    ///     if store.fileAtPath() == .replaced { list.followReplacedStore() }
    public func followReplacedStore() {
        guard let reopen = configuration.reopenReplacedStore else { return }
        let path = store.path
        let model = store.model
        store.prepareForReopening()
        do {
            try letGoOfStore()
            let reopened = try reopen(path, model)
            try show(context: ObjectContext(store: reopened.store), readOnlyReason: reopened.readOnlyReason)
            statusLine.showMessage("The store file was replaced: showing the file now at \(path)", at: now, duration: 8)
        } catch {
            loadError = error
            log.append("reopening the replaced store: \(error)")
            loop.quit()
        }
    }
}
