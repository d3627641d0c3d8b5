/// Work that runs once per burst of input instead of once per key.
///
/// A paste reaches the program as thousands of characters at once. The run
/// loop delivers every event that is already waiting as one burst (see
/// `TerminalRunLoop`); while it does, `coalesce` keeps only the latest action
/// of each owner and runs it when the burst ends — or before the first event
/// of the burst that is not a typed character, so Enter after a paste sees
/// the search that the pasted text asked for. Outside a burst (a test calling
/// `handle` directly) the action runs at once.
///
/// `TextField` and `TextArea` report their `onChange` this way, so a search
/// or a filter runs once per paste, not once per pasted character. A screen
/// of an app can do the same with its own reactions to keys:
///
///     func handle(_ event: InputEvent) -> EventResult {
///         guard case .character(let c) = event else { return .ignored }
///         typed.append(c)
///         InputBurst.coalesce(self) { [unowned self] in self.lookUp(self.typed) }
///         return .handled
///     }
package final class InputBurst: @unchecked Sendable {
    // @unchecked: a burst is made, bound and flushed by the run loop on its one
    // thread, and a task-local bound in synchronous code is seen only by that thread.

    /// The burst being delivered on this thread, if any.
    @TaskLocal static var current: InputBurst?

    private var pending: [(owner: ObjectIdentifier, action: () -> Void)] = []

    init() {}

    /// Runs `action` when the current burst of input has been delivered — once,
    /// however often the same `owner` asks during the burst (the last action wins)
    /// — or now, when no burst is being delivered.
    package static func coalesce(_ owner: AnyObject, _ action: @escaping () -> Void) {
        guard let burst = current else { return action() }
        let id = ObjectIdentifier(owner)
        if let index = burst.pending.firstIndex(where: { $0.owner == id }) {
            burst.pending[index].action = action
        } else {
            burst.pending.append((id, action))
        }
    }

    /// True while the run loop delivers a burst on this thread.
    package static var isDelivering: Bool { current != nil }

    /// Delivers `body`'s events as one burst, then runs what they coalesced.
    static func deliver(_ body: (InputBurst) -> Void) {
        let burst = InputBurst()
        $current.withValue(burst) { body(burst) }
        burst.flush()
    }

    /// Runs the coalesced actions, in the order their owners first asked.
    /// An action that asks again (it runs outside the burst) runs at once.
    func flush() {
        while !pending.isEmpty {
            let actions = pending
            pending.removeAll()
            InputBurst.$current.withValue(nil) {
                for entry in actions { entry.action() }
            }
        }
    }
}
