/// What a ``QueryResultTable`` remembers of each row of its last run, to tell the next run's
/// rows apart without reading its own table: the row's identity and content digests
/// (``RowDigest``), its row id in the table, and its place in the query's order.
///
/// Rows live in slots (reused once their row is gone); row ids are never reused, so that a
/// row deleted and another inserted are never taken for one row changed.
///
/// It also keeps the last run's slots in its order (``slot(inRunOrderAt:)``), so that a run
/// that comes in the same order as the last — most of a re-run after a change of a few rows —
/// finds each row's slot where the last run had it, by comparing one digest, without a lookup.
struct QueryRowIndex {
    /// A slot's row id in the table (0: the slot is free).
    private(set) var rowIDs: [Int64] = []
    /// Each slot's identity digest (the key's, or the content's numbered by occurrence).
    private(set) var identities: [RowDigest.Digest] = []
    /// Each slot's content digest.
    private(set) var contents: [RowDigest.Digest] = []
    /// Each slot's place in the query's order (increasing along the result).
    private(set) var orders: [Double] = []
    /// The run that last saw each slot.
    private var seenInRun: [UInt32] = []
    /// The slot of each identity.
    private var slotOfIdentity: [RowDigest.Digest: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// The next row id to give.
    private(set) var nextRowID: Int64 = 1
    /// The run being read (``beginRun()``).
    private(set) var run: UInt32 = 0
    /// The live slots in the last run's order (when `runOrderIsCurrent`).
    private var runOrder: [Int32] = []
    /// Each slot's position in `runOrder`.
    private var runPosition: [Int32] = []
    /// Whether `runOrder` is the slots in their places' order (a change of a slot makes it stale).
    private var runOrderIsCurrent = false

    /// How many rows there are.
    var count: Int { slotOfIdentity.count }

    /// Starts reading another run: every slot is unseen in it.
    mutating func beginRun() { run &+= 1 }

    /// The slot of `identity`, nil when no row of the last run has it.
    func slot(of identity: RowDigest.Digest) -> Int32? { slotOfIdentity[identity] }

    /// Whether `slot` was seen in the run being read.
    func isSeen(_ slot: Int32) -> Bool { seenInRun[Int(slot)] == run }

    /// Marks `slot` seen in the run being read.
    mutating func markSeen(_ slot: Int32) { seenInRun[Int(slot)] = run }

    /// The slots not seen in the run being read: rows gone.
    func unseenSlots() -> [Int32] {
        var gone: [Int32] = []
        for slot in rowIDs.indices where rowIDs[slot] != 0 && seenInRun[slot] != run { gone.append(Int32(slot)) }
        return gone
    }

    /// Reserves capacity for `count` rows.
    mutating func reserveCapacity(_ count: Int) {
        rowIDs.reserveCapacity(count)
        identities.reserveCapacity(count)
        contents.reserveCapacity(count)
        orders.reserveCapacity(count)
        seenInRun.reserveCapacity(count)
        slotOfIdentity.reserveCapacity(count)
    }

    /// A new row id, never given before.
    mutating func takeRowID() -> Int64 {
        defer { nextRowID += 1 }
        return nextRowID
    }

    /// Adds a row (seen in the run being read); returns its slot.
    @discardableResult
    mutating func add(
        rowID: Int64,
        identity: RowDigest.Digest,
        content: RowDigest.Digest,
        order: Double
    ) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            let index = Int(free)
            rowIDs[index] = rowID
            identities[index] = identity
            contents[index] = content
            orders[index] = order
            seenInRun[index] = run
        } else {
            slot = Int32(rowIDs.count)
            rowIDs.append(rowID)
            identities.append(identity)
            contents.append(content)
            orders.append(order)
            seenInRun.append(run)
        }
        slotOfIdentity[identity] = slot
        nextRowID = max(nextRowID, rowID + 1)
        runOrderIsCurrent = false
        return slot
    }

    /// Removes the row of `slot`.
    mutating func remove(_ slot: Int32) {
        let index = Int(slot)
        slotOfIdentity[identities[index]] = nil
        rowIDs[index] = 0
        freeSlots.append(slot)
        runOrderIsCurrent = false
    }

    /// Gives `slot` new content.
    mutating func setContent(_ content: RowDigest.Digest, of slot: Int32) { contents[Int(slot)] = content }

    /// Gives `slot` a new place in the order.
    mutating func setOrder(_ order: Double, of slot: Int32) {
        orders[Int(slot)] = order
        runOrderIsCurrent = false
    }

    // MARK: The last run's order

    /// The slot at `position` in the last run's order, nil past its end (``prepareRunOrder()`` first).
    @inline(__always)
    func slot(inRunOrderAt position: Int) -> Int32? { position < runOrder.count ? runOrder[position] : nil }

    /// The position of the live `slot` in the last run's order.
    @inline(__always)
    func runPosition(of slot: Int32) -> Int { Int(runPosition[Int(slot)]) }

    /// Makes the last run's order current, when a change since made it stale: the live slots by
    /// their places (in one pass when the slots are in order already, as after the first run).
    mutating func prepareRunOrder() {
        guard !runOrderIsCurrent else { return }
        var live: [Int32] = []
        live.reserveCapacity(count)
        var inOrder = true
        var last = -Double.infinity
        for slot in rowIDs.indices where rowIDs[slot] != 0 {
            if orders[slot] <= last { inOrder = false }
            last = orders[slot]
            live.append(Int32(slot))
        }
        if !inOrder { live.sort { orders[Int($0)] < orders[Int($1)] } }
        setRunOrder(live)
    }

    /// Sets the last run's order: its slots (every live one) in its order.
    mutating func setRunOrder(_ slots: [Int32]) {
        runOrder = slots
        if runPosition.count < rowIDs.count {
            runPosition.append(contentsOf: repeatElement(0, count: rowIDs.count - runPosition.count))
        }
        for (position, slot) in slots.enumerated() { runPosition[Int(slot)] = Int32(position) }
        runOrderIsCurrent = true
    }

    /// Every row's identity recomputed from its content (numbered by occurrence, in the order's
    /// sequence): the index of a result that is told apart by content from now on.
    mutating func identifyByContent() {
        let live = rowIDs.indices.filter { rowIDs[$0] != 0 }.sorted { orders[$0] < orders[$1] }
        slotOfIdentity.removeAll(keepingCapacity: true)
        var occurrences: [RowDigest.Digest: Int] = [:]
        for slot in live {
            let content = contents[slot]
            let number = occurrences[content, default: 0]
            occurrences[content] = number + 1
            identities[slot] = content.numbered(number)
            slotOfIdentity[identities[slot]] = Int32(slot)
        }
    }
}
