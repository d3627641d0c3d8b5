import Foundation
import SQLiteStore

extension FetchedResultsController {
    /// Fetches from `rows` — every row of the table, already in the request's order — instead
    /// of having SQLite sort the table: what ``performFetch()`` would install, without its
    /// query. A copy that wrote the rows in that order (or sorted them as they arrived, on
    /// another core) saves the sort, the largest part of a first fetch of millions of rows.
    ///
    /// It applies to a fetch of every row (no predicate, limit or offset) sorted by `rows`'
    /// attribute alone, a stored one, byte for byte, in one section or in sections derived
    /// from that attribute (``FetchPlan/sectionFromSortValue``: the day of a date-time).
    /// Each row is checked against the one before it (SQLite's BINARY order of the texts,
    /// NULL where the sort's `FetchSort.nulls` puts it, then the id ascending), and the sections must come out in order
    /// as for the query. Returns false, changing nothing, when any of this does not hold: call
    /// ``performFetch()`` then. The caller vouches that `rows` holds every row of the table
    /// with the attribute's value as the store holds it.
    ///
    ///     if try !controller.performFetch(presorted: rows) { try controller.performFetch() }
    package func performFetch(presorted rows: PresortedRows) throws -> Bool {
        let plan = try makeValidatedPlan()
        guard FetchedResultsController.canFetch(rows, plan: plan),
            let fetched = FetchedResultsController.results(of: rows, plan: plan)
        else { return false }
        self.plan = plan
        lastFetchUsedCache = false
        install(fetched: fetched, untrackedSince: try? context.store.historyPosition())
        return true
    }

    /// Whether `plan` is a fetch that `rows` can stand for (see ``performFetch(presorted:)``).
    static func canFetch(_ rows: PresortedRows, plan: FetchPlan) -> Bool {
        let request = plan.request
        guard request.predicate == nil, request.fetchLimit == 0, request.fetchOffset == 0,
            request.sortDescriptors.count == 1, let sort = request.sortDescriptors.first,
            sort.keyPath == rows.keyPath, sort.ascending == rows.ascending, sort.comparison == .binary,
            (sort.nulls == .greatest) == rows.nullsGreatest,
            plan.entity.attribute(named: sort.keyPath) != nil
        else { return false }
        return plan.sectionExpression == nil || (plan.sectionFromSortValue != nil && rows.holdsValues)
    }

    /// The ids and sections of `rows` as ``runFetch(_:)`` reads them; nil when a row is out of
    /// order or the sections are not monotonic.
    static func results(of rows: PresortedRows, plan: FetchPlan) -> (OrderedIDList, [SectionRecord])? {
        var builder = OrderedIDList.Builder()
        var sections = plan.sectionFromSortValue.map { SortValueSections(plan: plan, derive: $0) }
        let ascending = rows.ascending
        let nullIsAbove = rows.nullsGreatest ? 1 : -1
        let deciding = plan.sectionFromSortValue?.decidingBytes ?? 0
        let complete: Bool = rows.withUnsafeRows { ids, text, offsets, isNull in
            var previous: (bytes: UnsafeRawBufferPointer?, id: Int64)?
            for row in 0..<rows.count {
                let id = ids[row]
                let bytes: UnsafeRawBufferPointer? =
                    isNull[row]
                    ? nil : UnsafeRawBufferPointer(rebasing: text[Int(offsets[row])..<Int(offsets[row + 1])])
                var inCurrentSection = false
                if let previous {
                    let order: Int
                    if let last = previous.bytes, let bytes {
                        let text = SortValueRun.compare(last, with: bytes)
                        order = text.order
                        inCurrentSection = text.inOneSection(deciding: deciding)
                    } else {
                        // NULL below every text (SQLite's order), or above it (PostgreSQL's).
                        order = previous.bytes == nil ? (bytes == nil ? 0 : nullIsAbove) : -nullIsAbove
                    }
                    guard order == 0 ? previous.id < id : (ascending ? order < 0 : order > 0) else { return false }
                }
                previous = (bytes, id)
                builder.append(id)
                if sections == nil { continue }
                if inCurrentSection {
                    sections!.countInCurrent()
                    continue
                }
                guard sections!.add(bytes.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null) else {
                    return false
                }
            }
            return true
        }
        guard complete else { return nil }
        let records = sections?.finish() ?? [SectionRecord(value: .null, name: "", count: rows.count)]
        return (builder.finish(), records)
    }
}
