import Foundation
import SQLiteStore

/// The incremental path from one change set to one ``ChangeBatch``: K changed
/// objects cost K reads (one query), K binary searches and one pass over each
/// chunk touched — no refetch (rule 6 of <doc:ChangeBatches>).
///
/// One method per phase, called in this order by
/// ``FetchedResultsController/applyIncrementally(_:plan:)``:
/// ``classify(_:plan:list:)``, ``detachChangedRows()``, ``collectMembers()``,
/// ``rankMembers()``, ``reinsertMembers()``, ``diffSections()``, then
/// ``emitBatch()`` — or ``restoreList()`` when a phase threw, so that a batch
/// that cannot be completed leaves the list as it was.
///
/// The builder owns the controller's id list while it works (the controller
/// moves it out of itself), so the hot loops mutate a uniquely referenced
/// value: no copies, no reference counting per access.
struct IncrementalBatchBuilder {
    /// A changed object that is in the results after the batch.
    struct Member {
        var id: Int64
        var values: [StoreValue]
        var key: SortPrefix
        var oldPosition = -1  // -1: not in the results before
        /// Where prefixes put it among the unchanged rows: empty when they decide (its rank is the bound).
        var candidates: Range<Int> = 0..<0
        var rank = 0  // rows of the unchanged remainder before it
        var newPosition = 0
    }

    /// What a change set means for these results, before anything is read.
    struct Classification {
        /// Rows in the results that were deleted.
        var gone: Set<Int64>
        /// Inserted rows, and rows whose sort, section or predicate keys changed: their new values decide.
        var evaluate: Set<Int64>
        /// Rows in the results whose other keys changed: updates in place.
        var plain: Set<Int64>
    }

    unowned let controller: FetchedResultsController
    let plan: FetchPlan
    let root: String
    let changes: Classification
    /// The rows the change set's save wrote, as committed: their values are not read again.
    let written: WrittenRows
    /// The id list, owned while the batch is built.
    var list: OrderedIDList

    // Before the batch.
    let oldRecords: [SectionRecord]
    let oldStarts: [Int]
    let hasSections: Bool
    let short: Bool

    // Detaching.
    private var reader: RowValuesReader
    private var pendingRead: RowValuesReader.Pending?
    private var oldPosition: [Int64: Int] = [:]
    private var removedOldPositions: [Int] = []
    private var removedRows: [(id: Int64, key: SortPrefix)] = []
    private var plainOld: [(id: Int64, position: Int)] = []
    private var records: [SectionRecord]

    // Members and the departed (deleted, or no longer matching).
    private var members: [Member] = []
    private var departed: [(id: Int64, position: Int)] = []
    private var inserted = false

    // After the batch.
    private(set) var finalRecords: [SectionRecord] = []
    private var sectionChanges: [ChangeBatch.SectionChange] = []
    private var newStarts: [Int] = []

    /// Phase 1: sorts the change set's objects of the root entity into gone,
    /// to evaluate and plain updates; nil when none of them concerns these results.
    static func classify(_ changeSet: ChangeSet, plan: FetchPlan, list: OrderedIDList) -> Classification? {
        let root = plan.entity.name
        var gone = Set<Int64>(minimumCapacity: changeSet.deleted.count)
        var evaluate = Set<Int64>(minimumCapacity: changeSet.inserted.count + changeSet.updated.count)
        var plain = Set<Int64>()
        for id in changeSet.deleted where id.entity == root { gone.insert(id.rowID) }
        for id in changeSet.inserted where id.entity == root {
            evaluate.insert(id.rowID)
            gone.remove(id.rowID)
        }
        for (id, keys) in changeSet.updated where id.entity == root && !gone.contains(id.rowID) {
            if plan.isRelevant(keys) { evaluate.insert(id.rowID) } else { plain.insert(id.rowID) }
        }
        plain.subtract(evaluate)
        plain = plain.filter { list.contains($0) }
        gone = gone.filter { list.contains($0) }
        if gone.isEmpty && evaluate.isEmpty && plain.isEmpty { return nil }
        return Classification(gone: gone, evaluate: evaluate, plain: plain)
    }

    init(
        controller: FetchedResultsController,
        plan: FetchPlan,
        changes: Classification,
        written: WrittenRows = WrittenRows(),
        list: consuming OrderedIDList
    ) {
        self.controller = controller
        self.plan = plan
        self.root = plan.entity.name
        self.changes = changes
        self.written = written
        self.list = list
        oldRecords = controller.sectionRecords
        oldStarts = controller.sectionStarts
        records = oldRecords
        hasSections = plan.sectionExpression != nil
        short = controller.keysAreShort
        reader = RowValuesReader(
            store: controller.context.store,
            plan: plan,
            splits: controller.splitsLargeReads,
            waitsForOtherThread: controller.splitReadsWaitForOtherThread
        )
    }

    /// Phase 2: starts reading the new values of the objects to evaluate (a large
    /// read starts on the store's second connection at once; values the save wrote
    /// are taken from the change set instead) and meanwhile takes every changed
    /// object that is in the results out of the list: what remains keeps its
    /// relative order.
    mutating func detachChangedRows() {
        let known = written.knownValues(forKeyPaths: plan.valueKeyPaths, root: root, of: changes.evaluate)
        pendingRead = reader.begin(Array(changes.evaluate), known: known)
        controller.statistics.rowsWithWrittenValues += known.count
        oldPosition.reserveCapacity(changes.evaluate.count + changes.gone.count)
        removedOldPositions.reserveCapacity(changes.evaluate.count + changes.gone.count)
        let leaving = Array(changes.gone) + Array(changes.evaluate)
        for (id, p) in zip(leaving, list.positions(of: leaving)) {
            guard let p else { continue }  // an inserted row, or one that did not match
            oldPosition[id] = p
            removedOldPositions.append(p)
        }
        removedOldPositions.sort()
        let plain = Array(changes.plain)
        plainOld = zip(plain, list.positions(of: plain)).map { ($0, $1!) }
        for p in removedOldPositions {
            records[FetchedResultsController.sectionIndex(of: p, starts: oldStarts)].count -= 1
        }
        removedRows = list.remove(sortedPositions: removedOldPositions)
    }

    /// Phase 3: the members (the evaluated rows that match the predicate) and the departed.
    /// Returns false when there are neither: only plain updates (see ``plainUpdatesBatch()``).
    ///
    /// Rows are turned into members (and narrowed among the unchanged rows, see
    /// ``rankMembers()``) chunk by chunk as they are read, while the other thread
    /// may still be reading.
    mutating func collectMembers() throws -> Bool {
        let read = pendingRead!
        pendingRead = nil
        var reader = self.reader  // a local: `self` is mutated while it reads
        members.reserveCapacity(changes.evaluate.count)
        var matched = Set<Int64>(minimumCapacity: changes.evaluate.count)
        try reader.finish(read) { rows in addMembers(rows, matched: &matched) }
        self.reader = reader
        if reader.wasSplit { controller.statistics.splitReads += 1 }
        for id in changes.gone { departed.append((id, oldPosition[id]!)) }
        for id in changes.evaluate where !matched.contains(id) {
            if let p = oldPosition[id] { departed.append((id, p)) }
        }
        return !(members.isEmpty && departed.isEmpty)
    }

    /// The rows that match the predicate become members, each with its prefix and
    /// its place among the unchanged rows as far as prefixes decide it (``narrow(_:lowerBound:)``).
    private mutating func addMembers(_ rows: [(id: Int64, values: [StoreValue])], matched: inout Set<Int64>) {
        // Local copies: a property of `self` read in this mutating loop is copied for every row.
        let plan = self.plan
        let short = self.short
        let first = members.count
        for (id, values) in rows where plan.matches(values) {
            matched.insert(id)
            members.append(
                Member(
                    id: id,
                    values: values,
                    key: plan.prefix(of: values, short: short),
                    oldPosition: oldPosition[id] ?? -1
                )
            )
        }
        guard first < members.count else { return }
        // The binary searches of all these members at once (their memory reads overlap).
        let bounds = list.hasKeys ? list.sequence.lowerBounds(bits: members[first...].map(\.key)) : []
        for i in first..<members.count {
            members[i].candidates = narrow(members[i], lowerBound: bounds.isEmpty ? nil : bounds[i - first])
        }
    }

    /// The batch when nothing was taken out: plain updates only, nothing moves
    /// (nil when there are none either: the results did not change).
    func plainUpdatesBatch() -> ChangeBatch? {
        if plainOld.isEmpty { return nil }
        let updates = plainOld.sorted { $0.position < $1.position }.map { u -> ChangeBatch.ObjectChange in
            let ip = FetchedResultsController.indexPath(of: u.position, starts: oldStarts)
            return ChangeBatch.ObjectChange(change: .update, id: ObjectID(entity: root, rowID: u.id), from: ip, to: ip)
        }
        return ChangeBatch(
            objectChanges: updates,
            counts: oldRecords.map(\.count),
            sectionNames: oldRecords.map(\.name)
        )
    }

    /// Phase 4: ranks each member among the unchanged rows (the binary search on
    /// prefixes ran in ``collectMembers()``; here full values decide where the
    /// prefixes could not), and orders the members by their final place.
    mutating func rankMembers() throws {
        var probeValues: [Int64: [StoreValue]] = [:]
        var pending: [(member: Int, range: Range<Int>)] = []
        for i in members.indices {
            let range = members[i].candidates
            if range.isEmpty { members[i].rank = range.lowerBound } else { pending.append((i, range)) }
        }
        if !pending.isEmpty {
            var wanted: [(id: Int64, position: Int)] = []
            for p in pending where p.range.count <= 64 {
                for pos in p.range { wanted.append((list.id(at: pos), pos)) }
            }
            if !wanted.isEmpty { try loadProbes(wanted, into: &probeValues) }
            for p in pending {
                members[p.member].rank = try rank(members[p.member], in: p.range, probes: &probeValues)
            }
        }
        members = membersInFinalOrder()
    }

    /// The members by rank, then by their full values. The order is found on their
    /// indexes, so that sorting moves integers instead of members.
    private func membersInFinalOrder() -> [Member] {
        let plan = self.plan
        let order = members.withUnsafeBufferPointer { m in
            m.indices.sorted { i, j in
                m[i].rank != m[j].rank
                    ? m[i].rank < m[j].rank : plan.compareRows(m[i].values, m[i].id, m[j].values, m[j].id) < 0
            }
        }
        return order.map { members[$0] }
    }

    /// Phase 5: inserts the members in ascending final position and counts them into their sections.
    mutating func reinsertMembers() {
        var ranked: [(id: Int64, key: SortPrefix, rank: Int)] = []
        ranked.reserveCapacity(members.count)
        var last = -1  // the previous member's section: members run in list order, so mostly the same
        for j in members.indices {
            members[j].newPosition = members[j].rank + j
            ranked.append((members[j].id, members[j].key, members[j].rank))
            if hasSections {
                let v = members[j].values[plan.sectionValueIndex!]
                let (found, index) = findSection(v, trying: last)
                last = index
                if found {
                    records[index].count += 1
                } else {
                    records.insert(
                        SectionRecord(value: v, name: FetchedResultsController.sectionName(for: v), count: 1),
                        at: index
                    )
                }
            } else {
                records[0].count += 1
            }
        }
        list.insert(ranked: ranked)
        inserted = true
    }

    /// Phase 6: the section changes, by section value (sections never reorder),
    /// and the new section starts.
    ///
    /// - Throws: ``InconsistentSnapshot`` when short prefixes (which leave the
    ///   section out) put a member outside its own section: the data shows the
    ///   derivation is not monotonic, and the controller refetches.
    mutating func diffSections() throws {
        if hasSections {
            finalRecords = records.filter { $0.count > 0 }
            var i = 0
            var j = 0
            var deletes: [ChangeBatch.SectionChange] = []
            var inserts: [ChangeBatch.SectionChange] = []
            while i < oldRecords.count || j < finalRecords.count {
                if i < oldRecords.count, j < finalRecords.count,
                    StoreValue.compare(oldRecords[i].value, finalRecords[j].value) == 0
                {
                    i += 1
                    j += 1
                } else if j >= finalRecords.count
                    || (i < oldRecords.count
                        && sectionOrder(oldRecords[i].value, finalRecords[j].value) < 0)
                {
                    deletes.append(.init(change: .delete, index: i, name: oldRecords[i].name))
                    i += 1
                } else {
                    inserts.append(.init(change: .insert, index: j, name: finalRecords[j].name))
                    j += 1
                }
            }
            sectionChanges = deletes + inserts
        } else {
            finalRecords = records
        }
        var total = 0
        newStarts.reserveCapacity(finalRecords.count)
        for r in finalRecords {
            newStarts.append(total)
            total += r.count
        }
        if short && hasSections {
            for m in members {
                let s = FetchedResultsController.sectionIndex(of: m.newPosition, starts: newStarts)
                if StoreValue.compare(finalRecords[s].value, m.values[plan.sectionValueIndex!]) != 0 {
                    controller.mayUseShortPrefixes = false
                    throw InconsistentSnapshot()
                }
            }
        }
    }

    /// After a phase threw: takes the members out again and puts the removed rows back in.
    mutating func restoreList() {
        if inserted {
            var positions = members.map(\.newPosition)
            positions.sort()
            _ = list.remove(sortedPositions: positions)
        }
        var back: [(id: Int64, key: SortPrefix, rank: Int)] = []
        back.reserveCapacity(removedRows.count)
        for (j, r) in removedRows.enumerated() { back.append((r.id, r.key, removedOldPositions[j] - j)) }
        list.insert(ranked: back)
    }

    /// Phase 7: the batch. Deletes and move sources in old coordinates, inserts and
    /// move destinations in new ones (rule 3). An object that keeps its section and
    /// its place among the unchanged rows stays (an update); of several such in one
    /// gap the longest increasing run stays and the others move. Entries are built
    /// from flat positions and ordered by them (the order of index paths).
    mutating func emitBatch() -> ChangeBatch {
        let oldStarts = self.oldStarts
        let newStarts = self.newStarts
        let root = self.root
        func ip(_ p: Int, _ starts: [Int]) -> IndexPath { FetchedResultsController.indexPath(of: p, starts: starts) }
        func objectID(_ id: Int64) -> ObjectID { ObjectID(entity: root, rowID: id) }
        departed.sort { $0.position < $1.position }
        var objectChanges: [ChangeBatch.ObjectChange] = []
        objectChanges.reserveCapacity(departed.count + members.count + plainOld.count)
        for d in departed {
            objectChanges.append(.init(change: .delete, id: objectID(d.id), from: ip(d.position, oldStarts), to: nil))
        }
        var candidates: [Int] = []  // members that may stay, by index (ascending new position)
        for (j, m) in members.enumerated() where m.oldPosition >= 0 {
            let oldRank = m.oldPosition - lowerBound(removedOldPositions, m.oldPosition)
            let sameSection =
                !hasSections
                || StoreValue.compare(
                    oldRecords[FetchedResultsController.sectionIndex(of: m.oldPosition, starts: oldStarts)].value,
                    m.values[plan.sectionValueIndex!]
                ) == 0
            if sameSection && oldRank == m.rank { candidates.append(j) }
        }
        var staying = [Bool](repeating: false, count: members.count)
        for k in longestIncreasingSubsequence(candidates.map { members[$0].oldPosition }) {
            staying[candidates[k]] = true
        }
        for m in members where m.oldPosition < 0 {
            objectChanges.append(
                .init(change: .insert, id: objectID(m.id), from: nil, to: ip(m.newPosition, newStarts))
            )
        }
        for (j, m) in members.enumerated() where m.oldPosition >= 0 && !staying[j] {
            objectChanges.append(
                .init(
                    change: .move,
                    id: objectID(m.id),
                    from: ip(m.oldPosition, oldStarts),
                    to: ip(m.newPosition, newStarts)
                )
            )
        }
        var updates: [(new: Int, old: Int, id: Int64)] = []
        updates.reserveCapacity(candidates.count + plainOld.count)
        for j in candidates where staying[j] {
            updates.append((members[j].newPosition, members[j].oldPosition, members[j].id))
        }
        for u in plainOld { updates.append((list.position(of: u.id)!, u.position, u.id)) }
        updates.sort { $0.new < $1.new }
        for u in updates {
            objectChanges.append(
                .init(change: .update, id: objectID(u.id), from: ip(u.old, oldStarts), to: ip(u.new, newStarts))
            )
        }
        return ChangeBatch(
            sectionChanges: sectionChanges,
            objectChanges: objectChanges,
            counts: finalRecords.map(\.count),
            sectionNames: finalRecords.map(\.name)
        )
    }

    // MARK: Ranking

    /// The member's place among the unchanged rows from prefixes alone: an empty
    /// range is the rank; otherwise the rank lies in the range and needs full values.
    ///
    /// Keys run in list order, so the rows whose prefix equals the member's form
    /// one block: `lowerBound` is its start (``IDSequence/lowerBounds(bits:)``, nil when
    /// an invalid prefix was met), and a second search finds its end when it is long;
    /// only inside it can the prefix leave the order undecided (when the prefixes are inexact).
    private func narrow(_ m: Member, lowerBound: (position: Int, isEqual: Bool)?) -> Range<Int> {
        guard m.key.isValid, list.hasKeys else { return 0..<list.count }
        let key = m.key
        guard let (lower, isEqual) = lowerBound else {
            return narrowStopping(m, in: 0..<list.count)
        }
        if !isEqual { return lower..<lower }  // the usual case: no other row shares the prefix
        // The block of equal prefixes is short: walk it.
        var upper = lower
        while upper < list.count {
            let k = list.key(at: upper)
            guard k.isValid else { return narrowStopping(m, in: 0..<list.count) }
            if SortPrefix.compareBits(k, key) != 0 { break }
            upper += 1
            if upper - lower > 64 {
                guard let (u, _) = list.sequence.lowerBound(bits: key, pastEqual: true) else {
                    return narrowStopping(m, in: 0..<list.count)
                }
                upper = u
                break
            }
        }
        // Inside the block of equal prefixes: exact ones tie on every sort, the id decides.
        return narrowStopping(m, in: lower..<upper)
    }

    /// The search by prefixes within `range`, stopping at the first undecided probe.
    private func narrowStopping(_ m: Member, in range: Range<Int>) -> Range<Int> {
        binarySearch(range) { mid in
            SortPrefix.compare(m.key, list.key(at: mid)).map { c in c != 0 ? c > 0 : m.id > list.id(at: mid) }
        }
    }

    /// The exact rank of `m` within `range`, reading probe rows' values as needed.
    private func rank(_ m: Member, in range: Range<Int>, probes: inout [Int64: [StoreValue]]) throws -> Int {
        try binarySearch(range) { mid in
            let id = list.id(at: mid)
            if let c = SortPrefix.compare(m.key, list.key(at: mid)) { return c != 0 ? c > 0 : m.id > id }
            if probes[id] == nil { try loadProbes([(id, mid)], into: &probes) }
            guard let values = probes[id] else { throw InconsistentSnapshot() }
            return plan.compareRows(m.values, m.id, values, id) > 0
        }.lowerBound
    }

    /// Reads the values of probe rows (at known positions); a row whose values no longer
    /// give its stored prefix means another writer got in between.
    private func loadProbes(_ rows: [(id: Int64, position: Int)], into probes: inout [Int64: [StoreValue]]) throws {
        let wanted = rows.filter { probes[$0.id] == nil }
        let read = try controller.readValues(wanted.map(\.id), plan: plan)
        controller.statistics.probeReads += read.count
        for (id, position) in wanted {
            // Without prefixes (a small change set placed before they were built) there is none to check.
            guard let values = read[id],
                !list.hasKeys || plan.prefix(of: values, short: short) == list.key(at: position)
            else {
                throw InconsistentSnapshot()
            }
            probes[id] = values
        }
    }

    // MARK: Sections

    /// Order of two section values in the direction sections run.
    private func sectionOrder(_ a: StoreValue, _ b: StoreValue) -> Int {
        plan.sectionOrder(a, b)
    }

    /// Binary search for a section value: (found, index) where index is its position or insertion point.
    /// The record at `hint` is compared first (a valid index or -1).
    private func findSection(_ v: StoreValue, trying hint: Int) -> (Bool, Int) {
        if hint >= 0, hint < records.count, sectionOrder(records[hint].value, v) == 0 { return (true, hint) }
        let index = binarySearch(0..<records.count) { sectionOrder(records[$0].value, v) < 0 }.lowerBound
        return (index < records.count && sectionOrder(records[index].value, v) == 0, index)
    }
}
