import Foundation
import SQLiteStore

extension FetchedResultsController {
    /// Refetches and diffs the new results against the current ones, applies
    /// and delivers the batch (when not empty, or always after a reset), and returns it.
    ///
    /// This is the fallback after a store reset (and for requests with a
    /// limit or offset); the benchmark also uses it as the baseline that
    /// incremental processing must beat. Deletes are old − new, inserts
    /// new − old; among the surviving objects, those that changed section or
    /// fall outside a longest increasing subsequence of old positions move.
    /// Objects in `updated` that stay in place are reported as updates.
    /// It runs on the calling thread; ``BackgroundWork/refetch`` does the same
    /// work on the store's second connection without blocking it.
    ///
    ///     let batch = try controller.refetchAndDiff()
    @discardableResult
    package func refetchAndDiff(updated: Set<ObjectID> = [], isReset: Bool = false) throws -> ChangeBatch {
        guard hasFetched else {
            try performFetch()
            return ChangeBatch(
                counts: sectionRecords.map(\.count),
                sectionNames: sectionRecords.map(\.name),
                isReset: isReset
            )
        }
        let plan = try makePlan()
        let (newList, newRecords) = try runFetch(plan)
        let batch = FetchedResultsController.diff(
            old: list.sequence,
            oldRecords: sectionRecords,
            oldStarts: sectionStarts,
            new: newList.sequence,
            newRecords: newRecords,
            hasSections: plan.sectionExpression != nil,
            root: plan.entity.name,
            updated: updated,
            isReset: isReset
        )
        install(refetched: newList, records: newRecords, plan: plan)
        if !batch.isEmpty || isReset { deliver(batch) }
        return batch
    }

    /// Replaces the results with refetched ones (the batch that leads there is delivered by the caller).
    func install(refetched newList: OrderedIDList, records newRecords: [SectionRecord], plan: FetchPlan) {
        statistics.refetches += 1
        cancelPrefixJob()
        self.plan = plan
        list = newList
        keysAreShort = false
        sectionRecords = newRecords
        invalidateStarts()
        generation += 1
        loader.removeAll()
        tracking.isStale = false
    }

    /// The batch that turns the old results into the new ones (see `refetchAndDiff(updated:isReset:)`):
    /// a pure function of the two, so that it can run on another thread.
    static func diff(
        old oldSequence: IDSequence,
        oldRecords: [SectionRecord],
        oldStarts: [Int],
        new newSequence: IDSequence,
        newRecords: [SectionRecord],
        hasSections: Bool,
        root: String,
        updated: Set<ObjectID>,
        isReset: Bool
    ) -> ChangeBatch {
        var newStarts: [Int] = []
        var total = 0
        for r in newRecords {
            newStarts.append(total)
            total += r.count
        }

        // Positions by id, old and new.
        let oldPositions = Self.positionMap(oldSequence)
        let newPositions = Self.positionMap(newSequence)

        var objectChanges: [ChangeBatch.ObjectChange] = []
        var position = 0
        oldSequence.forEachID { id in
            if newPositions[id] == nil {
                objectChanges.append(
                    .init(
                        change: .delete,
                        id: ObjectID(entity: root, rowID: id),
                        from: FetchedResultsController.indexPath(of: position, starts: oldStarts),
                        to: nil
                    )
                )
            }
            position += 1
        }
        var inserts: [ChangeBatch.ObjectChange] = []
        var moves: [ChangeBatch.ObjectChange] = []
        var updates: [ChangeBatch.ObjectChange] = []
        var survivors: [(id: Int64, old: Int, new: Int)] = []
        position = 0
        newSequence.forEachID { id in
            if let old = oldPositions[id] {
                let oldIP = FetchedResultsController.indexPath(of: Int(old), starts: oldStarts)
                let newIP = FetchedResultsController.indexPath(of: position, starts: newStarts)
                let sameSection =
                    !hasSections
                    || StoreValue.compare(oldRecords[oldIP.section].value, newRecords[newIP.section].value) == 0
                if sameSection {
                    survivors.append((id, Int(old), position))
                } else {
                    moves.append(.init(change: .move, id: ObjectID(entity: root, rowID: id), from: oldIP, to: newIP))
                }
            } else {
                inserts.append(
                    .init(
                        change: .insert,
                        id: ObjectID(entity: root, rowID: id),
                        from: nil,
                        to: FetchedResultsController.indexPath(of: position, starts: newStarts)
                    )
                )
            }
            position += 1
        }
        let staying = longestIncreasingSubsequence(survivors.map(\.old))
        var stays = [Bool](repeating: false, count: survivors.count)
        for i in staying { stays[i] = true }
        for (i, s) in survivors.enumerated() {
            let id = ObjectID(entity: root, rowID: s.id)
            let from = FetchedResultsController.indexPath(of: s.old, starts: oldStarts)
            let to = FetchedResultsController.indexPath(of: s.new, starts: newStarts)
            if !stays[i] {
                moves.append(.init(change: .move, id: id, from: from, to: to))
            } else if updated.contains(id) {
                updates.append(.init(change: .update, id: id, from: from, to: to))
            }
        }
        func byTarget(_ a: ChangeBatch.ObjectChange, _ b: ChangeBatch.ObjectChange) -> Bool {
            a.to!.lexicographicallyPrecedes(b.to!)
        }
        objectChanges += inserts + moves.sorted(by: byTarget) + updates

        var sectionChanges: [ChangeBatch.SectionChange] = []
        if hasSections {
            var deletes: [ChangeBatch.SectionChange] = []
            var insertsS: [ChangeBatch.SectionChange] = []
            var newByValue: [StoreValue: Int] = [:]
            for (j, r) in newRecords.enumerated() { newByValue[Self.sectionIdentity(r.value)] = j }
            var oldByValue: [StoreValue: Int] = [:]
            for (i, r) in oldRecords.enumerated() {
                oldByValue[Self.sectionIdentity(r.value)] = i
                if newByValue[Self.sectionIdentity(r.value)] == nil {
                    deletes.append(.init(change: .delete, index: i, name: r.name))
                }
            }
            for (j, r) in newRecords.enumerated() where oldByValue[Self.sectionIdentity(r.value)] == nil {
                insertsS.append(.init(change: .insert, index: j, name: r.name))
            }
            sectionChanges = deletes + insertsS
        }
        return ChangeBatch(
            sectionChanges: sectionChanges,
            objectChanges: objectChanges,
            counts: newRecords.map(\.count),
            sectionNames: newRecords.map(\.name),
            isReset: isReset
        )
    }

    /// A hashable stand-in for a section value under SQLite's equality (1 and 1.0 are one section).
    static func sectionIdentity(_ v: StoreValue) -> StoreValue {
        if case .real(let d) = v, let i = Int64(exactly: d) { return .integer(i) }
        return v
    }

    /// id → position for a whole sequence.
    static func positionMap(_ sequence: IDSequence) -> RowIDMap {
        var minID = Int64.max
        var maxID = Int64.min
        sequence.forEachID { id in
            if id < minID { minID = id }
            if id > maxID { maxID = id }
        }
        var map = RowIDMap(minID: minID, maxID: maxID, count: sequence.count)
        var p: Int32 = 0
        sequence.forEachID { id in
            map[id] = p
            p += 1
        }
        return map
    }
}
