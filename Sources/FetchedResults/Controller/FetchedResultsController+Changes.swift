import Foundation
import SQLiteStore

/// Thrown internally when a probe row's values no longer match its stored
/// prefix (another process wrote in between): the batch falls back to a refetch.
struct InconsistentSnapshot: Error {}

extension FetchedResultsController {
    /// Turns one change set into a batch, applies it and delivers it to the
    /// delegate and ``onChange``; returns it (nil when the results did not change).
    ///
    /// This is what the controller does for every change set its context
    /// publishes while tracking; it is public so that its cost can be measured
    /// on its own. A reset (or a request with `fetchLimit`/`fetchOffset`)
    /// refetches and diffs; everything else is incremental, O(K log N) for K
    /// changed objects (rule 6).
    ///
    ///     try context.save()                              // the controller observes this already when tracking
    ///     let batch = try controller.process(changeSet)   // or drive it by hand
    @discardableResult
    public func process(_ changes: ChangeSet) throws -> ChangeBatch? {
        guard hasFetched, let plan else { return nil }
        let root = plan.entity.name
        if changes.isReset || isStale || plan.request.fetchLimit > 0 || plan.request.fetchOffset > 0 {
            let updated = Set(changes.updated.keys.filter { $0.entity == root })
            let batch = try refetchAndDiff(updated: updated, isReset: changes.isReset)
            return batch.isEmpty ? nil : batch
        }
        do {
            guard let batch = try applyIncrementally(changes, plan: plan) else { return nil }
            statistics.incrementalBatches += 1
            deliver(batch)
            return batch
        } catch is InconsistentSnapshot {
            let updated = Set(changes.updated.keys.filter { $0.entity == root })
            let batch = try refetchAndDiff(updated: updated)
            return batch.isEmpty ? nil : batch
        }
    }

    /// A changed object that is in the results after the batch.
    private struct Member {
        var id: Int64
        var values: [StoreValue]
        var key: SortPrefix
        var rank = 0          // rows of the unchanged remainder before it
        var newPosition = 0
    }

    private func applyIncrementally(_ changes: ChangeSet, plan: FetchPlan) throws -> ChangeBatch? {
        let root = plan.entity.name

        // 1. Classify the change set.
        var gone = Set<Int64>()
        var evaluate = Set<Int64>()
        var plain = Set<Int64>()
        for id in changes.deleted where id.entity == root { gone.insert(id.rowID) }
        for id in changes.inserted where id.entity == root { evaluate.insert(id.rowID); gone.remove(id.rowID) }
        for (id, keys) in changes.updated where id.entity == root && !gone.contains(id.rowID) {
            if plan.isRelevant(keys) { evaluate.insert(id.rowID) } else { plain.insert(id.rowID) }
        }
        plain.subtract(evaluate)
        plain = plain.filter { list.contains($0) }
        gone = gone.filter { list.contains($0) }
        if gone.isEmpty && evaluate.isEmpty && plain.isEmpty { return nil }
        if !evaluate.isEmpty { try ensureKeys(plan, changing: evaluate.union(gone)) }

        // 2. Read the new values of the objects to evaluate, with one query.
        let rows = try readValues(Array(evaluate), plan: plan)
        var members: [Member] = []
        var leaving: [Int64] = []
        for id in evaluate {
            if let values = rows[id], plan.matches(values) {
                members.append(Member(id: id, values: values, key: plan.prefix(of: values, short: keysAreShort)))
            } else if list.contains(id) {
                leaving.append(id)
            }
        }

        // 3. Old coordinates.
        let oldRecords = sectionRecords
        let oldStarts = sectionStarts
        var oldPosition: [Int64: Int] = [:]
        oldPosition.reserveCapacity(gone.count + leaving.count + members.count + plain.count)
        for id in gone { oldPosition[id] = list.position(of: id) }
        for id in leaving { oldPosition[id] = list.position(of: id) }
        for m in members { if let p = list.position(of: m.id) { oldPosition[m.id] = p } }
        for id in plain { oldPosition[id] = list.position(of: id) }
        if members.isEmpty && leaving.isEmpty && gone.isEmpty {
            // Only plain updates: nothing moves.
            let updates = plain.map { id -> ChangeBatch.ObjectChange in
                let ip = FetchedResultsController.indexPath(of: oldPosition[id]!, starts: oldStarts)
                return ChangeBatch.ObjectChange(change: .update, id: ObjectID(entity: root, rowID: id), from: ip, to: ip)
            }.sorted { $0.to!.lexicographicallyPrecedes($1.to!) }
            return ChangeBatch(objectChanges: updates, counts: sectionRecords.map(\.count), sectionNames: sectionRecords.map(\.name))
        }

        // 4. Take every changed object out; what remains keeps its relative order.
        var records = oldRecords
        let hasSections = plan.sectionExpression != nil
        var removedOldPositions: [Int] = []
        removedOldPositions.reserveCapacity(oldPosition.count)
        for (id, p) in oldPosition where !plain.contains(id) {
            removedOldPositions.append(p)
            records[FetchedResultsController.sectionIndex(of: p, starts: oldStarts)].count -= 1
        }
        removedOldPositions.sort()
        // From the end, so that the old positions still below stay valid. What is removed is
        // remembered, so that a batch that cannot be completed leaves the list as it was.
        var removedRows: [(position: Int, id: Int64, key: SortPrefix)] = []
        removedRows.reserveCapacity(removedOldPositions.count)
        for p in removedOldPositions.reversed() {
            let (id, key) = list.remove(at: p)
            removedRows.append((p, id, key))
        }
        var insertedIDs: [Int64] = []
        var sectionChanges: [ChangeBatch.SectionChange] = []
        var finalRecords: [SectionRecord] = []
        var newStarts: [Int] = []
        func restore() {
            for id in insertedIDs { list.remove(id) }
            for r in removedRows.reversed() { list.insert(r.id, key: r.key, at: r.position) }
        }
        do {

        // 5. Rank each remaining member among the unchanged rows (binary search on prefixes, then full values).
        var probeValues: [Int64: [StoreValue]] = [:]
        var pending: [(member: Int, lo: Int, hi: Int)] = []
        for i in members.indices {
            let (lo, hi) = narrow(members[i])
            if lo == hi { members[i].rank = lo } else { pending.append((i, lo, hi)) }
        }
        if !pending.isEmpty {
            var wanted: [(id: Int64, position: Int)] = []
            for p in pending where p.hi - p.lo <= 64 {
                for pos in p.lo..<p.hi { wanted.append((list.id(at: pos), pos)) }
            }
            if !wanted.isEmpty { try loadProbes(wanted, into: &probeValues, plan: plan) }
            for p in pending {
                members[p.member].rank = try rank(members[p.member], lo: p.lo, hi: p.hi, probes: &probeValues, plan: plan)
            }
        }
        members.sort { a, b in
            a.rank != b.rank ? a.rank < b.rank : plan.compareRows(a.values, a.id, b.values, b.id) < 0
        }

        // 6. Insert members in ascending final position; count them into their sections.
        for j in members.indices {
            let m = members[j]
            list.insert(m.id, key: m.key, at: m.rank + j)
            insertedIDs.append(m.id)
            members[j].newPosition = m.rank + j
            if hasSections {
                let v = m.values[plan.sectionValueIndex!]
                let (found, index) = findSection(v, in: records, ascending: plan.sectionAscending)
                if found {
                    records[index].count += 1
                } else {
                    records.insert(SectionRecord(value: v, name: FetchedResultsController.sectionName(for: v), count: 1), at: index)
                }
            } else {
                records[0].count += 1
            }
        }

        // 7. Section changes, by section value (sections never reorder).
        if hasSections {
            finalRecords = records.filter { $0.count > 0 }
            var i = 0, j = 0
            var deletes: [ChangeBatch.SectionChange] = [], inserts: [ChangeBatch.SectionChange] = []
            while i < oldRecords.count || j < finalRecords.count {
                if i < oldRecords.count, j < finalRecords.count,
                   StoreValue.compare(oldRecords[i].value, finalRecords[j].value) == 0 {
                    i += 1; j += 1
                } else if j >= finalRecords.count || (i < oldRecords.count
                            && sectionOrder(oldRecords[i].value, finalRecords[j].value, ascending: plan.sectionAscending) < 0) {
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
        newStarts = []
        var total = 0
        for r in finalRecords { newStarts.append(total); total += r.count }
        if keysAreShort && hasSections {
            // Short prefixes leave the section out: every member must have landed in its own section.
            for m in members {
                let s = FetchedResultsController.sectionIndex(of: m.newPosition, starts: newStarts)
                if StoreValue.compare(finalRecords[s].value, m.values[plan.sectionValueIndex!]) != 0 {
                    mayUseShortPrefixes = false
                    throw InconsistentSnapshot()
                }
            }
        }
        sectionRecords = finalRecords
        invalidateStarts()
        generation += 1
        loader.removeAll()

        } catch {
            restore()
            throw error
        }
        // 8. Moves or updates: an object that keeps its section and its place among
        //    the unchanged rows stays (an update); of several such in one gap the
        //    longest increasing run stays and the others move.
        func oldIP(_ id: Int64) -> IndexPath { FetchedResultsController.indexPath(of: oldPosition[id]!, starts: oldStarts) }
        func newIP(_ p: Int) -> IndexPath { FetchedResultsController.indexPath(of: p, starts: newStarts) }
        var objectChanges: [ChangeBatch.ObjectChange] = []
        var inserts: [ChangeBatch.ObjectChange] = [], moves: [ChangeBatch.ObjectChange] = [], updates: [ChangeBatch.ObjectChange] = []
        for id in gone.union(leaving).sorted(by: { oldPosition[$0]! < oldPosition[$1]! }) {
            objectChanges.append(.init(change: .delete, id: ObjectID(entity: root, rowID: id), from: oldIP(id), to: nil))
        }
        var candidates: [(member: Int, old: Int)] = []
        for (j, m) in members.enumerated() {
            guard let old = oldPosition[m.id] else {
                inserts.append(.init(change: .insert, id: ObjectID(entity: root, rowID: m.id), from: nil, to: newIP(m.newPosition)))
                continue
            }
            let removedBefore = lowerBound(removedOldPositions, old)
            let oldRank = old - removedBefore
            let sameSection: Bool
            if hasSections {
                let oldSection = oldRecords[FetchedResultsController.sectionIndex(of: old, starts: oldStarts)].value
                sameSection = StoreValue.compare(oldSection, m.values[plan.sectionValueIndex!]) == 0
            } else {
                sameSection = true
            }
            if sameSection && oldRank == m.rank { candidates.append((j, old)) } else {
                moves.append(.init(change: .move, id: ObjectID(entity: root, rowID: m.id), from: oldIP(m.id), to: newIP(m.newPosition)))
            }
        }
        let staying = Set(longestIncreasingSubsequence(candidates.map(\.old)).map { candidates[$0].member })
        for c in candidates {
            let m = members[c.member]
            let change: ChangeType = staying.contains(c.member) ? .update : .move
            let entry = ChangeBatch.ObjectChange(change: change, id: ObjectID(entity: root, rowID: m.id), from: oldIP(m.id), to: newIP(m.newPosition))
            if change == .update { updates.append(entry) } else { moves.append(entry) }
        }
        for id in plain {
            guard let p = list.position(of: id) else { continue }
            updates.append(.init(change: .update, id: ObjectID(entity: root, rowID: id), from: oldIP(id), to: newIP(p)))
        }
        func byTarget(_ a: ChangeBatch.ObjectChange, _ b: ChangeBatch.ObjectChange) -> Bool {
            a.to!.lexicographicallyPrecedes(b.to!)
        }
        objectChanges += inserts.sorted(by: byTarget) + moves.sorted(by: byTarget) + updates.sorted(by: byTarget)
        return ChangeBatch(sectionChanges: sectionChanges, objectChanges: objectChanges,
                           counts: finalRecords.map(\.count), sectionNames: finalRecords.map(\.name))
    }

    /// Binary search with prefixes only: `lo == hi` is the rank; otherwise the
    /// rank lies in `lo...hi` and needs full values.
    ///
    /// Keys run in list order, so the rows whose prefix equals the member's form
    /// one block, found with two binary searches; only inside it can the
    /// prefix leave the order undecided (when the prefixes are inexact).
    private func narrow(_ m: Member) -> (Int, Int) {
        guard m.key.isValid, list.hasKeys else { return (0, list.count) }
        let key = m.key
        guard let lower = list.sequence.partitionPoint({ k in k.isValid ? SortPrefix.compareBits(k, key) < 0 : nil }) else {
            return narrowStopping(m)
        }
        // The block of equal prefixes is short: walk it.
        var upper = lower
        while upper < list.count {
            let k = list.key(at: upper)
            guard k.isValid else { return narrowStopping(m) }
            if SortPrefix.compareBits(k, key) != 0 { break }
            upper += 1
            if upper - lower > 64 {
                guard let u = list.sequence.partitionPoint({ k in k.isValid ? SortPrefix.compareBits(k, key) <= 0 : nil }) else {
                    return narrowStopping(m)
                }
                upper = u
                break
            }
        }
        // Inside the block of equal prefixes: exact ones tie on every sort, the id decides.
        var lo = lower, hi = upper
        while lo < hi {
            let mid = (lo + hi) / 2
            guard let c = SortPrefix.compare(key, list.key(at: mid)) else { return (lo, hi) }
            let order = c != 0 ? c : (m.id < list.id(at: mid) ? -1 : 1)
            if order > 0 { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo)
    }

    /// The plain search, stopping at the first undecided probe (used when some prefix is invalid).
    private func narrowStopping(_ m: Member) -> (Int, Int) {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            guard let c = SortPrefix.compare(m.key, list.key(at: mid)) else { return (lo, hi) }
            let order = c != 0 ? c : (m.id < list.id(at: mid) ? -1 : 1)
            if order > 0 { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo)
    }

    /// The exact rank of `m` within `lo...hi`, reading probe rows' values as needed.
    private func rank(_ m: Member, lo: Int, hi: Int, probes: inout [Int64: [StoreValue]], plan: FetchPlan) throws -> Int {
        var lo = lo, hi = hi
        while lo < hi {
            let mid = (lo + hi) / 2
            let id = list.id(at: mid)
            let key = list.key(at: mid)
            var order: Int
            if let c = SortPrefix.compare(m.key, key) {
                order = c != 0 ? c : (m.id < id ? -1 : 1)
            } else {
                if probes[id] == nil { try loadProbes([(id, mid)], into: &probes, plan: plan) }
                guard let values = probes[id] else { throw InconsistentSnapshot() }
                order = plan.compareRows(m.values, m.id, values, id)
            }
            if order > 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Reads the values of probe rows (at known positions); a row whose values no longer
    /// give its stored prefix means another writer got in between.
    private func loadProbes(_ rows: [(id: Int64, position: Int)], into probes: inout [Int64: [StoreValue]], plan: FetchPlan) throws {
        let wanted = rows.filter { probes[$0.id] == nil }
        let read = try readValues(wanted.map(\.id), plan: plan)
        statistics.probeReads += read.count
        for (id, position) in wanted {
            guard let values = read[id], plan.prefix(of: values, short: keysAreShort) == list.key(at: position) else {
                throw InconsistentSnapshot()
            }
            probes[id] = values
        }
    }

    /// The values of ``FetchPlan/valueKeyPaths`` for the given rows (one query).
    func readValues(_ ids: [Int64], plan: FetchPlan) throws -> [Int64: [StoreValue]] {
        var out: [Int64: [StoreValue]] = [:]
        guard !ids.isEmpty else { return out }
        out.reserveCapacity(ids.count)
        let db = context.store.database
        let single = ids.count == 1
        let statement = try db.statement(plan.valuesSQL(single: single))
        defer { statement.reset() }
        if single {
            try statement.bind(ids[0], at: 1)
        } else {
            try statement.bind("[" + ids.map(String.init).joined(separator: ",") + "]", at: 1)
        }
        let n = Int32(plan.valueKeyPaths.count)
        while try statement.step() {
            let id = statement.int64(at: 0)
            var values: [StoreValue] = []
            values.reserveCapacity(Int(n))
            for c in 0..<n { values.append(statement.value(at: c + 1)) }
            out[id] = values
        }
        return out
    }

    /// Order of two section values in the direction sections run.
    private func sectionOrder(_ a: StoreValue, _ b: StoreValue, ascending: Bool) -> Int {
        let c = StoreValue.compare(a, b)
        return ascending ? c : -c
    }

    /// Binary search for a section value: (found, index) where index is its position or insertion point.
    private func findSection(_ v: StoreValue, in records: [SectionRecord], ascending: Bool) -> (Bool, Int) {
        var lo = 0, hi = records.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = sectionOrder(records[mid].value, v, ascending: ascending)
            if c == 0 { return (true, mid) }
            if c < 0 { lo = mid + 1 } else { hi = mid }
        }
        return (false, lo)
    }
}

/// The number of elements of the sorted array `a` that are less than `x`.
func lowerBound(_ a: [Int], _ x: Int) -> Int {
    var lo = 0, hi = a.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if a[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo
}

/// Indexes of one longest strictly increasing subsequence of `values` (patience sorting, O(n log n)).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []          // index into values of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        var lo = 0, hi = tails.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { previous[i] = tails[lo - 1] }
        if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var out: [Int] = []
    var k = tails.last!
    while k >= 0 { out.append(k); k = previous[k] }
    return out.reversed()
}
