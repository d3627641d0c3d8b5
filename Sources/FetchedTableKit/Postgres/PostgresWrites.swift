import Foundation
import TerminalUI

/// The browser's writes to the server — deletes and their undos — run one after another
/// on a thread of their own, so that a slow, stopped or unreachable server never holds
/// a key: each answer is handed back to the run loop's thread, where `then` runs.
///
///     writes.run({ try replica.delete(rowIDs: [7]) }) { result in
///         switch result { case .success(let rows): …; case .failure(let error): … }
///     }
final class PostgresWrites {
    /// What the writing thread hands to the run loop's thread.
    private final class Answers: @unchecked Sendable {
        let lock = NSLock()
        var ready: [() -> Void] = []
    }
    private let answers = Answers()
    private let queue = DispatchQueue(label: "fetchedtable server writes")
    private let loop: TerminalRunLoop
    private var ticker: TerminalRunLoop.TickerID?
    /// What is being written (its status-line words), oldest first; empty when the server has answered all.
    private(set) var inFlight: [String] = []

    /// Writes whose answers are handled on `loop`'s thread.
    init(loop: TerminalRunLoop) { self.loop = loop }

    /// Runs `work` on the writing thread (after the writes before it); `then` gets its
    /// result on the run loop's thread. `what` names it while it runs ("the delete of Ada").
    func run<T: Sendable>(
        _ what: String,
        _ work: @escaping @Sendable () throws -> T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        inFlight.append(what)
        let answers = self.answers
        let box = UnsafeTransfer(then)
        queue.async {
            let result = Result { try work() }
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
