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
    package func process(_ changes: ChangeSet) throws -> ChangeBatch? {
        guard hasFetched, let plan else {
            // A first fetch in the background may have read the rows before this change.
            backgroundQuery?.refetchAfter = true
            return nil
        }
        let root = plan.entity.name
        if (changes.isReset || tracking.isStale) && refetchesInBackgroundOnReset && plan.request.fetchLimit == 0
            && plan.request.fetchOffset == 0,
            startBackgroundRefetch(isReset: changes.isReset) == .started
        {
            return nil
        }
        if changes.isReset || tracking.isStale || plan.request.fetchLimit > 0 || plan.request.fetchOffset > 0 {
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

    /// The incremental path, phase by phase (see ``IncrementalBatchBuilder``).
    ///
    /// The id list is moved out of the controller while the batch is built, so
    /// that the hot loops work on a uniquely referenced value; it is moved back
    /// on every exit.
    func applyIncrementally(_ changes: ChangeSet, plan: FetchPlan) throws -> ChangeBatch? {
        guard let classified = IncrementalBatchBuilder.classify(changes, plan: plan, list: list) else { return nil }
        let keyless = !list.hasKeys && placesWithoutKeys(classified.evaluate.count)
        if !classified.evaluate.isEmpty && !list.hasKeys && !keyless {
            try ensureKeys(plan, changing: classified.evaluate.union(classified.gone))
        }
        defer { if keyless { restartPrefixJobAfterKeylessBatch() } }
        var builder = IncrementalBatchBuilder(
            controller: self,
            plan: plan,
            changes: classified,
            written: changes.writtenRows,
            list: takeList()
        )
        defer { list = builder.list }
        builder.detachChangedRows()
        do {
            guard try builder.collectMembers() else { return builder.plainUpdatesBatch() }
            try builder.rankMembers()
            builder.reinsertMembers()
            try builder.diffSections()
        } catch {
            builder.restoreList()
            throw error
        }
        sectionRecords = builder.finalRecords
        invalidateStarts()
        generation += 1
        loader.removeAll()
        return builder.emitBatch()
    }

    /// Change sets of at most this many rows to place are placed without the
    /// sort-key prefixes while those are not built: each row's place is a binary
    /// search reading about log₂ N rows' values (20 single-row reads at a million
    /// rows, well under a millisecond), where building the prefixes first is a pass
    /// over every row (0.5–1 s at a million).
    package static let keylessChangeLimit = 16

    /// Whether a change set with `count` rows to place is placed without prefixes:
    /// small enough, and no finished background build waiting to be installed.
    func placesWithoutKeys(_ count: Int) -> Bool {
        guard count > 0, count <= FetchedResultsController.keylessChangeLimit else { return false }
        if let prefix = prefixJob, prefix.job.isFinished, !prefix.job.isCancelled { return false }
        return true
    }

    /// After a batch placed without prefixes the results moved, so a background build
    /// of the older results is of no use: start one over the current results (the
    /// next large change set, or a later small one, picks it up).
    func restartPrefixJobAfterKeylessBatch() {
        guard !list.hasKeys, !context.store.database.isInTransaction else { return }
        if let prefix = prefixJob, prefix.generation != generation {
            prefix.job.cancel()
            prefixJob = nil
        }
        _ = startPrefixJob()  // a change came: deferred no longer
    }

    /// Moves the id list out of the controller, leaving an empty one.
    private func takeList() -> OrderedIDList {
        let taken = list
        list = OrderedIDList()
        return taken
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
        var reader = RowValuesReader(
            store: context.store,
            plan: plan,
            splits: splitsLargeReads,
            waitsForOtherThread: splitReadsWaitForOtherThread
        )
        let rows = try reader.read(ids)
        if reader.wasSplit { statistics.splitReads += 1 }
        return rows
    }
}
