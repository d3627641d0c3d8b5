import Foundation
import FetchedResults
import SQLiteStore
import FetchedResultsUI

/// The `/` search: banks whose name contains the text (ASCII letters in any
/// case), found in SQL and then located in the controller's order.
///
/// Why not walk the objects: on a large store that would fault in every bank.
/// The matching ids come from one `LIKE` query; with a few thousand matches
/// or fewer their positions come from the controller's O(log N)
/// `indexPath(for:)` (which also gives "3 of 17"); with more, the rows are
/// walked by id from the selection until one matches (the next match is
/// then close by).
///
///     var search = BankSearch(text: "first")
///     try search.refresh(in: store)
///     let next = search.match(in: controller, from: position, forward: true)
struct BankSearch {
    /// Above this many matching banks, positions are found by walking.
    static let positionLimit = 5_000

    let text: String
    private(set) var matchingIDs: Set<Int64> = []
    /// Flat positions of the matches in the controller, ascending (nil: too many to list).
    private(set) var positions: [Int]?
    private var positionsKey: (ObjectIdentifier, Int)?

    init(text: String) { self.text = text }

    /// Runs the `LIKE` query.
    mutating func refresh(in store: Store) throws {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let table = store.model.entity(named: FailedBankModel.info)?.tableName ?? "failed_bank_info"
        let rows = try store.database.query("SELECT id FROM \(table) WHERE name LIKE ? ESCAPE '\\'",
                                            [.text("%" + escaped + "%")])
        matchingIDs = Set(rows.compactMap { $0.first?.int64 })
        positions = nil
        positionsKey = nil
    }

    /// Computes ``positions`` for `controller` (cached per controller and `generation`).
    mutating func locate(in controller: FetchedResultsController, generation: Int) {
        let key = (ObjectIdentifier(controller), generation)
        if let positionsKey, positionsKey == key { return }
        positionsKey = key
        guard matchingIDs.count <= BankSearch.positionLimit else { positions = nil; return }
        let flat = FlatIndex(controller)
        positions = matchingIDs.compactMap { rowID in
            controller.indexPath(for: ObjectID(entity: FailedBankModel.info, rowID: rowID)).map { flat.position(of: $0) }
        }.sorted()
    }

    /// The first match at or after (`forward`) / at or before `start` (0-based),
    /// wrapping around; nil when nothing in the results matches.
    func match(in controller: FetchedResultsController, from start: Int, forward: Bool) -> Int? {
        let flat = FlatIndex(controller)
        let total = flat.total
        guard total > 0, !matchingIDs.isEmpty else { return nil }
        let begin = ((start % total) + total) % total
        if let positions {
            guard !positions.isEmpty else { return nil }
            if forward {
                return positions.first { $0 >= begin } ?? positions.first
            }
            return positions.last { $0 <= begin } ?? positions.last
        }
        var position = begin
        for _ in 0..<total {
            if let id = controller.objectID(at: flat.indexPath(at: position)), matchingIDs.contains(id.rowID) {
                return position
            }
            position = forward ? (position + 1) % total : (position - 1 + total) % total
        }
        return nil
    }

    /// "3 of 17" for the match at `position`, when the positions are known.
    func ordinalText(at position: Int?) -> String? {
        guard let positions else { return matchingIDs.isEmpty ? "no match" : "\(matchingIDs.count) matches" }
        guard !positions.isEmpty else { return "no match" }
        guard let position, let index = positions.firstIndex(of: position) else { return "\(positions.count) matches" }
        return "\(index + 1) of \(positions.count)"
    }
}

/// Flat positions ↔ index paths of a controller's rows (section starts, O(sections)).
struct FlatIndex {
    let starts: [Int]
    let total: Int

    init(_ controller: FetchedResultsController) {
        var starts: [Int] = []
        var total = 0
        for s in 0..<controller.numberOfSections {
            starts.append(total)
            total += controller.numberOfObjects(inSection: s)
        }
        self.starts = starts
        self.total = total
    }

    func position(of indexPath: IndexPath) -> Int {
        starts[indexPath[0]] + indexPath[1]
    }

    func indexPath(at position: Int) -> IndexPath {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= position { lo = mid + 1 } else { hi = mid }
        }
        let section = max(0, lo - 1)
        return IndexPath(indexes: [section, position - (starts.isEmpty ? 0 : starts[section])])
    }
}
