import Foundation

/// Merges the sorted runs of a ``RowOrderCollector`` into one ``ReplicaRowOrder``: a heap of
/// the runs' next rows, each row written once into arrays sized in advance.
struct RunMerge {
    let runs: [RowOrderCollector.Run]
    let ascending: Bool
    let nullsGreatest: Bool

    func order(column: String) -> ReplicaRowOrder {
        let count = runs.reduce(0) { $0 + $1.entries.count }
        var textCount = 0
        for run in runs {
            for entry in run.entries where entry.length != .max { textCount += Int(entry.length) }
        }
        var ids = [Int64](repeating: 0, count: count)
        var offsets = [UInt32](repeating: 0, count: count + 1)
        var isNull = [Bool](repeating: false, count: count)
        var text = [UInt8](repeating: 0, count: textCount)
        withUnsafeRuns { entries, rest in
            var heap = RunHeap(entries: entries, rest: rest, ascending: ascending, nullsGreatest: nullsGreatest)
            var written = 0
            ids.withUnsafeMutableBufferPointer { ids in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    isNull.withUnsafeMutableBufferPointer { isNull in
                        text.withUnsafeMutableBytes { output in
                            var row = 0
                            while let (entry, run) = heap.pop() {
                                ids[row] = entry.id
                                offsets[row] = UInt32(written)
                                if entry.length == .max {
                                    isNull[row] = true
                                } else {
                                    written += RunMerge.write(entry, rest: rest[run], to: output, at: written)
                                }
                                row += 1
                            }
                            offsets[row] = UInt32(written)
                        }
                    }
                }
            }
        }
        return ReplicaRowOrder(
            column: column,
            ascending: ascending,
            ids: ids,
            text: text,
            offsets: offsets,
            isNull: isNull,
            nullsGreatest: nullsGreatest
        )
    }

    // MARK: Steps

    /// Writes `entry`'s whole text (its prefix's bytes, then the rest from its run's arena) at `at`; returns its length.
    private static func write(
        _ entry: RowOrderCollector.Entry,
        rest: UnsafeRawBufferPointer,
        to output: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int {
        let length = Int(entry.length)
        withUnsafeBytes(of: (entry.prefix.0.bigEndian, entry.prefix.1.bigEndian, entry.prefix.2.bigEndian)) { prefix in
            let count = min(length, RowOrderCollector.prefixLength)
            output.baseAddress!.advanced(by: offset).copyMemory(from: prefix.baseAddress!, byteCount: count)
        }
        if length > RowOrderCollector.prefixLength {
            output.baseAddress!.advanced(by: offset + RowOrderCollector.prefixLength).copyMemory(
                from: rest.baseAddress!.advanced(by: Int(entry.start)),
                byteCount: length - RowOrderCollector.prefixLength
            )
        }
        return length
    }

    /// Calls `body` with every run's entries and arena (valid while it runs).
    private func withUnsafeRuns<Result>(
        _ body: ([UnsafeBufferPointer<RowOrderCollector.Entry>], [UnsafeRawBufferPointer]) -> Result
    ) -> Result {
        var entries: [UnsafeBufferPointer<RowOrderCollector.Entry>] = []
        var rests: [UnsafeRawBufferPointer] = []
        func nest(_ index: Int) -> Result {
            guard index < runs.count else { return body(entries, rests) }
            return runs[index].entries.withUnsafeBufferPointer { run in
                runs[index].rest.withUnsafeBytes { rest in
                    entries.append(run)
                    rests.append(rest)
                    return nest(index + 1)
                }
            }
        }
        return nest(0)
    }
}

/// The next row of each run, the first in the order on top.
private struct RunHeap {
    let entries: [UnsafeBufferPointer<RowOrderCollector.Entry>]
    let rest: [UnsafeRawBufferPointer]
    let ascending: Bool
    let nullsGreatest: Bool
    /// Per run, the index of its next row not in the heap.
    private var next: [Int]
    /// Each run's next row, as a binary heap.
    private var heap: [(entry: RowOrderCollector.Entry, run: Int)] = []

    init(
        entries: [UnsafeBufferPointer<RowOrderCollector.Entry>],
        rest: [UnsafeRawBufferPointer],
        ascending: Bool,
        nullsGreatest: Bool
    ) {
        self.entries = entries
        self.rest = rest
        self.ascending = ascending
        self.nullsGreatest = nullsGreatest
        next = Array(repeating: 1, count: entries.count)
        for run in entries.indices where !entries[run].isEmpty { push((entries[run][0], run)) }
    }

    /// The first row of all, replaced in the heap by the next of its run.
    mutating func pop() -> (RowOrderCollector.Entry, Int)? {
        guard let top = heap.first else { return nil }
        let run = top.run
        if next[run] < entries[run].count {
            heap[0] = (entries[run][next[run]], run)
            next[run] += 1
        } else {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return top }
            heap[0] = last
        }
        siftDown()
        return top
    }

    @inline(__always)
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        RowOrderCollector.precedes(
            heap[a].entry,
            heap[b].entry,
            restA: rest[heap[a].run],
            restB: rest[heap[b].run],
            ascending: ascending,
            nullsGreatest: nullsGreatest
        )
    }

    private mutating func push(_ item: (entry: RowOrderCollector.Entry, run: Int)) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var first = left
            if left + 1 < heap.count && precedes(left + 1, left) { first = left + 1 }
            guard precedes(first, parent) else { return }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
