import Foundation
import TestSupport

/// The sections and object ids that `failedbanks watch` describes, rebuilt
/// from its JSON Lines: the last snapshot, with every later batch applied by
/// Rule 4 of FetchedResults.docc/ChangeBatches.md (remove deleted rows, move sources and deleted
/// sections in old coordinates; insert new sections ascending; insert rows
/// and move destinations ascending in new coordinates). Whatever does not
/// add up (a batch's `counts` against the rebuilt sections, a coordinate out
/// of range, an object twice in a batch) is collected in ``problems``.
///
///     let watched = try WatchedState(jsonLines: watch.standardOutput)
///     #expect(watched.problems.isEmpty)
///     #expect(watched.sections == WatchedState.Section.list(from: listJSON))
struct WatchedState {
    struct Section: Equatable, CustomStringConvertible {
        var name: String
        var ids: [Int64]
        var description: String { "\(name)(\(ids.count))" }

        /// The sections of `failedbanks list --format json`.
        static func list(fromJSON text: String) throws -> [Section] {
            guard let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let sections = root["sections"] as? [[String: Any]]
            else {
                throw EndToEndError("list --format json: no \"sections\" in \(text.prefix(300))")
            }
            return try sections.map { section in
                guard let name = section["name"] as? String, let objects = section["objects"] as? [[String: Any]] else {
                    throw EndToEndError("list --format json: a section without name or objects: \(section)")
                }
                return Section(name: name, ids: objects.compactMap { ($0["id"] as? NSNumber)?.int64Value })
            }
        }
    }

    private(set) var sections: [Section] = []
    private(set) var snapshots = 0
    private(set) var batches = 0
    private(set) var problems: [String] = []

    init(jsonLines text: String) throws {
        for (number, line) in text.split(separator: "\n").enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                problems.append("line \(number + 1) is not a JSON object: \(line.prefix(200))")
                continue
            }
            switch object["type"] as? String {
            case "snapshot":
                snapshots += 1
                let list = object["sections"] as? [[String: Any]] ?? []
                sections = list.map {
                    Section(name: $0["name"] as? String ?? "?", ids: ($0["ids"] as? [NSNumber] ?? []).map(\.int64Value))
                }
            case "batch":
                batches += 1
                apply(object, line: number + 1)
            default:
                problems.append("line \(number + 1): unknown type \(object["type"] ?? "none")")
            }
        }
        if snapshots == 0 { problems.append("no snapshot line") }
    }

    private static func coordinates(_ value: Any?) -> (Int, Int)? {
        guard let pair = value as? [NSNumber], pair.count == 2 else { return nil }
        return (pair[0].intValue, pair[1].intValue)
    }

    private mutating func apply(_ batch: [String: Any], line: Int) {
        let sectionChanges = batch["sections"] as? [[String: Any]] ?? []
        let objectChanges = batch["objects"] as? [[String: Any]] ?? []
        var seen = Set<Int64>()
        var sameCoordinates: [Int64] = []
        for change in objectChanges {
            let id = (change["id"] as? NSNumber)?.int64Value ?? -1
            if !seen.insert(id).inserted { problems.append("line \(line): object \(id) twice in one batch") }
            let from = Self.coordinates(change["from"])
            switch change["change"] as? String {
            case "delete", "move", "update":
                guard let from else {
                    problems.append("line \(line): \(change["change"] ?? "?") without from: \(change)")
                    continue
                }
                check(id, at: from, line: line)
                if change["change"] as? String == "move", let to = Self.coordinates(change["to"]), to == from {
                    sameCoordinates.append(id)
                }
            case "insert": break
            default: problems.append("line \(line): unknown object change \(change)")
            }
        }
        let next = applied(sectionChanges, objectChanges, keepingInPlace: [], line: line)
        // A move whose old and new coordinates are equal is a move to itself (rule 3) when
        // leaving the object in place gives the same sections: it should have been an update.
        for id in sameCoordinates where applied(sectionChanges, objectChanges, keepingInPlace: [id], line: line) == next
        {
            problems.append("line \(line): object \(id) moves to itself")
        }
        // An inserted object must not be there already (rule 4: the result is the new fetch, each object once).
        let arriving = objectChanges.filter { $0["change"] as? String == "insert" }.compactMap {
            ($0["id"] as? NSNumber)?.int64Value
        }
        if !arriving.isEmpty {
            let before = Set(sections.flatMap(\.ids))
            for id in arriving where before.contains(id) {
                problems.append(
                    "line \(line): object \(id) inserted, but it is already in the results (no delete before)"
                )
            }
        }
        sections = next
        if let counts = batch["counts"] as? [NSNumber], counts.map(\.intValue) != sections.map(\.ids.count) {
            problems.append(
                "line \(line): counts \(counts.map(\.intValue).prefix(12)) but the rebuilt sections hold \(sections.map(\.ids.count).prefix(12))"
            )
        }
    }

    /// The sections after one batch, by rule 4; moves of `keepingInPlace` are applied as updates.
    private mutating func applied(
        _ sectionChanges: [[String: Any]],
        _ objectChanges: [[String: Any]],
        keepingInPlace: Set<Int64>,
        line: Int
    ) -> [Section] {
        var deletedSections = Set<Int>()
        var insertedSections: [(index: Int, name: String)] = []
        for change in sectionChanges {
            let index = (change["index"] as? NSNumber)?.intValue ?? -1
            switch change["change"] as? String {
            case "delete": deletedSections.insert(index)
            case "insert": insertedSections.append((index, change["name"] as? String ?? "?"))
            default: if keepingInPlace.isEmpty { problems.append("line \(line): unknown section change \(change)") }
            }
        }
        var removed = Set<[Int]>()
        var inserted: [(section: Int, row: Int, id: Int64)] = []
        for change in objectChanges {
            let id = (change["id"] as? NSNumber)?.int64Value ?? -1
            let from = Self.coordinates(change["from"])
            let to = Self.coordinates(change["to"])
            switch change["change"] as? String {
            case "delete":
                if let from { removed.insert([from.0, from.1]) }
            case "insert":
                if let to { inserted.append((to.0, to.1, id)) }
            case "move" where !keepingInPlace.contains(id):
                if let from, let to {
                    removed.insert([from.0, from.1])
                    inserted.append((to.0, to.1, id))
                }
            default:
                break
            }
        }
        // Old coordinates: drop removed rows and deleted sections.
        var next: [Section] = []
        for (s, section) in sections.enumerated() where !deletedSections.contains(s) {
            let ids = section.ids.enumerated().filter { !removed.contains([s, $0.offset]) }.map(\.element)
            next.append(Section(name: section.name, ids: ids))
        }
        // New coordinates, ascending.
        for (index, name) in insertedSections.sorted(by: { $0.index < $1.index }) {
            guard index >= 0, index <= next.count else {
                if keepingInPlace.isEmpty {
                    problems.append("line \(line): section insert at \(index) of \(next.count)")
                }
                continue
            }
            next.insert(Section(name: name, ids: []), at: index)
        }
        for (s, r, id) in inserted.sorted(by: { ($0.section, $0.row) < ($1.section, $1.row) }) {
            guard s >= 0, s < next.count, r >= 0, r <= next[s].ids.count else {
                if keepingInPlace.isEmpty { problems.append("line \(line): row insert at [\(s), \(r)] out of range") }
                continue
            }
            next[s].ids.insert(id, at: r)
        }
        return next
    }

    /// A delete, move or update names the object at its old coordinates.
    private mutating func check(_ id: Int64, at from: (Int, Int), line: Int) {
        guard from.0 >= 0, from.0 < sections.count, from.1 >= 0, from.1 < sections[from.0].ids.count else {
            problems.append("line \(line): object \(id) at [\(from.0), \(from.1)] is out of range")
            return
        }
        if sections[from.0].ids[from.1] != id {
            problems.append(
                "line \(line): object \(id) at [\(from.0), \(from.1)] but the snapshot has \(sections[from.0].ids[from.1]) there"
            )
        }
    }
}
