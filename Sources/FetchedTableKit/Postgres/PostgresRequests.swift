import Foundation
import TerminalUI

/// The browser's requests to the server that follow a key — opening a table of the list,
/// a delete, its undo — run one after another on a thread of their own, so that a slow,
/// stopped or unreachable server never holds a key: each answer is posted to the run
/// loop (`TerminalRunLoop.poster(_:)`), where `then` runs before the next frame.
///
///     requests.run("the delete of Ada", { try replica.delete(rowIDs: [7]) }) { result in
///         switch result { case .success(let rows): …; case .failure(let error): … }
///     }
final class PostgresRequests {
    private let queue = DispatchQueue(label: "fetchedtable server requests")
    private let loop: TerminalRunLoop
    /// What is under way (its status-line words), oldest first; empty when the server has answered all.
    private(set) var inFlight: [String] = []

    /// Requests whose answers are handled on `loop`'s thread.
    init(loop: TerminalRunLoop) { self.loop = loop }

    /// Runs `work` on the requests' thread (after the requests before it); `then` gets its
    /// result on the run loop's thread. `what` names it while it runs ("the delete of Ada").
    /// What `work` returns is handed over, not shared: the thread never touches it again.
    func run<T>(
        _ what: String,
        _ work: @escaping @Sendable () throws -> sending T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        inFlight.append(what)
        let answer = loop.poster { [weak self] (result: Result<T, any Error>) in
            self?.inFlight.removeFirst()
            then(result)
        }
        queue.async {
            do {
                answer(.success(try work()))
            } catch {
                answer(.failure(error))
            }
        }
    }
}
