import Foundation
import SQLiteStore

@testable import FetchedResults

/// Rules 3 and 4 of FetchedResults.docc/ChangeBatches.md, written independently of the controller: what
/// a table view does with a batch, and the checks UIKit makes.
enum BatchChecker {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Applies `batch` to `old` by rule 4 and checks rule 3, the count rule,
    /// no object twice and no self-moves. Returns the new snapshot.
    static func apply(_ batch: ChangeBatch, to old: Snapshot) throws -> Snapshot {
        func fail(_ s: String) -> Failure { Failure(description: s) }

        // No object twice; every change carries the index paths its kind needs.
        var seen = Set<ObjectID>()
        for c in batch.objectChanges {
            guard seen.insert(c.id).inserted else { throw fail("\(c.id) appears twice in one batch") }
            switch c.change {
            case .insert:
                guard c.from == nil, c.to != nil else { throw fail("insert \(c.id) must have only a new index path") }
            case .delete:
                guard c.from != nil, c.to == nil else { throw fail("delete \(c.id) must have only an old index path") }
            case .move, .update:
                guard c.from != nil, c.to != nil else { throw fail("\(c.change) \(c.id) must carry both index paths") }
            }
        }
        // Old coordinates point at the object in the old snapshot.
        for c in batch.objectChanges {
            guard let f = c.from else { continue }
            guard f.s < old.sections.count, f.i < old.sections[f.s].ids.count, old.sections[f.s].ids[f.i] == c.id else {
                throw fail("\(c.change) \(c.id) from \(f) does not name it in the old snapshot")
            }
        }
        let deletedSections = Set(batch.sectionChanges.filter { $0.change == .delete }.map(\.index))
        let insertedSections = batch.sectionChanges.filter { $0.change == .insert }.sorted { $0.index < $1.index }
        for s in deletedSections where s >= old.sections.count { throw fail("deleted section \(s) out of range") }

        // Remove deleted rows, move sources and deleted sections.
        var removal = Set<IndexPath>()
        for c in batch.objectChanges where c.change == .delete || c.change == .move { removal.insert(c.from!) }
        var sections: [(name: String, ids: [ObjectID])?] = []
        for (si, s) in old.sections.enumerated() {
            if deletedSections.contains(si) { continue }
            sections.append(
                (s.name, s.ids.enumerated().filter { !removal.contains(.at($0.offset, si)) }.map(\.element))
            )
        }
        // Insert new sections in ascending order.
        for s in insertedSections {
            guard s.index <= sections.count else { throw fail("inserted section \(s.index) beyond \(sections.count)") }
            sections.insert(nil, at: s.index)
        }
        var result: [(name: String, ids: [ObjectID])] = sections.enumerated().map { i, s in
            s ?? (insertedSections.first { $0.index == i }!.name, [])
        }
        // Insert rows and move destinations in ascending order.
        let arrivals = batch.objectChanges.filter { $0.change == .insert || $0.change == .move }
            .sorted { $0.to!.lexicographicallyPrecedes($1.to!) }
        for c in arrivals {
            let t = c.to!
            guard t.s < result.count, t.i <= result[t.s].ids.count else {
                throw fail("\(c.change) \(c.id) to \(t) out of range")
            }
            result[t.s].ids.insert(c.id, at: t.i)
        }

        // UITableView's count rule for every surviving section.
        var oldToNew: [Int: Int] = [:]
        var j = 0
        let insertedIndexes = Set(insertedSections.map(\.index))
        for i in old.sections.indices where !deletedSections.contains(i) {
            while insertedIndexes.contains(j) { j += 1 }
            oldToNew[i] = j
            j += 1
        }
        for (i, n) in oldToNew {
            let before = old.sections[i].ids.count
            let deleted = batch.objectChanges.filter { $0.change == .delete && $0.from!.s == i }.count
            let movedOut = batch.objectChanges.filter { $0.change == .move && $0.from!.s == i }.count
            let inserted = batch.objectChanges.filter { $0.change == .insert && $0.to!.s == n }.count
            let movedIn = batch.objectChanges.filter { $0.change == .move && $0.to!.s == n }.count
            let after = result[n].ids.count
            guard after == before - deleted - movedOut + inserted + movedIn else {
                throw fail(
                    "count rule broken for old section \(i) → new \(n): \(after) != \(before) - \(deleted) - \(movedOut) + \(inserted) + \(movedIn)"
                )
            }
        }
        guard batch.counts == result.map(\.ids.count) else {
            throw fail("batch counts \(batch.counts) != \(result.map(\.ids.count))")
        }
        guard batch.sectionNames == result.map(\.name) else {
            throw fail("batch names \(batch.sectionNames) != \(result.map(\.name))")
        }

        // New coordinates point at the object in the new snapshot; no self-moves.
        for c in batch.objectChanges {
            guard let t = c.to else { continue }
            guard result[t.s].ids[t.i] == c.id else {
                throw fail("\(c.change) \(c.id) to \(t) does not name it in the new snapshot")
            }
        }
        for c in batch.objectChanges where c.change == .move {
            if isSelfMove(c, batch: batch, old: old) {
                throw fail("move of \(c.id) from \(c.from!) to \(c.to!) is a move to itself")
            }
        }
        return Snapshot(sections: result)
    }

    /// A move is unnecessary when its object keeps its section and the same
    /// neighbours among the objects that stay (neither deleted, inserted nor moved).
    static func isSelfMove(_ move: ChangeBatch.ObjectChange, batch: ChangeBatch, old: Snapshot) -> Bool {
        let others = Set(batch.objectChanges.filter { $0.change != .update && $0.id != move.id }.map(\.id))
        let oldSection = old.sections[move.from!.s]
        let newName = batch.sectionNames[move.to!.s]
        guard oldSection.name == newName else { return false }
        let oldStaying = oldSection.ids.filter { !others.contains($0) }
        // Where the object would be among the staying objects of its section, before and after.
        guard let before = oldStaying.firstIndex(of: move.id) else { return false }
        let stayingBefore = oldStaying.filter { $0 != move.id }
        let newIDs = newSectionIDs(batch: batch, old: old, section: move.to!.s)
        let newStaying = newIDs.filter { !others.contains($0) }
        guard let after = newStaying.firstIndex(of: move.id) else { return false }
        return before == after && stayingBefore == newStaying.filter { $0 != move.id }
    }

    private static func newSectionIDs(batch: ChangeBatch, old: Snapshot, section: Int) -> [ObjectID] {
        (try? applyWithoutChecks(batch, to: old))?.sections[section].ids ?? []
    }

    private static func applyWithoutChecks(_ batch: ChangeBatch, to old: Snapshot) throws -> Snapshot {
        let deleted = Set(batch.sectionChanges.filter { $0.change == .delete }.map(\.index))
        var removal = Set<IndexPath>()
        for c in batch.objectChanges where c.change == .delete || c.change == .move { removal.insert(c.from!) }
        var sections: [(name: String, ids: [ObjectID])] = []
        for (si, s) in old.sections.enumerated() where !deleted.contains(si) {
            sections.append(
                (s.name, s.ids.enumerated().filter { !removal.contains(.at($0.offset, si)) }.map(\.element))
            )
        }
        for s in batch.sectionChanges.filter({ $0.change == .insert }).sorted(by: { $0.index < $1.index }) {
            sections.insert((s.name, []), at: s.index)
        }
        for c in batch.objectChanges.filter({ $0.change == .insert || $0.change == .move }).sorted(by: {
            $0.to!.lexicographicallyPrecedes($1.to!)
        }) {
            sections[c.to!.s].ids.insert(c.id, at: c.to!.i)
        }
        return Snapshot(sections: sections)
    }
}
