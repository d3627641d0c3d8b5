import Foundation
import SQLiteStore

extension GroupedResultsController {
    /// Turns one change set into a batch, applies it and delivers it to ``onChange``; returns
    /// it (nil when no group changed, or when the batch comes later from the background).
    ///
    /// A reset (or a change set while the groups may be stale) counts every group again;
    /// anything else is counted from the rows it names: their groups now (one query) against
    /// the groups they were counted in.
    ///
    ///     try context.save()                        // observed already while tracking
    ///     let batch = try grouped.process(changes)  // or drive it by hand
    @discardableResult
    package func process(_ changes: ChangeSet) throws -> GroupChangeBatch? {
        guard hasFetched, let plan else {
            // A first count in the background may have read the rows before this change.
            background?.refetchAfter = true
            return nil
        }
        if changes.isReset || tracking.isStale {
            if refetchesInBackgroundOnReset, startBackgroundRefetch(isReset: changes.isReset) != .unavailable {
                return nil  // started, or tried again at the next poll
            }
            return try refetchAndDiff(isReset: changes.isReset)
        }
        if let running = background, running.kind == .refetch {
            running.refetchAfter = true  // it may have read the rows before this change
            return nil
        }
        let rows = changedRows(changes, plan: plan)
        guard !rows.isEmpty else { return nil }
        var delivered = try ensureMembership(plan)
        if let batch = try count(rows, plan: plan) { delivered = batch }
        statistics.incrementalBatches += 1
        return delivered
    }

    /// The ids of the root entity's rows that `changes` inserted, deleted, or updated in a key that matters.
    func changedRows(_ changes: ChangeSet, plan: GroupPlan) -> [Int64] {
        let root = plan.entity.name
        var ids: [Int64] = []
        for id in changes.inserted where id.entity == root { ids.append(id.rowID) }
        for id in changes.deleted where id.entity == root { ids.append(id.rowID) }
        for (id, keys) in changes.updated where id.entity == root && plan.isRelevant(keys) { ids.append(id.rowID) }
        return ids
    }

    /// Counts `ids` in the groups they hold now instead of those they were counted in; delivers the batch.
    private func count(_ ids: [Int64], plan: GroupPlan) throws -> GroupChangeBatch? {
        guard var rows = membership else { return nil }
        membership = nil  // uniquely referenced while it changes
        defer { membership = rows }
        var now: [Int64: StoreValue] = [:]
        now.reserveCapacity(ids.count)
        for row in try plan.readChangedRows(Array(Set(ids)), store: context.store) { now[row.id] = row.value }
        var deltas: [Int32: Int] = [:]
        for id in Set(ids) {
            let old = rows[id]
            let new = now[id].map { table.ordinal(for: $0) }
            guard old != new else { continue }
            if let old { deltas[old, default: 0] -= 1 }
            if let new { deltas[new, default: 0] += 1 }
            rows[id] = new
        }
        return deliver(table.apply(deltas), isReset: false)
    }

    /// Learns every counted row's group when it is not known yet: from the background pass
    /// when one runs (waiting for it), else by a pass here. The groups it finds replace the
    /// ones shown (the store may have moved since they were counted): that batch is delivered
    /// and returned.
    func ensureMembership(_ plan: GroupPlan) throws -> GroupChangeBatch? {
        guard membership == nil else { return nil }
        if let running = background, running.kind == .prepareForChanges {
            background = nil
            if case .membership(let found?) = try running.job.wait().get(), running.generation == generation {
                return install(found)
            }
        }
        guard let found = try plan.readMembership(on: context.store.database) else { return nil }
        return install(found)
    }

    /// Makes `found` the rows' groups and the groups shown; delivers the batch from the old groups.
    func install(_ found: GroupMembership) -> GroupChangeBatch? {
        statistics.membershipBuilds += 1
        let changes = table.replace(with: found.table)
        membership = found.rows
        generation += 1
        return deliver(changes, isReset: false)
    }

    /// Counts every group again with one `GROUP BY` on this thread, and delivers the batch
    /// from the old groups to the new (always after a reset, even when empty).
    @discardableResult
    package func refetchAndDiff(isReset: Bool) throws -> GroupChangeBatch? {
        guard hasFetched, let plan else {
            try performFetch()
            return nil
        }
        let groups = try plan.readGroups(on: context.store.database)
        return installRefetched(groups, isReset: isReset)
    }

    /// Replaces the groups with counted ones; the rows' groups are forgotten (learnt again when needed).
    func installRefetched(_ groups: [(value: StoreValue, count: Int)], isReset: Bool) -> GroupChangeBatch? {
        statistics.refetches += 1
        if let running = background, running.kind == .prepareForChanges {
            running.job.cancel()  // it reads rows older than these counts
            background = nil
        }
        let changes = table.replace(with: GroupTable(groups: groups))
        membership = nil
        generation += 1
        tracking.isStale = false
        pendingRefetch = nil
        return deliver(changes, isReset: isReset)
    }

    /// Learns every counted row's group now (one pass over the rows), rather than at the first
    /// change set: an app calls it when idle after its first screen, so that the first change
    /// is not slower. ``startInBackground(_:onFinish:)`` with ``BackgroundWork/prepareForChanges``
    /// does it on the store's second connection.
    ///
    ///     try grouped.performFetch()
    ///     try grouped.prepareForChanges()
    public func prepareForChanges() throws {
        guard hasFetched, let plan else { return }
        _ = try ensureMembership(plan)
    }
}
