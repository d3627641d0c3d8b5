import SQLiteStore

/// A first screen before the fetch: whether ``performFetch()`` will be quick (its results
/// cache is valid), and when it will not, the first rows of the results at once.
///
/// On a large store a cold ``performFetch()`` reads and sorts every id (about a second
/// for a million rows). An app that wants to draw at once asks `hasValidCache()`; when
/// it is false, it draws `previewFirstObjects(limit:)` (milliseconds, the rows are read
/// from an index when the first sort has one), then calls ``performFetch()`` and shows
/// the real results:
///
///     if controller.hasValidCache() {
///         try controller.performFetch()          // reads the cache: fast
///         show(controller)
///     } else {
///         let rows = try controller.previewFirstObjects(limit: screenRows)
///         show(rows)                             // a provisional first page, no counts yet
///         try controller.performFetch()          // the full query
///         show(controller)
///     }
extension FetchedResultsController {
    /// Whether ``performFetch()`` would read its results from the cache (<doc:ResultsCaches>): the
    /// controller has a valid ``cacheName``, and a cache file of that name exists written
    /// for this request, model and the store's current data. Reads the file's header
    /// only (not the ids); false when there is no cache name, no file, the request is
    /// invalid, or anything changed since the cache was written.
    ///
    /// It costs about what the cache check in ``performFetch()`` costs (a row count of
    /// the entity's table), and changes nothing.
    ///
    ///     let quick = controller.hasValidCache()
    ///     if quick { try controller.performFetch() }   // reads the cache (unless the store changed in between)
    package func hasValidCache() -> Bool {
        guard let plan = try? makePlan(), let cache = cacheIdentity(for: plan) else { return false }
        return ResultsCache.hasEntry(name: cache.name, directory: cacheDirectory, fingerprint: cache.fingerprint)
    }

    /// The first `limit` objects of the results (fewer when there are fewer), in the order
    /// ``performFetch()`` gives them — the same predicate, sorts and id tie-breaker — each
    /// with its section's name and index title, read without running the full fetch and
    /// without changing the controller (``fetchedObjects`` and ``sections`` stay as they
    /// are, nothing is tracked, no cache is written).
    ///
    /// Why: a provisional first page while the full fetch has not run yet (see the type's
    /// overview); section sizes are not known until then.
    ///
    /// How: the fetch's own query cut with `LIMIT`. When the order starts with a descending
    /// sort, the query is first narrowed to the rows whose value is at least the
    /// `limit`-th largest (one probe `LIMIT 1 OFFSET limit − 1`), which SQLite reads from
    /// the sort's index (`details.publishedOn DESC` on a million books: a few milliseconds
    /// instead of sorting every row). Without such an index, or with an ascending first
    /// sort, SQLite still scans every row but keeps only the first `limit` (no full sort).
    /// A request with a `fetchLimit` or `fetchOffset` runs its (limited) fetch query.
    ///
    /// One case can differ from the fetch: a derived section key computed from the first
    /// sort's attribute alone (the year of a publication date), with a descending sort. The
    /// preview then follows the request's sorts, as ``performFetch()`` does whenever the
    /// section values come out in order along them (a year of a date always does); when
    /// the preview's own rows show they do not, it orders by the section first, as the
    /// fetch then does. Data that breaks the order only further down (a derivation that is
    /// not order-preserving) makes the fetch order by section and the preview differ —
    /// which is why it is provisional: show ``performFetch()``'s results when it returns.
    ///
    ///     let first = try controller.previewFirstObjects(limit: 20)
    ///     // [Book/948398 in "2025", Book/163453 in "2025", …]
    ///
    /// - Throws: what ``performFetch()`` throws for an invalid request
    ///   (``FetchedResultsError``, `PredicateError`), and SQLite's errors.
    package func previewFirstObjects(limit: Int) throws -> [FetchedPreviewRow] {
        guard limit > 0 else { return [] }
        let plan = try makePlan()
        let rows = try context.store.database.read { try previewRows(plan, limit: limit) }
        var titles: [String: String?] = [:]
        return rows.map { id, value in
            let name = plan.sectionExpression == nil ? "" : FetchedResultsController.sectionName(for: value)
            let title: String?
            if let known = titles[name] {
                title = known
            } else {
                title = plan.sectionExpression == nil ? nil : sectionIndexTitle(forSectionName: name)
                titles[name] = title
            }
            return FetchedPreviewRow(
                objectID: ObjectID(entity: fetchRequest.entityName, rowID: id),
                sectionName: name,
                sectionIndexTitle: title
            )
        }
    }

    /// The preview's ids and section values (see `previewFirstObjects(limit:)` for the strategy).
    private func previewRows(_ plan: FetchPlan, limit: Int) throws -> [(Int64, StoreValue)] {
        if plan.request.fetchLimit > 0 || plan.request.fetchOffset > 0 {
            // Exactly the fetch (it is bounded by fetchLimit, and its order choice depends on all its rows).
            let (list, sections) = try runFetch(plan)
            let ids = list.sequence.ids(in: 0..<min(limit, list.count))
            var out: [(Int64, StoreValue)] = []
            out.reserveCapacity(ids.count)
            var section = 0
            var left = sections.first?.count ?? 0
            for id in ids {
                while left == 0 && section + 1 < sections.count {
                    section += 1
                    left = sections[section].count
                }
                out.append((id, sections.isEmpty ? .null : sections[section].value))
                left -= 1
            }
            return out
        }
        if plan.hasPrependedSectionSort {
            // The cheaper order the fetch tries first, narrowed by its first sort when descending.
            if plan.shortEncoder != nil, !plan.sorts[1].ascending, plan.sorts[1].nulls == .least,
                let rows = try narrowedPreview(plan, limit: limit, requestSortsOnly: true, sortIndex: 1),
                isMonotonic(rows, plan)
            {
                return rows
            }
        } else if !plan.sorts[0].ascending, plan.sorts[0].sortsLast == Optional.none, plan.sorts[0].nulls == .least,
            let rows = try narrowedPreview(plan, limit: limit, requestSortsOnly: false, sortIndex: 0)
        {
            return rows
        }
        // The fetch's full order cut short: exact (when the fetch uses the cheaper order, both orders agree).
        return try previewQuery(
            plan,
            sql: plan.previewSQL(limit: limit, requestSortsOnly: false, narrowedBy: nil),
            arguments: plan.fetchArguments
        )
    }

    /// The first `limit` rows among those at or above the `limit`-th value of the descending
    /// sort `sortIndex`; nil when fewer than `limit` rows have a value for it.
    private func narrowedPreview(
        _ plan: FetchPlan,
        limit: Int,
        requestSortsOnly: Bool,
        sortIndex: Int
    ) throws -> [(Int64, StoreValue)]? {
        let probe = try context.store.database.statement(plan.previewThresholdSQL(sortIndex: sortIndex, limit: limit))
        defer { probe.reset() }
        try probe.bind(plan.fetchArguments)
        guard try probe.step() else { return nil }
        let threshold = probe.value(at: 0)
        let rows = try previewQuery(
            plan,
            sql: plan.previewSQL(limit: limit, requestSortsOnly: requestSortsOnly, narrowedBy: sortIndex),
            arguments: plan.fetchArguments + [threshold]
        )
        // At least `limit` rows are at or above the threshold, unless a value compares
        // differently in the probe and the query: then do not trust the narrowing.
        return rows.count == limit ? rows : nil
    }

    private func previewQuery(_ plan: FetchPlan, sql: String, arguments: [StoreValue]) throws -> [(Int64, StoreValue)] {
        let statement = try context.store.database.statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [(Int64, StoreValue)] = []
        let hasSection = plan.sectionExpression != nil
        while try statement.step() {
            rows.append((statement.int64(at: 0), hasSection ? statement.value(at: 1) : .null))
        }
        return rows
    }

    /// Whether the section values never go against the section order (as ``runFetch(_:)`` requires of the cheaper order).
    private func isMonotonic(_ rows: [(Int64, StoreValue)], _ plan: FetchPlan) -> Bool {
        guard rows.count > 1 else { return true }
        for i in 1..<rows.count {
            if plan.sectionOrder(rows[i].1, rows[i - 1].1) < 0 { return false }
        }
        return true
    }
}
