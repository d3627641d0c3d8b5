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
    ///     let placeholder = ObjectContext(store: try Store(path: ":memory:", model: model))
    ///     try list.show(context: placeholder, readOnlyReason: nil)    // lets go of the old store
    ///     oldStore.prepareForReopening()
    ///     let reopened = try Store(path: path, model: model)
    ///     try list.show(context: ObjectContext(store: reopened), readOnlyReason: nil)
    ///
    /// - Throws: the new fetch's error; the list then still shows the old context.
    public func show(context newContext: ObjectContext, readOnlyReason: String?) throws {
        let controller = tab.makeController(context: newContext, filter: filter,
                                            cacheDirectory: configuration.cacheDirectory)
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
        if !isLoading, let adapter {
            adapter.swap(to: controller)
        } else {
            adapter = FetchedResultsTableAdapter(controller: controller, tableView: table, cellForObject: tab.cell,
                                                 headerTitle: tab.headerTitle)
            adapter.animatesChanges = configuration.animated
            adapter.log = { [unowned self] message in self.log.append(message) }
            preview = nil
            isLoading = false
        }
        table.scrollOffset = 0
        table.selectRow(at: IndexPath(row: 0, section: 0))
        tabsToWarm = configuration.tabs.indices.filter { $0 != tabIndex && configuration.tabs[$0].cacheName != nil }
    }
}
