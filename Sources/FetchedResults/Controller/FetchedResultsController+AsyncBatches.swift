import SQLiteStore

extension FetchedResultsController {
    /// The controller's change batches as an `AsyncSequence`, for code written
    /// with Swift concurrency (beside the ``delegate`` and ``onChange``).
    ///
    /// Asking for a sequence turns tracking on (rule 9 of <doc:ChangeBatches>), as setting a delegate
    /// does. Each batch the controller delivers afterwards — for its context's
    /// own saves and for other processes' changes it is told of
    /// (`processExternalChanges()`) — is yielded to every sequence made so far,
    /// in order, as the same ``ChangeBatch`` value ``onChange`` receives. The
    /// controller itself stays on the thread that drives it; only the values
    /// cross to the task that iterates. A sequence whose iteration ended is
    /// dropped when the next batch is delivered; tracking stops then if nothing
    /// else needs it.
    ///
    ///     let batches = controller.changeBatches()
    ///     let task = Task {
    ///         for await batch in batches {
    ///             print(batch.objectChanges.count, "changes; sections now", batch.counts)
    ///         }
    ///     }
    ///     try context.save()          // the controller yields this save's batch
    ///
    /// - Parameter bufferingPolicy: how many undelivered batches to keep when the
    ///   iterating task falls behind (default: all of them, so none is lost;
    ///   a batch applies only to the state after the previous one).
    public func changeBatches(
        bufferingPolicy: AsyncStream<ChangeBatch>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<ChangeBatch> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeBatch.self, bufferingPolicy: bufferingPolicy)
        batchContinuations.append(continuation)
        updateTracking()
        return stream
    }

    /// Yields a delivered batch to every live sequence and forgets the finished ones.
    func yieldToSequences(_ batch: ChangeBatch) {
        batchContinuations.removeAll { continuation in
            if case .terminated = continuation.yield(batch) { return true }
            return false
        }
        if batchContinuations.isEmpty { updateTracking() }
    }
}
