import FetchedResults
import Foundation
import SQLiteStore

/// The `/` search of a ``ListScreen``: the objects of the shown results that
/// match the tab's search predicate, found by a controller over the same
/// sort and sections narrowed by it, never by SQL of the app's own.
///
/// Both controllers order their objects the same way, so the matches'
/// positions in the shown results rise with their positions among the
/// matches: the next match after a position is a binary search over the
/// matches (O(log M · log N)) and "3 of 17" is exact, without faulting in
/// any object.
///
///     let key = ListSearch.Key(controller: ObjectIdentifier(controller), batch: adapter.batchCount)
///     let search = try ListSearch(text: "first", predicate: namePredicate, tab: tab,
///                                 filter: nil, context: context, key: key)
///     if let match = search.match(in: controller, from: 0, forward: true) {
///         table.selectRow(at: controller.indexPath(atPosition: match.position))
///         status = "\(match.ordinal) of \(search.count)"
///     }
struct ListSearch {
    /// The text typed.
    let text: String
    /// The matches, in the shown results' order (nil for an in-memory search).
    let matches: FetchedResultsController?
    /// An in-memory search's matches (``ListTab/searchObjectIDs``): their positions
    /// in the shown results when it was made, ascending.
    let positions: [Int]
    /// The controller and batch count it was made for (a change makes it stale).
    let key: Key

    /// What a search was made for: the shown controller and how many batches it had applied.
    struct Key: Equatable {
        var controller: ObjectIdentifier
        var batch: Int
    }

    /// A match: where it is among the shown results, and its 1-based rank among the matches.
    struct Match: Equatable {
        var position: Int
        var ordinal: Int
    }

    /// Fetches the matches of `predicate` (narrowed by `filter`) in `tab`'s order.
    init(
        text: String,
        predicate: FetchPredicate,
        tab: ListTab,
        filter: FetchPredicate?,
        context: ObjectContext,
        key: Key
    ) throws {
        self.text = text
        self.key = key
        let narrowed = filter.map { $0.and(predicate) } ?? predicate
        var request = tab.fetchRequest(filter: narrowed)
        request.fetchBatchSize = max(1, tab.fetchBatchSize)
        let matches = FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: tab.sectionNameKeyPath
        )
        try matches.performFetch()
        self.matches = matches
        positions = []
    }

    /// The matches `ids` found in memory (``ListTab/searchObjectIDs``), kept to those
    /// `controller` shows, in its order.
    init(text: String, matching ids: [ObjectID], in controller: FetchedResultsController, key: Key) {
        self.text = text
        self.key = key
        matches = nil
        positions = ids.compactMap { controller.position(ofObject: $0) }.sorted()
    }

    /// How many objects match.
    var count: Int { matches?.numberOfObjects ?? positions.count }

    /// The position in `controller` of match number `index` (0-based).
    private func position(ofMatch index: Int, in controller: FetchedResultsController) -> Int? {
        guard let matches else { return positions[index] }  // made for this controller (key)
        return controller.position(ofObject: matches.fetchedObjects.objectID(at: index))
    }

    /// The first match at or after (`forward`) / at or before `start`, wrapping around;
    /// nil when nothing in `controller` matches.
    func match(in controller: FetchedResultsController, from start: Int, forward: Bool) -> Match? {
        let total = controller.numberOfObjects
        let count = self.count
        guard total > 0, count > 0 else { return nil }
        let begin = ((start % total) + total) % total
        var lo = 0
        var hi = count
        while lo < hi {  // the first match whose position is >= begin (> begin backwards)
            let mid = (lo + hi) / 2
            guard let p = position(ofMatch: mid, in: controller) else {
                return staleMatch(in: controller, from: begin, forward: forward)
            }
            if forward ? p < begin : p <= begin { lo = mid + 1 } else { hi = mid }
        }
        let index = forward ? (lo < count ? lo : 0) : (lo > 0 ? lo - 1 : count - 1)
        guard let p = position(ofMatch: index, in: controller) else {
            return staleMatch(in: controller, from: begin, forward: forward)
        }
        return Match(position: p, ordinal: index + 1)
    }

    /// The match when some matches are no longer in `controller` (it changed since
    /// the search): the positions of those still there, sorted, searched in full.
    private func staleMatch(in controller: FetchedResultsController, from begin: Int, forward: Bool) -> Match? {
        let sorted = (0..<count).compactMap { position(ofMatch: $0, in: controller) }.sorted()
        guard !sorted.isEmpty else { return nil }
        let index =
            forward
            ? (sorted.firstIndex { $0 >= begin } ?? 0)
            : (sorted.lastIndex { $0 <= begin } ?? sorted.count - 1)
        return Match(position: sorted[index], ordinal: index + 1)
    }
}
