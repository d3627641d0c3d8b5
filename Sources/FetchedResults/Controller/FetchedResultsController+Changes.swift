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
    /// publishes while tracking; the benchmark calls it directly to measure its
    /// cost on its own (it is not part of the public API). A reset (or a request with `fetchLimit`/`fetchOffset`)
    /// refetches and diffs; everything else is incremental, O(K log N) for K
    /// changed objects (rule 6 of <doc:ChangeBatches>).
    ///
    ///     try context.save()                              // the controller observes this already when tracking
    ///     let batch = try controller.process(changeSet)   // or drive it by hand
    @discardableResult
    @_spi(Benchmark) public func process(_ changes: ChangeSet) throws -> ChangeBatch? {
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
        var oldPosition = -1  // -1: not in the results before
        var rank = 0          // rows of the unchanged remainder before it
        var newPosition = 0
    }

    /// The incremental path: K changed objects cost K reads (one query), K
    /// binary searches and one pass over each chunk touched — no refetch.
    ///
    /// The id list is moved out of the controller while the batch is built, so
    /// that the hot loops work on a uniquely referenced value (no copies, no
    /// reference counting per access); it is moved back on every exit.
    private func applyIncrementally(_ changes: ChangeSet, plan: FetchPlan) throws -> ChangeBatch? {
        let root = plan.entity.name

        // 1. Classify the change set.
        var gone = Set<Int64>(minimumCapacity: changes.deleted.count)
        var evaluate = Set<Int64>(minimumCapacity: changes.inserted.count + changes.updated.count)
        var plain = Set<Int64>()
        for id in changes.deleted where id.entity == root { gone.insert(id.rowID) }
        for id in changes.inserted where id.entity == root { evaluate.insert(id.rowID); gone.remove(id.rowID) }
        for (id, keys) in changes.updated where id.entity == root && !gone.contains(id.rowID) {
            if plan.isRelevant(keys) { evaluate.insert(id.rowID) } else { plain.insert(id.rowID) }
        }
        plain.subtract(evaluate)
        plain = plain.filter { self.list.contains($0) }
        gone = gone.filter { self.list.contains($0) }
        if gone.isEmpty && evaluate.isEmpty && plain.isEmpty { return nil }
        if !evaluate.isEmpty && !self.list.hasKeys { try ensureKeys(plan, changing: evaluate.union(gone)) }

        var list = self.list
        self.list = OrderedIDList()      // `list` is now the only reference: mutated in place
        defer { self.list = list }

        // 2. Start reading the new values of the objects to evaluate (a large read starts on
        //    the store's second connection at once), and meanwhile take every changed object
        //    that is in the results out of the list: what remains keeps its relative order.
        var reader = RowValuesReader(store: context.store, plan: plan, splits: splitsLargeReads)
        let read = reader.begin(Array(evaluate), otherShare: 0.6)
        var oldPosition: [Int64: Int] = [:]
        oldPosition.reserveCapacity(evaluate.count + gone.count)
        var removedOldPositions: [Int] = []
        removedOldPositions.reserveCapacity(evaluate.count + gone.count)
        for id in gone {
            let p = list.position(of: id)!
            oldPosition[id] = p
            removedOldPositions.append(p)
        }
        for id in evaluate {
            guard let p = list.position(of: id) else { continue }
            oldPosition[id] = p
            removedOldPositions.append(p)
        }
        removedOldPositions.sort()
        let plainOld: [(id: Int64, position: Int)] = plain.map { ($0, list.position(of: $0)!) }
        let oldRecords = sectionRecords
        let oldStarts = sectionStarts
        var records = oldRecords
        let hasSections = plan.sectionExpression != nil
        for p in removedOldPositions {
            records[FetchedResultsController.sectionIndex(of: p, starts: oldStarts)].count -= 1
        }
        // What is removed is remembered, so that a batch that cannot be completed leaves the list as it was.
        let removedRows = list.remove(sortedPositions: removedOldPositions)

        // 3. The members (in the results after the batch) and the departed (deleted, or no longer matching).
        let short = keysAreShort
        var members: [Member] = []
        var departed: [(id: Int64, position: Int)] = []
        var inserted = false
        var finalRecords: [SectionRecord] = []
        var sectionChanges: [ChangeBatch.SectionChange] = []
        var newStarts: [Int] = []
        do {

        let rows = try reader.finish(read)
        if reader.wasSplit { statistics.splitReads += 1 }
        members.reserveCapacity(rows.count)
        var matched = Set<Int64>(minimumCapacity: rows.count)
        for (id, values) in rows where plan.matches(values) {
            matched.insert(id)
            members.append(Member(id: id, values: values, key: plan.prefix(of: values, short: short),
                                  oldPosition: oldPosition[id] ?? -1))
        }
        for id in gone { departed.append((id, oldPosition[id]!)) }
        for id in evaluate where !matched.contains(id) {
            if let p = oldPosition[id] { departed.append((id, p)) }
        }
        if members.isEmpty && departed.isEmpty {
            // Nothing was taken out. Only plain updates: nothing moves. (None at all: the results did not change.)
            if plainOld.isEmpty { return nil }
            let updates = plainOld.sorted { $0.position < $1.position }.map { u -> ChangeBatch.ObjectChange in
                let ip = FetchedResultsController.indexPath(of: u.position, starts: oldStarts)
                return ChangeBatch.ObjectChange(change: .update, id: ObjectID(entity: root, rowID: u.id), from: ip, to: ip)
            }
            return ChangeBatch(objectChanges: updates, counts: oldRecords.map(\.count), sectionNames: oldRecords.map(\.name))
        }

        // 4. Rank each member among the unchanged rows (binary search on prefixes, then full values).
        var probeValues: [Int64: [StoreValue]] = [:]
        var pending: [(member: Int, lo: Int, hi: Int)] = []
        for i in members.indices {
            let (lo, hi) = narrow(members[i], in: list)
            if lo == hi { members[i].rank = lo } else { pending.append((i, lo, hi)) }
        }
        if !pending.isEmpty {
            var wanted: [(id: Int64, position: Int)] = []
            for p in pending where p.hi - p.lo <= 64 {
                for pos in p.lo..<p.hi { wanted.append((list.id(at: pos), pos)) }
            }
            if !wanted.isEmpty { try loadProbes(wanted, into: &probeValues, list: list, plan: plan) }
            for p in pending {
                members[p.member].rank = try rank(members[p.member], lo: p.lo, hi: p.hi, list: list, probes: &probeValues, plan: plan)
            }
        }
        members.sort { a, b in
            a.rank != b.rank ? a.rank < b.rank : plan.compareRows(a.values, a.id, b.values, b.id) < 0
        }

        // 5. Insert members in ascending final position; count them into their sections.
        var ranked: [(id: Int64, key: SortPrefix, rank: Int)] = []
        ranked.reserveCapacity(members.count)
        for j in members.indices {
            members[j].newPosition = members[j].rank + j
            ranked.append((members[j].id, members[j].key, members[j].rank))
            if hasSections {
                let v = members[j].values[plan.sectionValueIndex!]
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
        list.insert(ranked: ranked)
        inserted = true

        // 6. Section changes, by section value (sections never reorder).
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
        var total = 0
        newStarts.reserveCapacity(finalRecords.count)
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

        } catch {
            // Put the list back as it was: take the members out again, then the removed rows back in.
            if inserted {
                var positions = members.map(\.newPosition)
                positions.sort()
                _ = list.remove(sortedPositions: positions)
            }
            var back: [(id: Int64, key: SortPrefix, rank: Int)] = []
            back.reserveCapacity(removedRows.count)
            for (j, r) in removedRows.enumerated() { back.append((r.id, r.key, removedOldPositions[j] - j)) }
            list.insert(ranked: back)
            throw error
        }
        sectionRecords = finalRecords
        invalidateStarts()
        generation += 1
        loader.removeAll()

        // 7. Moves or updates: an object that keeps its section and its place among
        //    the unchanged rows stays (an update); of several such in one gap the
        //    longest increasing run stays and the others move. Entries are built
        //    from flat positions and ordered by them (the order of index paths).
        func ip(_ p: Int, _ starts: [Int]) -> IndexPath { FetchedResultsController.indexPath(of: p, starts: starts) }
        func objectID(_ id: Int64) -> ObjectID { ObjectID(entity: root, rowID: id) }
        departed.sort { $0.position < $1.position }
        var objectChanges: [ChangeBatch.ObjectChange] = []
        objectChanges.reserveCapacity(departed.count + members.count + plainOld.count)
        for d in departed {
            objectChanges.append(.init(change: .delete, id: objectID(d.id), from: ip(d.position, oldStarts), to: nil))
        }
        var candidates: [Int] = []     // members that may stay, by index (ascending new position)
        for (j, m) in members.enumerated() where m.oldPosition >= 0 {
            let oldRank = m.oldPosition - lowerBound(removedOldPositions, m.oldPosition)
            let sameSection = !hasSections || StoreValue.compare(
                oldRecords[FetchedResultsController.sectionIndex(of: m.oldPosition, starts: oldStarts)].value,
                m.values[plan.sectionValueIndex!]) == 0
            if sameSection && oldRank == m.rank { candidates.append(j) }
        }
        var staying = [Bool](repeating: false, count: members.count)
        for k in longestIncreasingSubsequence(candidates.map { members[$0].oldPosition }) { staying[candidates[k]] = true }
        for m in members where m.oldPosition < 0 {
            objectChanges.append(.init(change: .insert, id: objectID(m.id), from: nil, to: ip(m.newPosition, newStarts)))
        }
        for (j, m) in members.enumerated() where m.oldPosition >= 0 && !staying[j] {
            objectChanges.append(.init(change: .move, id: objectID(m.id), from: ip(m.oldPosition, oldStarts), to: ip(m.newPosition, newStarts)))
        }
        var updates: [(new: Int, old: Int, id: Int64)] = []
        updates.reserveCapacity(candidates.count + plainOld.count)
        for j in candidates where staying[j] { updates.append((members[j].newPosition, members[j].oldPosition, members[j].id)) }
        for u in plainOld { updates.append((list.position(of: u.id)!, u.position, u.id)) }
        updates.sort { $0.new < $1.new }
        for u in updates {
            objectChanges.append(.init(change: .update, id: objectID(u.id), from: ip(u.old, oldStarts), to: ip(u.new, newStarts)))
        }
        return ChangeBatch(sectionChanges: sectionChanges, objectChanges: objectChanges,
                           counts: finalRecords.map(\.count), sectionNames: finalRecords.map(\.name))
    }

    /// Binary search with prefixes only: `lo == hi` is the rank; otherwise the
    /// rank lies in `lo...hi` and needs full values.
    ///
    /// Keys run in list order, so the rows whose prefix equals the member's form
    /// one block, found with two binary searches; only inside it can the
    /// prefix leave the order undecided (when the prefixes are inexact).
    private func narrow(_ m: Member, in list: borrowing OrderedIDList) -> (Int, Int) {
        guard m.key.isValid, list.hasKeys else { return (0, list.count) }
        let key = m.key
        guard let (lower, isEqual) = list.sequence.lowerBound(bits: key) else { return narrowStopping(m, in: list) }
        if !isEqual { return (lower, lower) }     // the usual case: no other row shares the prefix
        // The block of equal prefixes is short: walk it.
        var upper = lower
        while upper < list.count {
            let k = list.key(at: upper)
            guard k.isValid else { return narrowStopping(m, in: list) }
            if SortPrefix.compareBits(k, key) != 0 { break }
            upper += 1
            if upper - lower > 64 {
                guard let (u, _) = list.sequence.lowerBound(bits: key, pastEqual: true) else {
                    return narrowStopping(m, in: list)
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
    private func narrowStopping(_ m: Member, in list: borrowing OrderedIDList) -> (Int, Int) {
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
    private func rank(_ m: Member, lo: Int, hi: Int, list: borrowing OrderedIDList,
                      probes: inout [Int64: [StoreValue]], plan: FetchPlan) throws -> Int {
        var lo = lo, hi = hi
        while lo < hi {
            let mid = (lo + hi) / 2
            let id = list.id(at: mid)
            let key = list.key(at: mid)
            var order: Int
            if let c = SortPrefix.compare(m.key, key) {
                order = c != 0 ? c : (m.id < id ? -1 : 1)
            } else {
                if probes[id] == nil { try loadProbes([(id, mid)], into: &probes, list: list, plan: plan) }
                guard let values = probes[id] else { throw InconsistentSnapshot() }
                order = plan.compareRows(m.values, m.id, values, id)
            }
            if order > 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Reads the values of probe rows (at known positions); a row whose values no longer
    /// give its stored prefix means another writer got in between.
    private func loadProbes(_ rows: [(id: Int64, position: Int)], into probes: inout [Int64: [StoreValue]],
                            list: borrowing OrderedIDList, plan: FetchPlan) throws {
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

    /// The values of ``FetchPlan/valueKeyPaths`` for the given rows (one query), by id.
    func readValues(_ ids: [Int64], plan: FetchPlan) throws -> [Int64: [StoreValue]] {
        var out: [Int64: [StoreValue]] = [:]
        out.reserveCapacity(ids.count)
        for (id, values) in try readRows(ids, plan: plan) { out[id] = values }
        return out
    }

    /// The values of ``FetchPlan/valueKeyPaths`` for the given rows, in the order
    /// SQLite returns them; rows that no longer exist are missing (see ``RowValuesReader``).
    func readRows(_ ids: [Int64], plan: FetchPlan) throws -> [(id: Int64, values: [StoreValue])] {
        var reader = RowValuesReader(store: context.store, plan: plan, splits: splitsLargeReads)
        let rows = try reader.read(ids)
        if reader.wasSplit { statistics.splitReads += 1 }
        return rows
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
