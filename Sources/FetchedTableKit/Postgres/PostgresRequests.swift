import Foundation
import TerminalUI

/// The browser's requests to the server that follow a key — opening a table of the list,
/// a delete, its undo — run one after another on a thread of their own, so that a slow,
/// stopped or unreachable server never holds a key: each answer is handed back to the run
/// loop's thread, where `then` runs.
///
///     requests.run({ try replica.delete(rowIDs: [7]) }) { result in
///         switch result { case .success(let rows): …; case .failure(let error): … }
///     }
final class PostgresRequests {
    /// What the writing thread hands to the run loop's thread.
    private final class Answers: @unchecked Sendable {
        let lock = NSLock()
        var ready: [() -> Void] = []
    }
    private let answers = Answers()
    private let queue = DispatchQueue(label: "fetchedtable server requests")
    private let loop: TerminalRunLoop
    private var ticker: TerminalRunLoop.TickerID?
    /// What is under way (its status-line words), oldest first; empty when the server has answered all.
    private(set) var inFlight: [String] = []

    /// Requests whose answers are handled on `loop`'s thread.
    init(loop: TerminalRunLoop) { self.loop = loop }

    /// Runs `work` on the requests' thread (after the requests before it); `then` gets its
    /// result on the run loop's thread. `what` names it while it runs ("the delete of Ada").
    /// What `work` returns is handed over, not shared: the thread never touches it again.
    func run<T>(
        _ what: String,
        _ work: @escaping @Sendable () throws -> T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        inFlight.append(what)
        let answers = self.answers
        let box = UnsafeTransfer(then)
        queue.async {
            let result = Result<T, any Error> { try work() }
            let answer = UnsafeTransfer(result)
            answers.lock.withLock { answers.ready.append { box.value(answer.value) } }
        }
        if ticker == nil { ticker = loop.addTicker(every: 0.05) { [weak self] _ in self?.deliver() } }
    }

    /// Runs the answers that arrived, in order; stops looking once none is awaited.
    private func deliver() {
        let ready = answers.lock.withLock {
            defer { answers.ready = [] }
            return answers.ready
        }
        for answer in ready {
            inFlight.removeFirst()
            answer()
        }
        if inFlight.isEmpty, let ticker {
            loop.removeTicker(ticker)
            self.ticker = nil
        }
    }
}

/// A value carried to another thread and back where the compiler cannot see that only one
/// thread touches it at a time (the answer's closure runs on the run loop's thread only).
private struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
