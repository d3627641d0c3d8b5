import Foundation
import TerminalUI

extension ListScreen {
    /// The keys of ``ListScreenKeys``: the search or filter line while open; the
    /// table while its Delete button shows or an index jump is typed; then the
    /// app's ``ListKeyBinding``s, the table's own keys and the screen's. `q`, `?`
    /// and F1 fall through to the run loop (quit, help).
    public func handle(_ event: InputEvent) -> EventResult {
        // The provisional page is not the results: nothing acts on it (q falls through and quits).
        // Keys typed while the fetch runs in the background wait for the results, as keys wait
        // in the terminal while it runs on this thread.
        if isLoading {
            let now: Set<InputEvent> = [.character("q"), .character("?"), .function(1), .escape]
            if let kept = loading?.keys.count, !now.contains(event), kept < ListScreen.maximumKeysKept {
                loading?.keys.append(event)
                return .handled
            }
            return .ignored
        }
        if cellEdit != nil { return handleCellEditKey(event) }
        if searchField.isActive {
            _ = searchField.handle(event)
            return .handled
        }
        if filterField.isActive {
            _ = filterField.handle(event)
            return .handled
        }
        if handleSaveFieldKey(event) { return .handled }
        if case .resize = event { return .ignored }
        if table.editingIndexPath != nil || table.indexSearchText != nil {
            return table.handle(event) ? .handled : .ignored
        }
        if case .mouseClick(_, let y) = event, y == 1, configuration.showsTabBar {
            _ = tabBar.handle(event)
            return .handled
        }
        if handleGridKey(event) { return .handled }
        if let binding = configuration.keyBindings.first(where: { $0.events.contains(event) }) {
            binding.action(self)
            return .handled
        }
        if table.handle(event) { return .handled }
        switch event {
        case .tab, .backTab:
            _ = tabBar.handle(event)
            return .handled
        case .character(let c) where c.wholeNumberValue.map({ (1...configuration.tabs.count).contains($0) }) == true:
            _ = tabBar.handle(event)
            return .handled
        case .character("/"):
            beginSearch()
            return .handled
        case .character("\\"):
            filterField.activate(text: filterText)
            filterField.trailingText = nil
            return .handled
        case .control("s"):
            beginSavingView()
            return .handled
        case .character("n"):
            findNext(forward: true)
            return .handled
        case .character("N"):
            findNext(forward: false)
            return .handled
        case .character("u"):
            undo()
            return .handled
        case .control("r") where configuration.allowsCellEdits:
            redo()
            return .handled
        case .character("e") where configuration.allowsCellEdits:
            beginCellEdit()
            return .handled
        case .escape, .left:
            return clearSearchAndFilter() ? .handled : .ignored
        default:
            return .ignored  // q quits, ? and F1 open the help: the run loop's fallback
        }
    }
}
