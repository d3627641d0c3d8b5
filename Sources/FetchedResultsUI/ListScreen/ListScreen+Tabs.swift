import FetchedResults
import Foundation
import SQLiteStore

extension ListScreen {
    /// Shows tab `index`'s order and sections (with the filter in force); the
    /// selection stays on the same object, or returns to the one last selected there.
    /// The search stays: `n` finds its next match in the new order. The filter
    /// stays too, unless the new tab lists another entity (then it is dropped).
    ///
    ///     screen.switchTab(to: 1)   // Tab, Shift-Tab, 1…9 and a click on the tab bar do this
    package func switchTab(to index: Int) {
        guard index != tabIndex, configuration.tabs.indices.contains(index), !isLoading else { return }
        let newTab = configuration.tabs[index]
        let keepsFilter = newTab.entity == tab.entity
        do {
            let controller = makeController(for: newTab, filter: keepsFilter ? filter : nil)
            try controller.performFetch()
            if !keepsFilter {
                filter = nil
                filterText = ""
            }
            let selected = adapter.selectedObjectID
            if let selected { selectionByTab[tabIndex] = selected }
            let keepsSelection = selected.map { controller.indexPath(for: $0) != nil } ?? false
            saveGridState()
            tabIndex = index
            applyTabLayout(restoresCursor: true)
            adapter.headerTitle = newTab.headerTitle
            table.emptyMessage = newTab.emptyMessage ?? "No \(newTab.noun.plural)"
            adapter.swap(to: controller)
            if !keepsSelection, let remembered = selectionByTab[index] { adapter.select(remembered) }
        } catch {
            statusLine.showMessage("Could not sort by \(newTab.title.lowercased()): \(error)", at: now, style: .error)
        }
        tabBar.selectedIndex = tabIndex
    }

    /// Fills the next other tab's results cache on the store's second connection
    /// (one at a time; retried on the next tick while that connection is busy).
    /// Called from the polling ticker once the first tab has loaded: nothing is installed
    /// when a warming ends, so nothing waits for its result.
    package func warmNextTab() {
        while let next = tabsToWarm.first {
            if next == tabIndex {
                tabsToWarm.removeFirst()
                continue
            }
            let controller = configuration.tabs[next].makeController(
                context: context,
                filter: nil,
                cacheDirectory: configuration.cacheDirectory
            )
            let start = controller.startInBackground(.warmCache)
            if start == .busy { return }
            tabsToWarm.removeFirst()
            if start == .started { return }
        }
    }

    // MARK: Live changes

    /// Picks up other processes' writes (the controller animates them through the
    /// adapter; after a reset with ``ListTab/refetchesInBackgroundOnReset``, the refetch
    /// runs in the background and comes back by itself), and warms the next tab's cache.
    /// The polling ticker calls it: a poll of the store for other processes' changes, never
    /// for a result of the screen's own work.
    package func pollExternalChanges() {
        // While another program's lock is waited for (off this thread), the wait polls when it goes.
        guard !isLoading, lockWait == nil else { return }
        if let willPoll = configuration.willPoll, !willPoll(self) { return }
        if configuration.reopenReplacedStore != nil, store.fileAtPath() == .replaced {
            followReplacedStore()
            return
        }
        warmNextTab()
        do {
            try context.processExternalChanges()
            pollFailures = 0
        } catch let error where isLockedOut(error) {
            waitForLock(forWriting: false)
        } catch {
            pollFailures += 1
            // A busy store is retried on the next tick; say so only when it persists.
            if pollFailures == 10 {
                log.append("processExternalChanges: \(error)")
                statusLine.showMessage("Cannot read changes: \(error)", at: now, style: .error)
            }
        }
    }
}
