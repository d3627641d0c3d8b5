import Dispatch
import Synchronization

/// The one thread-safe way into a ``TerminalRunLoop``: closures posted from any thread,
/// run on the loop's thread before its next frame.
///
/// A post appends to a queue and wakes the loop's backend (``Backend/waker``: the
/// ncurses backend's self-pipe), so a loop blocked waiting for a key returns at once,
/// runs what was posted, and draws — in the same iteration. ``MemoryBackend`` never
/// blocks; a test drains the queue itself (``TerminalRunLoop/runPosted(waitingUpTo:)``,
/// ``TestTerminal/press(_:)``). Every loop has one (``TerminalRunLoop/mailbox``); it is
/// `Sendable`, so a worker thread keeps it where it could not keep the loop.
///
/// Closures posted here are `@Sendable`: they cannot capture the views. To reach a view
/// from another thread, make the closure on the loop's thread with the loop's `poster(_:)`,
/// or hand the work to ``TerminalRunLoop/perform(_:then:)``.
///
///     let mailbox = loop.mailbox
///     DispatchQueue.global().async {
///         let sum = (1...1_000).reduce(0, +)
///         mailbox.post { print("on the loop's thread: \(sum)") }
///     }
public final class RunLoopMailbox: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once per post, for ``wait(timeout:)``.
    private let arrivals = DispatchSemaphore(value: 0)
    private let wake: (@Sendable () -> Void)?

    /// A mailbox that calls `wake` (from the posting thread) after each post.
    init(wake: (@Sendable () -> Void)?) {
        self.wake = wake
    }

    /// Queues `body` to run on the loop's thread, after what was posted before it, and
    /// wakes the loop. Safe from any thread, and from the loop's own (then `body` runs in
    /// the loop's next iteration, not now).
    public func post(_ body: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(body) }
        arrivals.signal()
        wake?()
    }

    /// True while nothing waits to run.
    var isEmpty: Bool { queue.withLock { $0.isEmpty } }

    /// What was posted so far, oldest first; the queue is then empty.
    func take() -> [@Sendable () -> Void] {
        queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    /// Waits up to `timeout` seconds until something waits to run; false if nothing did.
    func wait(timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(max(0, timeout) * 1e9))
        while isEmpty {
            // One signal per post: a signal whose post was already taken only loops once more.
            if arrivals.wait(timeout: deadline) == .timedOut { return !isEmpty }
        }
        return true
    }
}

/// A value owned by the loop's thread, carried through a `@Sendable` closure: only closures
/// the loop runs (``RunLoopMailbox/take()``'s) touch it.
final class LoopOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A value made on one thread and handed to another, never touched again where it was made
/// (a `sending` value: the compiler has checked that nothing else holds it).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
}
