import Foundation

/// Observers: the part of ``ObjectContext`` that tells observers of every published change set.
extension ObjectContext {
    /// Calls `body` with each published change set (own saves, undo/redo, other processes).
    @discardableResult
    public func addObserver(_ body: @escaping (ChangeSet) -> Void) -> ObserverToken {
        let token = ObserverToken(id: nextObserverID)
        nextObserverID += 1
        observers.append((token, body))
        return token
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        observers.removeAll { $0.token == token }
    }

    func publish(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        for observer in observers { observer.body(changes) }
    }
}
