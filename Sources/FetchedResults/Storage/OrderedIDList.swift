/// Fenwick (binary indexed) tree over chunk sizes: prefix sums and
/// position lookup in O(log C).
struct FenwickTree {
    private(set) var tree: [Int]
    /// The largest power of two not above the size (the first step of `locate`).
    private let topStep: Int

    init(counts: [Int]) {
        var t = [0] + counts
        let n = counts.count
        if n > 0 {
            for i in 1...n {
                let j = i + (i & -i)
                if j <= n { t[j] += t[i] }
            }
        }
        tree = t
        var step = 1
        while step * 2 <= n { step *= 2 }
        topStep = step
    }

    var count: Int { tree.count - 1 }

    mutating func add(_ index: Int, _ delta: Int) {
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Sum of the counts before `index`.
    func prefix(_ index: Int) -> Int {
        var s = 0
        var i = index
        while i > 0 {
            s += tree[i]
            i -= i & -i
        }
        return s
    }

    /// The index whose range contains `position`, and the offset inside it.
    func locate(_ position: Int) -> (index: Int, offset: Int) {
        tree.withUnsafeBufferPointer { t in
            var pos = 0
            var rem = position
            var step = topStep
            let n = t.count - 1
            while step > 0 {
                let next = pos + step
                if next <= n && t[next] <= rem {
                    pos = next
                    rem -= t[next]
                }
                step >>= 1
            }
            return (pos, rem)
        }
    }
}

/// One run of consecutive fetched rows: their ids and (once built) sort-key prefixes.
struct IDChunk {
    var ids: ChunkIDs
    var keys: ContiguousArray<SortPrefix>
}

/// An immutable-by-value view of the ordered ids: position → id in O(log C).
///
/// Cheap to copy (arrays are copy-on-write), which is how ``FetchedObjects``
/// and ``SectionInfo`` keep a stable snapshot while the controller moves on.
struct IDSequence {
    /// Chunk storage by slot number (stable while the chunk lives).
    fileprivate(set) var slots: [IDChunk] = []
    /// Slots in order.
    fileprivate(set) var order: [Int32] = []
    fileprivate(set) var tree = FenwickTree(counts: [])
    fileprivate(set) var count = 0
    /// The last prefix of each chunk, by ordinal (kept with the keys): the chunk-level
    /// search of ``lowerBound(bits:pastEqual:)`` reads this small array instead of every chunk.
    fileprivate(set) var lastKeys: [SortPrefix] = []

    func locate(_ position: Int) -> (slot: Int, offset: Int) {
        let (ordinal, offset) = tree.locate(position)
        return (Int(order[ordinal]), offset)
    }

    func id(at position: Int) -> Int64 {
        let (slot, offset) = locate(position)
        return slots[slot].ids[offset]
    }

    func key(at position: Int) -> SortPrefix {
        let (slot, offset) = locate(position)
        return offset < slots[slot].keys.count ? slots[slot].keys[offset] : .invalid
    }

    /// The first position whose prefix is not below `key` (comparing prefix
    /// bits; with `pastEqual`, the first one above it), and whether the prefix
    /// there equals `key`'s bits; nil when an invalid prefix is met on the way.
    /// Prefixes run in list order, so this is two binary searches over plain
    /// arrays: the chunks by their last prefix, then inside one chunk.
    func lowerBound(bits key: SortPrefix, pastEqual: Bool = false) -> (position: Int, isEqual: Bool)? {
        guard lastKeys.count == order.count else { return nil }
        let bound = pastEqual ? 1 : 0  // a prefix is "before" when compareBits(prefix, key) < bound
        let ordinal: Int? = lastKeys.withUnsafeBufferPointer { last in
            var lo = 0
            var hi = last.count
            while lo < hi {
                let mid = (lo + hi) / 2
                guard last[mid].isValid else { return nil }
                if SortPrefix.compareBits(last[mid], key) < bound { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        guard let ordinal else { return nil }
        guard ordinal < order.count else { return (count, false) }
        let found: (Int, Bool)? = slots[Int(order[ordinal])].keys.withUnsafeBufferPointer { keys in
            var lo = 0
            var hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                guard keys[mid].isValid else { return nil }
                if SortPrefix.compareBits(keys[mid], key) < bound { lo = mid + 1 } else { hi = mid }
            }
            // The chunk's last prefix is not before `key`, so `lo` is inside the chunk.
            guard lo < keys.count, keys[lo].isValid else { return nil }
            return (lo, SortPrefix.compareBits(keys[lo], key) == 0)
        }
        guard let (inside, isEqual) = found else { return nil }
        return (tree.prefix(ordinal) + inside, isEqual)
    }

    /// ``lowerBound(bits:pastEqual:)`` (without `pastEqual`) for many prefixes, in their order.
    ///
    /// A thousand searches over a million rows wait mostly on memory, one read after
    /// another. Here the searches take each step together: every search's step over
    /// the chunks' last prefixes before the next step (all take the same number: the
    /// branch-free form of binary search), then every search's chunk before any chunk
    /// is searched, so that the reads of different searches overlap.
    func lowerBounds(bits keys: [SortPrefix]) -> [(position: Int, isEqual: Bool)?] {
        guard lastKeys.count == order.count else { return Array(repeating: nil, count: keys.count) }
        guard !lastKeys.isEmpty else { return Array(repeating: (count, false), count: keys.count) }
        // The chunks: `ordinals[i]` ends as the first chunk whose last prefix is not below key i.
        var ordinals = [Int](repeating: 0, count: keys.count)
        var valid = [Bool](repeating: true, count: keys.count)
        lastKeys.withUnsafeBufferPointer { last in
            keys.withUnsafeBufferPointer { keys in
                ordinals.withUnsafeMutableBufferPointer { ordinals in
                    valid.withUnsafeMutableBufferPointer { valid in
                        func step(_ i: Int, by distance: Int) {
                            let probe = last[ordinals[i] + distance]
                            if !probe.isValid { valid[i] = false }
                            if SortPrefix.compareBits(probe, keys[i]) < 0 { ordinals[i] += max(distance, 1) }
                        }
                        var remaining = last.count
                        while remaining > 1 {
                            let half = remaining / 2
                            for i in keys.indices { step(i, by: half) }
                            remaining -= half
                        }
                        for i in keys.indices { step(i, by: 0) }
                    }
                }
            }
        }
        // Each chunk's size is read for every search first: its header is what a search waits on.
        var sizes = [Int](repeating: 0, count: keys.count)
        for i in keys.indices where valid[i] && ordinals[i] < order.count {
            sizes[i] = slots[Int(order[ordinals[i]])].keys.count
        }
        var out: [(position: Int, isEqual: Bool)?] = []
        out.reserveCapacity(keys.count)
        for i in keys.indices {
            guard valid[i] else {
                out.append(nil)
                continue
            }
            guard ordinals[i] < order.count, sizes[i] > 0 else {
                out.append(ordinals[i] < order.count ? nil : (count, false))
                continue
            }
            let key = keys[i]
            let found: (Int, Bool)? = slots[Int(order[ordinals[i]])].keys.withUnsafeBufferPointer { chunk in
                var lo = 0
                var hi = chunk.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    guard chunk[mid].isValid else { return nil }
                    if SortPrefix.compareBits(chunk[mid], key) < 0 { lo = mid + 1 } else { hi = mid }
                }
                guard lo < chunk.count, chunk[lo].isValid else { return nil }
                return (lo, SortPrefix.compareBits(chunk[lo], key) == 0)
            }
            out.append(found.map { (tree.prefix(ordinals[i]) + $0.0, $0.1) })
        }
        return out
    }

    /// The ids of positions `range`, in order.
    func ids(in range: Range<Int>) -> [Int64] {
        guard !range.isEmpty else { return [] }
        var out: [Int64] = []
        out.reserveCapacity(range.count)
        var (ordinal, offset) = tree.locate(range.lowerBound)
        while out.count < range.count {
            let chunk = slots[Int(order[ordinal])]
            let take = min(chunk.ids.count - offset, range.count - out.count)
            chunk.ids.append(offset..<(offset + take), to: &out)
            ordinal += 1
            offset = 0
        }
        return out
    }

    /// Calls `body` with every id in order.
    func forEachID(_ body: (Int64) throws -> Void) rethrows {
        for s in order { try slots[Int(s)].ids.forEachID(body) }
    }

    /// Chunks in order (for bulk copies such as the cache file).
    func forEachChunk(_ body: (IDChunk) throws -> Void) rethrows {
        for s in order { try body(slots[Int(s)]) }
    }
}

/// Maps a row id to the slot of the chunk holding it.
///
/// Dense (4 bytes per id in the covered range) when ids are compact, as
/// SQLite's rowids usually are; a dictionary for the rest.
struct RowIDMap {
    private var base: Int64 = 0
    private var dense: ContiguousArray<Int32> = []  // slot + 1; 0 = absent
    private var sparse: [Int64: Int32] = [:]

    init() {}

    init(minID: Int64, maxID: Int64, count: Int) {
        // The ids may span more than Int64 holds (a row id of -2^63 beside one of 2^63 - 1).
        let (difference, overflow) = maxID.subtractingReportingOverflow(minID)
        let span = maxID >= minID && !overflow && difference < Int64.max ? difference + 1 : 0
        if count > 0, span > 0, span <= Int64(count) * 4 + 4096 {
            base = minID
            dense = ContiguousArray(repeating: 0, count: Int(span))
        }
    }

    /// The index into `dense` for `id`, when it falls inside `0..<limit`.
    @inline(__always)
    private func offset(_ id: Int64, limit: Int) -> Int? {
        guard id >= base else { return nil }
        let (d, overflow) = id.subtractingReportingOverflow(base)
        guard !overflow, d < Int64(limit) else { return nil }
        return Int(d)
    }

    /// Maps every id of `ids`, none of them in the map yet, to `slot`: what `self[id] = slot` does for
    /// each, with the dense entries written through one pointer (a fetch maps millions of ids at once,
    /// and the subscript's checks and copy-on-write test per id showed in its profile).
    mutating func insert(newIDs ids: ChunkIDs, slot: Int32) {
        let stored = slot + 1
        let base = self.base
        let limit = Int64(dense.count)
        var outside: [Int64] = []
        dense.withUnsafeMutableBufferPointer { entries in
            for id in ids {
                let (d, overflow) = id.subtractingReportingOverflow(base)
                if id >= base && !overflow && d < limit {
                    entries[Int(d)] = stored
                } else {
                    outside.append(id)
                }
            }
        }
        for id in outside { self[id] = slot }
    }

    subscript(id: Int64) -> Int32? {
        get {
            // An id stored in `sparse` while it lay beyond the dense range stays
            // there when the dense range later grows over it: look in both.
            if let i = offset(id, limit: dense.count) {
                let v = dense[i]
                if v != 0 { return v - 1 }
            }
            return sparse.isEmpty ? nil : sparse[id]
        }
        set {
            if let i = offset(id, limit: dense.count) {
                dense[i] = newValue.map { $0 + 1 } ?? 0
                if !sparse.isEmpty { sparse[id] = nil }
                return
            }
            guard let v = newValue else {
                sparse[id] = nil
                return
            }
            if dense.isEmpty && sparse.isEmpty {
                base = id
                dense = [v + 1]
                return
            }
            if !dense.isEmpty, let i = offset(id, limit: dense.count + max(1024, dense.count / 2)) {
                dense.append(contentsOf: repeatElement(0, count: i - dense.count + 1))
                dense[i] = v + 1
                if !sparse.isEmpty { sparse[id] = nil }
                return
            }
            sparse[id] = v
        }
    }
}

/// The fetched ids in order, with their sort-key prefixes once built: a
/// chunked list supporting position lookup, removal and insertion in
/// O(log N + chunk).
///
/// Chunks hold ~64 ids (split at 128): small, so that a removal or an
/// insertion moves at most a few kilobytes and finding an id in its chunk is a
/// short scan, which is what a batch of a thousand scattered changes pays per
/// object; a Fenwick tree over chunk sizes gives the position of a chunk; a
/// ``RowIDMap`` finds the chunk of an id. Memory is about 10 bytes per row
/// (4 id + 0.5 spare room + 4 map + ~1 of chunk overhead: a chunk keeps 4-byte
/// ids while they fit in 32 bits, see ``ChunkIDs``), plus 24 for the prefix once
/// ``installKeys(_:)`` has run (the controller does that lazily, at the first
/// change set it processes, or when asked by ``FetchedResultsController/prepareForChanges()``).
struct OrderedIDList {
    static let targetChunk = Builder.PendingIDs.count
    static let maxChunk = 128
    /// Room reserved in a new chunk's arrays, so that the first rows a change
    /// set inserts into it do not reallocate them.
    static let chunkCapacity = targetChunk + 8

    /// `count` invalid prefixes, with a chunk's spare room.
    static func invalidKeys(count: Int) -> ContiguousArray<SortPrefix> {
        var keys = ContiguousArray<SortPrefix>()
        keys.reserveCapacity(max(count, chunkCapacity))
        keys.append(contentsOf: repeatElement(.invalid, count: count))
        return keys
    }

    private(set) var sequence = IDSequence()
    private var ordinalOfSlot: [Int32] = []
    private var freeSlots: [Int32] = []
    private var map = RowIDMap()
    /// True once every chunk holds a prefix per id.
    private(set) var hasKeys = false

    var count: Int { sequence.count }

    init() {}

    /// Builds the list from ids in order (as read from the sorted query).
    ///
    /// The ids of the chunk being filled wait in a fixed buffer, and become a chunk (`ChunkIDs`
    /// of exactly the room a new chunk gets) when it is full: appending an id, once per fetched
    /// row, is a store and a count, with no array to check for uniqueness or capacity.
    struct Builder {
        /// The ids of one full chunk as they arrive.
        typealias PendingIDs = InlineArray<64, Int64>

        private var chunks: [IDChunk] = []
        private var pending = PendingIDs(repeating: 0)
        private var pendingCount = 0
        private var minID = Int64.max, maxID = Int64.min
        private var total = 0

        init() {}

        @inline(__always)
        mutating func append(_ id: Int64) {
            pending[pendingCount] = id
            pendingCount += 1
            if pendingCount == PendingIDs.count { closeChunk() }
        }

        /// Appends a run of ids (from the cache file).
        mutating func append(ids: UnsafeBufferPointer<Int64>) {
            var i = 0
            while i < ids.count {
                let start = pendingCount
                let n = min(PendingIDs.count - start, ids.count - i)
                var room = pending.mutableSpan
                room.withUnsafeMutableBufferPointer { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + n)])
                        .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: ids[i..<(i + n)]))
                }
                pendingCount += n
                i += n
                if pendingCount == PendingIDs.count { closeChunk() }
            }
        }

        /// Makes the pending ids a chunk.
        private mutating func closeChunk() {
            guard pendingCount > 0 else { return }
            let count = pendingCount
            var ids = ChunkIDs()
            ids.reserveCapacity(OrderedIDList.chunkCapacity)
            var low = minID
            var high = maxID
            pending.span.withUnsafeBufferPointer { buffer in
                let filled = UnsafeBufferPointer(rebasing: buffer[..<count])
                ids.append(contentsOf: filled)
                for id in filled {
                    low = Swift.min(low, id)
                    high = Swift.max(high, id)
                }
            }
            minID = low
            maxID = high
            chunks.append(IDChunk(ids: ids, keys: []))
            total += pendingCount
            pendingCount = 0
        }

        consuming func finish() -> OrderedIDList {
            finish(rejectingDuplicates: false)!
        }

        /// The list, or nil when an id was appended twice (a damaged cache file).
        consuming func finishRejectingDuplicates() -> OrderedIDList? {
            finish(rejectingDuplicates: true)
        }

        private consuming func finish(rejectingDuplicates: Bool) -> OrderedIDList? {
            closeChunk()
            var list = OrderedIDList()
            list.sequence.slots = chunks
            list.sequence.order = chunks.indices.map { Int32($0) }
            list.sequence.tree = FenwickTree(counts: chunks.map { $0.ids.count })
            list.sequence.count = total
            list.ordinalOfSlot = chunks.indices.map { Int32($0) }
            var map = RowIDMap(minID: minID, maxID: maxID, count: total)
            for (slot, c) in chunks.enumerated() {
                guard rejectingDuplicates else {
                    map.insert(newIDs: c.ids, slot: Int32(slot))
                    continue
                }
                for id in c.ids {
                    if map[id] != nil { return nil }
                    map[id] = Int32(slot)
                }
            }
            list.map = map
            return list
        }
    }

    func contains(_ id: Int64) -> Bool { map[id] != nil }

    func id(at position: Int) -> Int64 { sequence.id(at: position) }

    func key(at position: Int) -> SortPrefix { sequence.key(at: position) }

    /// The position of `id`, nil when it is not in the list.
    func position(of id: Int64) -> Int? {
        guard let slot = map[id] else { return nil }
        let ordinal = Int(ordinalOfSlot[Int(slot)])
        guard let offset = sequence.slots[Int(slot)].ids.offset(of: id) else { return nil }
        return sequence.tree.prefix(ordinal) + offset
    }

    /// ``position(of:)`` for many ids, in their order. Each step is taken for every
    /// id before the next (the chunks of all, then the offsets in them, then the
    /// chunks' starts), so that the memory reads of different ids overlap instead of
    /// waiting one after another: what a thousand scattered changes pay.
    func positions(of ids: [Int64]) -> [Int?] {
        let slotOf = ids.map { map[$0] }
        var offsets = [Int?](repeating: nil, count: ids.count)
        for (i, slot) in slotOf.enumerated() {
            if let slot { offsets[i] = sequence.slots[Int(slot)].ids.offset(of: ids[i]) }
        }
        return offsets.indices.map { i in
            offsets[i].map { sequence.tree.prefix(Int(ordinalOfSlot[Int(slotOf[i]!)])) + $0 }
        }
    }

    /// Removes the rows at `positions` (ascending, distinct) in one pass per
    /// chunk; returns their ids and prefixes (``SortPrefix/invalid`` without
    /// keys) in the same order.
    ///
    /// A batch of K removals costs one compaction of each chunk it touches and
    /// one O(C) rebuild of the chunk index, instead of K tree updates.
    mutating func remove(sortedPositions positions: [Int]) -> [(id: Int64, key: SortPrefix)] {
        guard !positions.isEmpty else { return [] }
        precondition(positions.last! < count, "remove position \(positions.last!) out of 0..<\(count)")
        var removed: [(id: Int64, key: SortPrefix)] = []
        removed.reserveCapacity(positions.count)
        var emptied = false
        var touched: [(ordinal: Int, slot: Int, delta: Int)] = []
        let (landing, sizes) = chunksHolding(positions)
        var i = 0
        while i < positions.count {
            let (ordinal, firstOffset) = landing[i]
            let start = positions[i] - firstOffset
            let slot = Int(sequence.order[ordinal])
            let size = sizes[i]
            var end = i
            while end < positions.count && positions[end] - start < size { end += 1 }
            let keep = size - (end - i)
            let withKeys = hasKeys
            OrderedIDList.compact(
                &sequence.slots[slot],
                offsets: positions[i..<end].lazy.map { $0 - start },
                withKeys: withKeys,
                removed: &removed
            )
            if keep == 0 { emptied = true }
            touched.append((ordinal, slot, i - end))
            i = end
        }
        for r in removed { map[r.id] = nil }
        sequence.count -= positions.count
        if !emptied {
            updateIndex(touched)
            return removed
        }
        // Drop the emptied chunks (an empty list keeps one empty chunk).
        var order: [Int32] = []
        order.reserveCapacity(sequence.order.count)
        for s in sequence.order {
            if sequence.slots[Int(s)].ids.isEmpty {
                ordinalOfSlot[Int(s)] = -1
                freeSlots.append(s)
                sequence.slots[Int(s)] = IDChunk(ids: ChunkIDs(), keys: [])
            } else {
                order.append(s)
            }
        }
        if order.isEmpty, let kept = freeSlots.popLast() { order = [kept] }
        sequence.order = order
        for (o, s) in order.enumerated() { ordinalOfSlot[Int(s)] = Int32(o) }
        rebuildTree()
        return removed
    }

    /// For each position (at most ``count``: the end belongs to the last chunk), the
    /// ordinal of its chunk and its offset there, and the chunk's size. All chunks are
    /// found before any size is read, in one pass: a batch's chunks are scattered in
    /// memory, and reading their headers one after another is what it would wait on.
    private func chunksHolding(_ positions: [Int]) -> (landing: [(index: Int, offset: Int)], sizes: [Int]) {
        let last = sequence.order.count - 1
        let landing = positions.map { p -> (index: Int, offset: Int) in
            p == count ? (last, sequence.slots[Int(sequence.order[last])].ids.count) : sequence.tree.locate(p)
        }
        return (landing, landing.map { sequence.slots[Int(sequence.order[$0.index])].ids.count })
    }

    /// Brings the chunk index up to date after the sizes of `touched` chunks
    /// changed (none added or dropped): tree updates for a few, a rebuild for many.
    private mutating func updateIndex(_ touched: [(ordinal: Int, slot: Int, delta: Int)]) {
        guard touched.count * 8 < sequence.order.count else {
            rebuildTree()
            return
        }
        for t in touched {
            sequence.tree.add(t.ordinal, t.delta)
            noteLastKey(slot: t.slot, ordinal: t.ordinal)
        }
    }

    /// Opens gaps in one chunk for `rows` (ascending rank; `start` is the rank of
    /// the chunk's first row) and fills them, in place: the chunk grows at its end
    /// and each run of old rows moves up once. Returns the new size.
    private static func expand(
        _ chunk: inout IDChunk,
        size: Int,
        rows: ArraySlice<(id: Int64, key: SortPrefix, rank: Int)>,
        start: Int,
        withKeys: Bool
    ) -> Int {
        let added = rows.count
        chunk.ids.widen(toHold: rows.lazy.map(\.id))
        chunk.ids.appendPlaceholders(added)
        if withKeys { chunk.keys.append(contentsOf: repeatElement(.invalid, count: added)) }
        chunk.ids.withMover { ids in
            chunk.keys.withUnsafeMutableBufferPointer { keys in
                // From the end: old rows at or after each new row's offset move up by the rows still to place.
                var end = size  // old rows [.., end) not yet moved
                var shift = added
                for r in rows.reversed() {
                    let offset = r.rank - start
                    let n = end - offset
                    if n > 0 {
                        ids.move(from: offset, to: offset + shift, count: n)
                        if withKeys {
                            (keys.baseAddress! + offset + shift).update(from: keys.baseAddress! + offset, count: n)
                        }
                    }
                    end = offset
                    shift -= 1
                    ids.set(offset + shift, r.id)
                    if withKeys { keys[offset + shift] = r.key }
                }
            }
        }
        return size + added
    }

    /// Drops the rows at `offsets` (ascending) of one chunk, moving each run
    /// between them once; appends what it drops to `removed`.
    private static func compact(
        _ chunk: inout IDChunk,
        offsets: some Sequence<Int>,
        withKeys: Bool,
        removed: inout [(id: Int64, key: SortPrefix)]
    ) {
        let size = chunk.ids.count
        var write = -1
        var read = 0
        var dropped = 0
        chunk.ids.withMover { ids in
            chunk.keys.withUnsafeMutableBufferPointer { keys in
                func move(_ from: Int, _ to: Int, _ n: Int) {
                    guard n > 0, from != to else { return }
                    ids.move(from: from, to: to, count: n)
                    if withKeys { (keys.baseAddress! + to).update(from: keys.baseAddress! + from, count: n) }
                }
                for offset in offsets {
                    if write < 0 {
                        write = offset
                    } else {
                        move(read, write, offset - read)
                        write += offset - read
                    }
                    removed.append((ids.get(offset), withKeys ? keys[offset] : .invalid))
                    read = offset + 1
                    dropped += 1
                }
                if write >= 0 { move(read, write, size - read) }
            }
        }
        chunk.ids.removeLast(dropped)
        if withKeys { chunk.keys.removeLast(dropped) }
    }

    /// Inserts rows given with their *rank* — the number of rows of the list
    /// as it is now that come before them — in ascending rank (rows of equal
    /// rank in the order wanted), in one pass per chunk.
    ///
    /// Row j of `rows` ends up at position `rank + j`. Chunks that grow past
    /// ``maxChunk`` are split into chunks of ``targetChunk``.
    mutating func insert(ranked rows: [(id: Int64, key: SortPrefix, rank: Int)]) {
        guard !rows.isEmpty else { return }
        if sequence.order.isEmpty {
            let slot = newSlot(IDChunk(ids: ChunkIDs(), keys: []))
            sequence.order = [Int32(slot)]
            ordinalOfSlot[slot] = 0
            rebuildTree()
        }
        let withKeys = hasKeys
        var splitOrdinals: [Int] = []
        var touched: [(ordinal: Int, slot: Int, delta: Int)] = []
        for r in rows { precondition(r.rank >= 0 && r.rank <= count, "insert rank \(r.rank) out of 0...\(count)") }
        let (landing, sizes) = chunksHolding(rows.map(\.rank))
        var i = 0
        while i < rows.count {
            let rank = rows[i].rank
            let (ordinal, firstOffset) = landing[i]
            let start = rank - firstOffset
            let slot = Int(sequence.order[ordinal])
            let size = sizes[i]
            // Rows landing in this chunk: ranks up to its end (the end itself only for the last chunk).
            let isLast = ordinal == sequence.order.count - 1
            var end = i
            while end < rows.count && (rows[end].rank - start < size || (isLast && rows[end].rank - start == size)) {
                end += 1
            }
            if end == i { end = i + 1 }
            let newSize = OrderedIDList.expand(
                &sequence.slots[slot],
                size: size,
                rows: rows[i..<end],
                start: start,
                withKeys: withKeys
            )
            for r in rows[i..<end] { map[r.id] = Int32(slot) }
            if newSize > OrderedIDList.maxChunk { splitOrdinals.append(ordinal) }
            touched.append((ordinal, slot, end - i))
            i = end
        }
        sequence.count += rows.count
        if splitOrdinals.isEmpty {
            updateIndex(touched)
            return
        }
        var order: [Int32] = []
        order.reserveCapacity(sequence.order.count + splitOrdinals.count * 2)
        var next = 0
        for (o, s) in sequence.order.enumerated() {
            order.append(s)
            guard next < splitOrdinals.count, splitOrdinals[next] == o else { continue }
            next += 1
            let whole = sequence.slots[Int(s)]
            var lower = OrderedIDList.targetChunk
            sequence.slots[Int(s)].ids.truncate(to: lower)
            if withKeys { sequence.slots[Int(s)].keys.removeSubrange(lower...) }
            while lower < whole.ids.count {
                let upper = min(lower + OrderedIDList.targetChunk, whole.ids.count)
                let piece = IDChunk(
                    ids: ChunkIDs(whole.ids, lower..<upper),
                    keys: withKeys ? ContiguousArray(whole.keys[lower..<upper]) : []
                )
                let slot = newSlot(piece)
                for id in piece.ids { map[id] = Int32(slot) }
                order.append(Int32(slot))
                lower = upper
            }
        }
        sequence.order = order
        for (o, s) in order.enumerated() { ordinalOfSlot[Int(s)] = Int32(o) }
        rebuildTree()
    }

    /// Gives every row its prefix: `fill` calls `set(position, key)` for the rows it knows
    /// (rows it does not reach keep ``SortPrefix/invalid``, which compares as unknown).
    mutating func installKeys(_ fill: (_ set: (Int, SortPrefix) -> Void) throws -> Void) rethrows {
        for s in sequence.order {
            let n = sequence.slots[Int(s)].ids.count
            sequence.slots[Int(s)].keys = OrderedIDList.invalidKeys(count: n)
        }
        hasKeys = true
        var seq = sequence
        sequence = IDSequence()  // keep `seq` uniquely referenced while filling
        defer {
            sequence = seq
            rebuildLastKeys()
        }
        try fill { position, key in
            let (ordinal, offset) = seq.tree.locate(position)
            seq.slots[Int(seq.order[ordinal])].keys[offset] = key
        }
    }

    /// Installs prefixes built elsewhere (``PrefixBuildJob``), one array per
    /// chunk in order; false, and nothing changes, when they do not fit the chunks.
    mutating func installKeys(chunks: [ContiguousArray<SortPrefix>]) -> Bool {
        guard chunks.count == sequence.order.count else { return false }
        for (o, s) in sequence.order.enumerated() where sequence.slots[Int(s)].ids.count != chunks[o].count {
            return false
        }
        for (o, s) in sequence.order.enumerated() { sequence.slots[Int(s)].keys = chunks[o] }
        hasKeys = true
        rebuildLastKeys()
        return true
    }

    /// Drops the prefixes (after a refetch they are rebuilt lazily).
    mutating func removeKeys() {
        for s in sequence.order { sequence.slots[Int(s)].keys = [] }
        hasKeys = false
        sequence.lastKeys = []
    }

    private mutating func newSlot(_ chunk: IDChunk) -> Int {
        if let s = freeSlots.popLast() {
            sequence.slots[Int(s)] = chunk
            return Int(s)
        }
        sequence.slots.append(chunk)
        ordinalOfSlot.append(-1)
        return sequence.slots.count - 1
    }

    private mutating func rebuildTree() {
        sequence.tree = FenwickTree(counts: sequence.order.map { sequence.slots[Int($0)].ids.count })
        rebuildLastKeys()
    }

    private mutating func rebuildLastKeys() {
        sequence.lastKeys = hasKeys ? sequence.order.map { sequence.slots[Int($0)].keys.last ?? .invalid } : []
    }

    @inline(__always)
    private mutating func noteLastKey(slot: Int, ordinal: Int) {
        guard hasKeys, ordinal < sequence.lastKeys.count else { return }
        sequence.lastKeys[ordinal] = sequence.slots[slot].keys.last ?? .invalid
    }
}
