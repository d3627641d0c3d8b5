import Foundation

/// A validated batch: maps rows and sections between the numbering before the
/// update and the numbering after it (the rule of <doc:TableViewBatchUpdates>).
///
/// Built in O(sections + K log K) for K operations; each mapping query costs
/// O(K) at worst, so a batch of a few rows over a million-row table is cheap.
struct TableUpdateMap {
    let oldRowCounts: [Int]
    let newRowCounts: [Int]
    /// Old section -> new section; nil when deleted. Reloaded sections survive.
    private(set) var oldToNewSection: [Int?]
    /// New section -> old section; nil when inserted.
    private(set) var newToOldSection: [Int?]
    private(set) var reloadedSections: Set<Int> = []  // old indexes
    /// Old section (surviving, not reloaded) -> sorted old rows deleted or moved out.
    private var removedRows: [Int: [Int]] = [:]
    /// New section (not inserted, not reloaded) -> sorted new rows inserted or moved in.
    private var addedRows: [Int: [Int]] = [:]
    private(set) var moveDestination: [IndexPath: IndexPath] = [:]
    private(set) var moveSource: [IndexPath: IndexPath] = [:]
    private var deleted: Set<IndexPath> = []
    private var inserted: Set<IndexPath> = []
    private var reloaded: Set<IndexPath> = []

    init(batch: TableUpdateBatch, oldRowCounts: [Int], newRowCounts: [Int]) throws(TableViewError) {
        self.oldRowCounts = oldRowCounts
        self.newRowCounts = newRowCounts
        let oldCount = oldRowCounts.count
        let newCount = newRowCounts.count

        // 1. Sections: ranges and duplicates.
        var sectionOps: [Int: TableUpdateKind] = [:]  // old sections
        for (kind, list) in [
            (TableUpdateKind.deleteSection, batch.deletedSections), (.reloadSection, batch.reloadedSections),
        ] {
            for s in list {
                guard s >= 0, s < oldCount else {
                    throw .indexOutOfRange(kind: kind, section: s, row: nil, sectionCount: oldCount, rowCount: nil)
                }
                if let other = sectionOps[s] {
                    throw .duplicateOperation(kind: kind, conflictsWith: other, section: s, row: nil)
                }
                sectionOps[s] = kind
            }
        }
        var insertedSectionSet = Set<Int>()
        for s in batch.insertedSections {
            guard s >= 0, s < newCount else {
                throw .indexOutOfRange(
                    kind: .insertSection,
                    section: s,
                    row: nil,
                    sectionCount: newCount,
                    rowCount: nil
                )
            }
            if !insertedSectionSet.insert(s).inserted {
                throw .duplicateOperation(kind: .insertSection, conflictsWith: .insertSection, section: s, row: nil)
            }
        }
        let deletedSectionSet = Set(batch.deletedSections)
        reloadedSections = Set(batch.reloadedSections)
        guard newCount == oldCount - deletedSectionSet.count + insertedSectionSet.count else {
            throw .invalidSectionCount(
                before: oldCount,
                after: newCount,
                inserted: insertedSectionSet.count,
                deleted: deletedSectionSet.count
            )
        }
        oldToNewSection = Array(repeating: nil, count: oldCount)
        newToOldSection = Array(repeating: nil, count: newCount)
        var next = 0
        for s in 0..<oldCount where !deletedSectionSet.contains(s) {
            while insertedSectionSet.contains(next) { next += 1 }
            oldToNewSection[s] = next
            newToOldSection[next] = s
            next += 1
        }
        let reloadedNewSections = Set(reloadedSections.compactMap { oldToNewSection[$0] })

        // 2. Rows: ranges and duplicates.
        func checkOld(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
            guard ip.count == 2, ip.section >= 0, ip.section < oldCount else {
                throw .indexOutOfRange(
                    kind: kind,
                    section: ip.count > 0 ? ip.section : -1,
                    row: ip.count > 1 ? ip.row : -1,
                    sectionCount: oldCount,
                    rowCount: nil
                )
            }
            guard ip.row >= 0, ip.row < oldRowCounts[ip.section] else {
                throw .indexOutOfRange(
                    kind: kind,
                    section: ip.section,
                    row: ip.row,
                    sectionCount: oldCount,
                    rowCount: oldRowCounts[ip.section]
                )
            }
            if reloadedSections.contains(ip.section) {
                throw .duplicateOperation(kind: kind, conflictsWith: .reloadSection, section: ip.section, row: ip.row)
            }
        }
        func checkNew(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
            guard ip.count == 2, ip.section >= 0, ip.section < newCount else {
                throw .indexOutOfRange(
                    kind: kind,
                    section: ip.count > 0 ? ip.section : -1,
                    row: ip.count > 1 ? ip.row : -1,
                    sectionCount: newCount,
                    rowCount: nil
                )
            }
            guard ip.row >= 0, ip.row < newRowCounts[ip.section] else {
                throw .indexOutOfRange(
                    kind: kind,
                    section: ip.section,
                    row: ip.row,
                    sectionCount: newCount,
                    rowCount: newRowCounts[ip.section]
                )
            }
            if reloadedNewSections.contains(ip.section) {
                throw .duplicateOperation(kind: kind, conflictsWith: .reloadSection, section: ip.section, row: ip.row)
            }
        }
        var oldOps: [IndexPath: TableUpdateKind] = [:]
        var newOps: [IndexPath: TableUpdateKind] = [:]
        func claimOld(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
            try checkOld(ip, kind)
            if let other = oldOps[ip] {
                throw .duplicateOperation(kind: kind, conflictsWith: other, section: ip.section, row: ip.row)
            }
            oldOps[ip] = kind
        }
        func claimNew(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
            try checkNew(ip, kind)
            if let other = newOps[ip] {
                throw .duplicateOperation(kind: kind, conflictsWith: other, section: ip.section, row: ip.row)
            }
            newOps[ip] = kind
        }
        for ip in batch.deletedRows { try claimOld(ip, .deleteRow) }
        for ip in batch.reloadedRows {
            try claimOld(ip, .reloadRow)
            if deletedSectionSet.contains(ip.section) {
                throw .duplicateOperation(
                    kind: .reloadRow,
                    conflictsWith: .deleteSection,
                    section: ip.section,
                    row: ip.row
                )
            }
        }
        for move in batch.movedRows {
            try claimOld(move.from, .moveRowSource)
            try claimNew(move.to, .moveRowDestination)
        }
        for ip in batch.insertedRows { try claimNew(ip, .insertRow) }

        // 3. Index the survivors' shifts.
        for ip in batch.deletedRows where !deletedSectionSet.contains(ip.section) {
            deleted.insert(ip)
            removedRows[ip.section, default: []].append(ip.row)
        }
        for ip in batch.deletedRows where deletedSectionSet.contains(ip.section) { deleted.insert(ip) }
        reloaded = Set(batch.reloadedRows)
        for move in batch.movedRows {
            moveDestination[move.from] = move.to
            moveSource[move.to] = move.from
            if !deletedSectionSet.contains(move.from.section) {
                removedRows[move.from.section, default: []].append(move.from.row)
            }
            if !insertedSectionSet.contains(move.to.section) {
                addedRows[move.to.section, default: []].append(move.to.row)
            }
        }
        for ip in batch.insertedRows {
            inserted.insert(ip)
            if !insertedSectionSet.contains(ip.section) { addedRows[ip.section, default: []].append(ip.row) }
        }
        for key in removedRows.keys { removedRows[key]!.sort() }
        for key in addedRows.keys { addedRows[key]!.sort() }

        // 4. Row counts of every section that exists before and after (UIKit's count rule, TerminalUI.docc/TableViewBatchUpdates.md).
        var deletedPerSection: [Int: Int] = [:]
        var movedOut: [Int: Int] = [:]
        var movedIn: [Int: Int] = [:]
        var insertedPerSection: [Int: Int] = [:]
        for ip in batch.deletedRows { deletedPerSection[ip.section, default: 0] += 1 }
        for ip in batch.insertedRows { insertedPerSection[ip.section, default: 0] += 1 }
        for move in batch.movedRows where oldToNewSection[move.from.section] != move.to.section {
            movedOut[move.from.section, default: 0] += 1
            movedIn[move.to.section, default: 0] += 1
        }
        for n in 0..<newCount {
            guard let s = newToOldSection[n], !reloadedSections.contains(s) else { continue }
            let before = oldRowCounts[s]
            let after = newRowCounts[n]
            let ins = insertedPerSection[n] ?? 0
            let del = deletedPerSection[s] ?? 0
            let mIn = movedIn[n] ?? 0
            let mOut = movedOut[s] ?? 0
            if after != before - del - mOut + ins + mIn {
                throw .invalidRowCount(
                    section: n,
                    before: before,
                    after: after,
                    inserted: ins,
                    deleted: del,
                    movedIn: mIn,
                    movedOut: mOut
                )
            }
        }
    }

    /// Number of elements of sorted `list` that are < `value`.
    /// Carries a surviving row across one side of a batch: drops the rows that
    /// `leaving` (sorted) takes out before it, then steps over each row that
    /// `arriving` (sorted) puts in at or before its place. Old → new with
    /// (deleted, inserted); new → old with (inserted, deleted).
    private static func carry(_ row: Int, past leaving: [Int], into arriving: [Int]) -> Int {
        var row = row - countBelow(leaving, row)
        for position in arriving {
            if position <= row { row += 1 } else { break }
        }
        return row
    }

    private static func countBelow(_ list: [Int], _ value: Int) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func isReloaded(old indexPath: IndexPath) -> Bool {
        reloaded.contains(indexPath) || reloadedSections.contains(indexPath.section)
    }

    func isMoved(old indexPath: IndexPath) -> Bool { moveDestination[indexPath] != nil }

    /// Where the row at `old` is after the update; nil when it was deleted.
    func newIndexPath(forOld old: IndexPath) -> IndexPath? {
        guard old.section >= 0, old.section < oldRowCounts.count else { return nil }
        if let destination = moveDestination[old] { return destination }
        guard let n = oldToNewSection[old.section], !deleted.contains(old) else { return nil }
        if reloadedSections.contains(old.section) {
            return old.row < newRowCounts[n] ? IndexPath(row: old.row, section: n) : nil
        }
        let row = Self.carry(old.row, past: removedRows[old.section] ?? [], into: addedRows[n] ?? [])
        return IndexPath(row: row, section: n)
    }

    /// Where the row at `new` was before the update; nil when it was inserted
    /// (including every row of an inserted section that was not moved there).
    func oldIndexPath(forNew new: IndexPath) -> IndexPath? {
        guard new.section >= 0, new.section < newRowCounts.count else { return nil }
        if let source = moveSource[new] { return source }
        guard let s = newToOldSection[new.section], !inserted.contains(new) else { return nil }
        if reloadedSections.contains(s) {
            return new.row < oldRowCounts[s] ? IndexPath(row: new.row, section: s) : nil
        }
        let row = Self.carry(new.row, past: addedRows[new.section] ?? [], into: removedRows[s] ?? [])
        return IndexPath(row: row, section: s)
    }

    /// For a deleted row: the row that now takes its place — the first row after
    /// it (in the old order) that survived, wherever it is now; nil if none.
    /// Costs O(K + sections): only deleted rows are skipped one by one.
    func successor(ofDeleted old: IndexPath) -> IndexPath? {
        var s = old.section
        var r = old.row + 1
        while s < oldRowCounts.count {
            if let n = oldToNewSection[s] {
                if reloadedSections.contains(s) {
                    if r < newRowCounts[n] { return IndexPath(row: r, section: n) }
                } else {
                    while r < oldRowCounts[s] {
                        if let ip = newIndexPath(forOld: IndexPath(row: r, section: s)) { return ip }
                        r += 1
                    }
                }
            } else {
                // A deleted section: only the rows moved out of it survive.
                var best: IndexPath?
                for source in moveDestination.keys where source.section == s && source.row >= r {
                    if best == nil || source.row < best!.row { best = source }
                }
                if let best { return moveDestination[best] }
            }
            s += 1
            r = 0
        }
        return nil
    }
}
