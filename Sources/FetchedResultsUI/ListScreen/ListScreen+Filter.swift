import FetchedResults
import Foundation
import SQLiteStore

extension ListScreen {
    /// Applies `predicate` (nil: none) to the current tab: a new controller, swapped in.
    ///
    ///     try screen.applyFilter(try FetchPredicate("state == 'CA'"), text: "state == 'CA'")
    package func applyFilter(_ predicate: FetchPredicate?, text: String) throws {
        let controller = makeController(for: tab, filter: predicate)
        try controller.performFetch()
        filter = predicate
        filterText = predicate == nil ? "" : text
        adapter.swap(to: controller)
    }

    func configureFilterField() {
        // Typing or pasting past the maximum is cut there; validateFilter says why.
        filterField.maximumLength = configuration.filterMaximumLength
        filterField.onChange = { [unowned self] text in
            _ = self.validateFilter(text)
        }
        filterField.onCommit = { [unowned self] text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                try? self.applyFilter(nil, text: "")
                return
            }
            guard let predicate = self.validateFilter(trimmed) else {
                self.filterField.activate(text: text)
                _ = self.validateFilter(text)
                return
            }
            do {
                try self.applyFilter(predicate, text: trimmed)
                let count = self.adapter.controller.numberOfObjects
                let noun = count == 1 ? self.tab.noun.singular : self.tab.noun.plural
                self.statusLine.showMessage("\(count) \(noun) match", at: self.now)
            } catch {
                self.filterField.activate(text: text)
                self.filterField.setError("\(error)", at: nil)
            }
        }
        filterField.onCancel = { [unowned self] in
            if self.filter != nil { try? self.applyFilter(nil, text: "") }
        }
    }

    /// Parses `text` and checks its key paths against the tab's entity; shows the
    /// error (with its position) in the filter line, or clears it.
    @discardableResult
    func validateFilter(_ text: String) -> FetchPredicate? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            filterField.clearError()
            return nil
        }
        do {
            let predicate = try FetchPredicate(text)
            _ = try store.model.sqlSource(root: tab.entity, keyPaths: predicate.keyPaths)
            filterField.clearError()
            return predicate
        } catch let error as FetchPredicateError {
            if let maximum = configuration.filterMaximumLength, text.count >= maximum {
                // Cut at the field's length: the parser's complaint (an unterminated string, a
                // missing operand) is about the cut, not about what was typed.
                filterField.setError("the filter is too long: at most \(maximum) characters", at: maximum - 1)
            } else {
                filterField.setError("\(error)", at: error.position > 0 ? error.position - 1 : nil)
            }
        } catch StoreError.unknownKeyPath(let keyPath, _) {
            let offset = text.range(of: keyPath).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
            filterField.setError(
                "unknown key path \"\(keyPath)\"\(offset.map { " (column \($0 + 1))" } ?? "")",
                at: offset
            )
        } catch {
            filterField.setError("\(error)", at: nil)
        }
        return nil
    }

    /// Esc in the list: drops the search, then the filter. Returns whether anything was cleared.
    func clearSearchAndFilter() -> Bool {
        if search != nil {
            search = nil
            return true
        }
        if filter != nil {
            do { try applyFilter(nil, text: "") } catch {
                statusLine.showMessage("\(error)", at: now, style: .error)
            }
            return true
        }
        return false
    }
}
