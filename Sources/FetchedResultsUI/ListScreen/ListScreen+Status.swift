import Foundation

extension ListScreen {
    /// The status line's left side: the tab, the filter, the search, the hints;
    /// its right side: "Loading…" or the position.
    func updateStatusLine() {
        var parts = [tab.title]
        if let detail = configuration.statusDetail?(self) { parts.append(detail) }
        if filter != nil { parts.append("filter: \(filterText)") }
        if let search, !search.text.isEmpty { parts.append("/\(search.text)") }
        let hints = cellEdit == nil ? configuration.statusHints : ListScreen.cellEditHints
        statusLine.hints = parts.joined(separator: " · ") + "   " + hints
        statusLine.trailingText = isLoading ? "Loading…" : positionText
    }

    /// `123/572`: the selection's position and the number of objects shown.
    public var positionText: String {
        guard let adapter else { return "" }
        let total = adapter.controller.numberOfObjects
        return "\(total == 0 ? 0 : adapter.selectedPosition ?? 0)/\(total)"
    }
}
