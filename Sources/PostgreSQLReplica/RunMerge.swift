import Foundation

/// Merges the sorted runs of a ``RowOrderCollector`` into one ``ReplicaRowOrder``: a heap of
/// the runs' next rows, each row written once into arrays sized in advance.
struct RunMerge {
    let runs: [RowOrderCollector.Run]
    let ascending: Bool

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
        let rests = runs.map(\.rest)
        withUnsafeRests(rests) { rest in
            var heap = RunHeap(runs: runs, rest: rest, ascending: ascending)
            var written = 0
            text.withUnsafeMutableBytes { output in
                var row = 0
                while let entry = heap.pop() {
                    ids[row] = entry.entry.id
                    offsets[row] = UInt32(written)
                    if entry.entry.length == .max {
                        isNull[row] = true
                    } else {
                        written += RunMerge.write(entry.entry, rest: rest[entry.run], to: output, at: written)
                    }
                    row += 1
                }
            }
            offsets[count] = UInt32(written)
        }
        return ReplicaRowOrder(
            column: column,
            ascending: ascending,
            ids: ids,
            text: text,
            offsets: offsets,
            isNull: isNull
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

    /// Calls `body` with every run's arena as raw bytes (valid while it runs).
    private func withUnsafeRests<Result>(
        _ rests: [[UInt8]],
        _ body: ([UnsafeRawBufferPointer]) -> Result
    ) -> Result {
        // The arenas are kept alive by `rests`; their storage does not move while unmodified.
        var pointers: [UnsafeRawBufferPointer] = []
        pointers.reserveCapacity(rests.count)
        func nest(_ index: Int) -> Result {
            guard index < rests.count else { return body(pointers) }
            return rests[index].withUnsafeBytes { bytes in
                pointers.append(bytes)
                return nest(index + 1)
            }
        }
        return nest(0)
    }
}

/// The next row of each run, smallest (in the order) on top.
private struct RunHeap {
    let runs: [RowOrderCollector.Run]
    let rest: [UnsafeRawBufferPointer]
    let ascending: Bool
    /// Per run, the index of its next row.
    private var next: [Int]
    /// Run indexes, as a binary heap.
    private var heap: [Int]

    init(runs: [RowOrderCollector.Run], rest: [UnsafeRawBufferPointer], ascending: Bool) {
        self.runs = runs
        self.rest = rest
        self.ascending = ascending
        next = Array(repeating: 0, count: runs.count)
        heap = []
        for run in runs.indices where !runs[run].entries.isEmpty { push(run) }
    }

    mutating func pop() -> (entry: RowOrderCollector.Entry, run: Int)? {
        guard let top = heap.first else { return nil }
        let entry = runs[top].entries[next[top]]
        next[top] += 1
        if next[top] < runs[top].entries.count {
            siftDown(0)
        } else {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
        return (entry, top)
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        RowOrderCollector.precedes(
            runs[a].entries[next[a]],
            runs[b].entries[next[b]],
            restA: rest[a],
            restB: rest[b],
            ascending: ascending
        )
    }

    private mutating func push(_ run: Int) {
        heap.append(run)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
