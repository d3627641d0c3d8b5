import Foundation

/// Sorts the runs of a ``RowOrderCollector`` one after the other on a thread of its own,
/// so that the copying thread only hands them over.
final class RunSorter: @unchecked Sendable {
    private let ascending: Bool
    private let nullsGreatest: Bool
    private let queue = DispatchQueue(label: "replica.run-sorter")
    private let lock = NSLock()
    private var sorted: [RowOrderCollector.Run] = []

    init(ascending: Bool, nullsGreatest: Bool) {
        self.ascending = ascending
        self.nullsGreatest = nullsGreatest
    }

    /// Sorts `run` in the background (runs keep the order they were handed over in).
    func sort(_ run: RowOrderCollector.Run) {
        guard !run.entries.isEmpty else { return }
        let slot = lock.withLock {
            sorted.append(RowOrderCollector.Run())
            return sorted.count - 1
        }
        queue.async { [ascending, nullsGreatest] in
            var entries = run.entries
            run.rest.withUnsafeBytes { rest in
                entries.sort {
                    RowOrderCollector.precedes(
                        $0,
                        $1,
                        restA: rest,
                        restB: rest,
                        ascending: ascending,
                        nullsGreatest: nullsGreatest
                    )
                }
            }
            self.lock.withLock { self.sorted[slot] = RowOrderCollector.Run(entries: entries, rest: run.rest) }
        }
    }

    /// Waits for every run handed over and returns them, sorted.
    func finish() -> [RowOrderCollector.Run] {
        queue.sync {}
        return lock.withLock {
            defer { sorted = [] }
            return sorted
        }
    }
}
