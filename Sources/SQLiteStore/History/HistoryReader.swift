/// Reads the store's history table: what other writers changed since a position.
///
/// Triggers append every row change to `store_history(seq, entity, row_id, op)`
/// (`I`, `U`, `D`; `R` marks a bulk write). A reader remembers the last `seq`
/// it has seen and the `PRAGMA data_version` of its connection; when neither
/// that nor the store's in-process commit counter moved, ``changes()`` costs
/// one pragma. Otherwise it reads the new entries, skips the ranges its owner
/// wrote itself, and coalesces per object (insert+update = insert,
/// update+delete = delete, insert+delete = delete: a change set is right for
/// any reader whose view of the rows lies between its first and last entry). A reader that fell behind
/// the pruned history, or that meets a bulk-write marker, reports a reset.
///
/// Over a foreign database (``Store/init(foreignDatabaseAt:model:readOnly:tracking:)``) it reads
/// the history table `(seq, table_name, row_id, op)` of ``Store/trackingNames`` when tracking was installed
/// (``Store/installTracking(forTables:)``); without it, any change by another
/// connection (`PRAGMA data_version` moved) is a reset.
///
/// ``ObjectContext`` uses one; other code can use it to watch a store directly:
///
///     let reader = try HistoryReader(store: store)
///     // later, from the run loop:
///     if let changes = try reader.changes() { print(changes) }
public final class HistoryReader {
    /// The store whose history is read.
    public let store: Store
    /// The `seq` of the newest entry read (or skipped).
    public private(set) var position: Int64
    private var dataVersion: Int64
    private var localCounter: Int64
    /// `seq` ranges written by the owner itself, skipped when reading.
    private var ownRanges: [ClosedRange<Int64>] = []
    /// For a foreign store: whether the tracking table was there at the last read.
    private var sawTracking: Bool

    /// A reader positioned at the store's current end of history.
    public init(store: Store) throws {
        self.store = store
        let db = store.database
        (position, dataVersion) = try db.read { (try store.historyPosition(), try db.dataVersion()) }
        localCounter = store.localChangeCounter
        sawTracking = store.hasTracking
    }

    /// Remembers a range of `seq` values the owner wrote (its own save), so they are not reported back.
    /// Call right after the commit; `counterBefore` is the store's change counter before it.
    func noteOwnWrite(_ range: ClosedRange<Int64>?, counterBefore: Int64) {
        if let range { ownRanges.append(range) }
        if localCounter == counterBefore { localCounter = store.localChangeCounter }
    }

    /// Takes back ``noteOwnWrite(_:counterBefore:)`` for a write that was rolled back (the
    /// caller's transaction around it): another writer's entries may take those `seq` values.
    func forgetOwnWrite(_ range: ClosedRange<Int64>?) {
        guard let range else { return }
        if let i = ownRanges.lastIndex(of: range) { ownRanges.remove(at: i) }
    }

    /// True when another connection or another user of this store may have written since the last read.
    public func mayHaveChanges() throws -> Bool {
        try store.database.dataVersion() != dataVersion || store.localChangeCounter != localCounter
    }

    /// The coalesced changes of other writers since the last call; nil when there are none.
    public func changes() throws -> ChangeSet? {
        let db = store.database
        let version = try db.dataVersion()
        guard version != dataVersion || store.localChangeCounter != localCounter else { return nil }
        dataVersion = version
        localCounter = store.localChangeCounter

        if store.isForeign {
            // Tracking may have been installed or removed by another process since the last read.
            let tracked = try store.refreshTracking()
            defer { sawTracking = tracked }
            if !tracked || !sawTracking {
                position = try tracked ? store.historyPosition() : 0
                ownRanges.removeAll()
                return ChangeSet(isReset: true, isFromOtherProcess: true)
            }
        }
        let foreign = store.isForeign
        let table = foreign ? store.trackingNames.historyTable : SchemaBuilder.historyTable
        let entityColumn = foreign ? "table_name" : "entity"
        var entityOfTable: [String: String?] = [:]
        return try db.read { () throws -> ChangeSet? in
            let newest = try store.historyPosition()
            let oldest = try db.scalar("SELECT min(seq) FROM \(table)").int64
            let pruned = oldest.map { position < $0 - 1 } ?? (newest > position)
            if newest < position || pruned {
                position = newest
                ownRanges.removeAll()
                return ChangeSet(isReset: true, isFromOtherProcess: true)
            }
            guard newest > position else { return nil }
            var coalescer = Coalescer()
            var reset = false
            try db.forEachRow(
                "SELECT seq, \(entityColumn), row_id, op FROM \(table) WHERE seq > ? ORDER BY seq",
                [.integer(position)]
            ) { row in
                let seq = row.int64(at: 0)
                position = seq
                if ownRanges.contains(where: { $0.contains(seq) }) { return }
                let op = row.withUTF8(at: 3) { $0.first ?? 0 }
                if op == UInt8(ascii: "R") {
                    reset = true
                    return
                }
                var entity = row.text(at: 1)
                if foreign {
                    if entityOfTable[entity] == nil {
                        entityOfTable[entity] = .some(store.model.entity(forTable: entity)?.name)
                    }
                    guard let name = entityOfTable[entity]! else { return }
                    entity = name
                } else {
                    guard store.model.entityIndex[entity] != nil else { return }
                }
                coalescer.add(ObjectID(entity: entity, rowID: row.int64(at: 2)), op: op)
            }
            position = max(position, newest)
            ownRanges.removeAll { $0.upperBound <= position }
            if reset { return ChangeSet(isReset: true, isFromOtherProcess: true) }
            let changes = coalescer.changeSet()
            return changes.isEmpty ? nil : changes
        }
    }
}

/// Folds a sequence of row operations into one net change per object.
struct Coalescer {
    enum State { case inserted, updated, deleted, vanished }
    private(set) var states: [ObjectID: State] = [:]

    mutating func add(_ id: ObjectID, op: UInt8) {
        let current = states[id]
        let next: State
        switch (current, op) {
        case (nil, UInt8(ascii: "I")): next = .inserted
        case (nil, UInt8(ascii: "D")): next = .deleted
        case (nil, _): next = .updated
        case (.inserted?, UInt8(ascii: "D")): next = .vanished
        case (.inserted?, _): next = .inserted
        case (.updated?, UInt8(ascii: "D")): next = .deleted
        case (.updated?, UInt8(ascii: "I")): next = .inserted  // the 'U' came from a referencing row before the insert
        case (.updated?, _): next = .updated
        case (.deleted?, UInt8(ascii: "I")): next = .updated  // deleted and re-created with the same id
        case (.deleted?, _): next = .deleted  // a late 'U' from a referencing row's trigger
        case (.vanished?, UInt8(ascii: "I")): next = .inserted
        case (.vanished?, _): next = .vanished
        }
        states[id] = next
    }

    func changeSet() -> ChangeSet {
        var set = ChangeSet(isFromOtherProcess: true)
        for (id, state) in states {
            switch state {
            case .inserted: set.inserted.insert(id)
            case .updated: set.updated[id] = []
            // Inserted then deleted is a delete: nothing to a reader that never saw the
            // row, but one whose snapshot fell between the two (a fetch that ran while
            // the entries were written) must drop it.
            case .deleted, .vanished: set.deleted.insert(id)
            }
        }
        return set
    }
}
