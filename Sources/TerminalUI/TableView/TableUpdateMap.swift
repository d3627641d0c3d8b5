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

    /// Checks `batch` against the row counts before and after it, step by step in the order
    /// UIKit checks (sections, then rows, then each surviving section's count), and indexes it.
    init(batch: TableUpdateBatch, oldRowCounts: [Int], newRowCounts: [Int]) throws(TableViewError) {
        self.oldRowCounts = oldRowCounts
        self.newRowCounts = newRowCounts
        let sections = try SectionChanges(batch: batch, oldCount: oldRowCounts.count, newCount: newRowCounts.count)
        oldToNewSection = sections.oldToNew
        newToOldSection = sections.newToOld
        reloadedSections = sections.reloaded
        try claimRows(of: batch, sections: sections)
        indexShifts(of: batch, sections: sections)
        try checkRowCounts(of: batch)
    }

    /// Each row operation names a row that exists on its side of the batch, and no row
    /// is the subject of two operations (on the same side) or of a row and a section operation.
    private func claimRows(of batch: TableUpdateBatch, sections: SectionChanges) throws(TableViewError) {
        var old = BatchSide(rowCounts: oldRowCounts, reloadedSections: sections.reloaded)
        var new = BatchSide(rowCounts: newRowCounts, reloadedSections: sections.reloadedNew)
        for ip in batch.deletedRows { try old.claim(ip, .deleteRow) }
        for ip in batch.reloadedRows {
            try old.claim(ip, .reloadRow)
            if sections.deleted.contains(ip.section) {
                throw .duplicateOperation(
                    kind: .reloadRow,
                    conflictsWith: .deleteSection,
                    section: ip.section,
                    row: ip.row
                )
            }
        }
        for move in batch.movedRows {
            try old.claim(move.from, .moveRowSource)
            try new.claim(move.to, .moveRowDestination)
        }
        for ip in batch.insertedRows { try new.claim(ip, .insertRow) }
    }

    /// Records what the mapping queries read: the rows each surviving section loses and
    /// gains (sorted), the moves both ways, and the deleted, inserted and reloaded rows.
    private mutating func indexShifts(of batch: TableUpdateBatch, sections: SectionChanges) {
        for ip in batch.deletedRows where !sections.deleted.contains(ip.section) {
            deleted.insert(ip)
            removedRows[ip.section, default: []].append(ip.row)
        }
        for ip in batch.deletedRows where sections.deleted.contains(ip.section) { deleted.insert(ip) }
        reloaded = Set(batch.reloadedRows)
        for move in batch.movedRows {
            moveDestination[move.from] = move.to
            moveSource[move.to] = move.from
            if !sections.deleted.contains(move.from.section) {
                removedRows[move.from.section, default: []].append(move.from.row)
            }
            if !sections.inserted.contains(move.to.section) {
                addedRows[move.to.section, default: []].append(move.to.row)
            }
        }
        for ip in batch.insertedRows {
            inserted.insert(ip)
            if !sections.inserted.contains(ip.section) { addedRows[ip.section, default: []].append(ip.row) }
        }
        for key in removedRows.keys { removedRows[key]!.sort() }
        for key in addedRows.keys { addedRows[key]!.sort() }
    }

    /// UIKit's count rule (TerminalUI.docc/TableViewBatchUpdates.md) for every section
    /// that exists before and after and is not reloaded: rows after = rows before
    /// − deleted − moved out + inserted + moved in.
    private func checkRowCounts(of batch: TableUpdateBatch) throws(TableViewError) {
        let tally = RowTally(batch: batch, oldToNewSection: oldToNewSection)
        for n in 0..<newRowCounts.count {
            guard let s = newToOldSection[n], !reloadedSections.contains(s) else { continue }
            let before = oldRowCounts[s]
            let after = newRowCounts[n]
            let ins = tally.inserted[n] ?? 0
            let del = tally.deleted[s] ?? 0
            let mIn = tally.movedIn[n] ?? 0
            let mOut = tally.movedOut[s] ?? 0
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

/// The section operations of a batch, checked (in range, none twice, the count
/// rule for sections), and the numbering of the sections that survive.
private struct SectionChanges {
    /// Old indexes.
    let deleted: Set<Int>
    /// New indexes.
    let inserted: Set<Int>
    /// Old indexes.
    let reloaded: Set<Int>
    /// The reloaded sections' new indexes.
    let reloadedNew: Set<Int>
    let oldToNew: [Int?]
    let newToOld: [Int?]

    init(batch: TableUpdateBatch, oldCount: Int, newCount: Int) throws(TableViewError) {
        try Self.checkOldSections(of: batch, oldCount: oldCount)
        inserted = try Self.checkInsertedSections(batch.insertedSections, newCount: newCount)
        deleted = Set(batch.deletedSections)
        reloaded = Set(batch.reloadedSections)
        guard newCount == oldCount - deleted.count + inserted.count else {
            throw .invalidSectionCount(
                before: oldCount,
                after: newCount,
                inserted: inserted.count,
                deleted: deleted.count
            )
        }
        let numbering = Self.numbering(oldCount: oldCount, newCount: newCount, deleted: deleted, inserted: inserted)
        oldToNew = numbering.oldToNew
        newToOld = numbering.newToOld
        reloadedNew = Set(reloaded.compactMap { numbering.oldToNew[$0] })
    }

    /// Deleted and reloaded sections exist before the batch, and none is named twice.
    private static func checkOldSections(of batch: TableUpdateBatch, oldCount: Int) throws(TableViewError) {
        var sectionOps: [Int: TableUpdateKind] = [:]
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
    }

    /// Inserted sections exist after the batch, and none is named twice.
    private static func checkInsertedSections(_ sections: [Int], newCount: Int) throws(TableViewError) -> Set<Int> {
        var inserted = Set<Int>()
        for s in sections {
            guard s >= 0, s < newCount else {
                throw .indexOutOfRange(
                    kind: .insertSection,
                    section: s,
                    row: nil,
                    sectionCount: newCount,
                    rowCount: nil
                )
            }
            if !inserted.insert(s).inserted {
                throw .duplicateOperation(kind: .insertSection, conflictsWith: .insertSection, section: s, row: nil)
            }
        }
        return inserted
    }

    /// The surviving old sections in order take the new indexes that are not inserted.
    private static func numbering(
        oldCount: Int,
        newCount: Int,
        deleted: Set<Int>,
        inserted: Set<Int>
    ) -> (oldToNew: [Int?], newToOld: [Int?]) {
        var oldToNew = [Int?](repeating: nil, count: oldCount)
        var newToOld = [Int?](repeating: nil, count: newCount)
        var next = 0
        for s in 0..<oldCount where !deleted.contains(s) {
            while inserted.contains(next) { next += 1 }
            oldToNew[s] = next
            newToOld[next] = s
            next += 1
        }
        return (oldToNew, newToOld)
    }
}

/// One side of a batch (before it, for deletes, reloads and move sources; after it,
/// for inserts and move destinations) and the rows its operations have claimed.
private struct BatchSide {
    let rowCounts: [Int]
    /// The reloaded sections, in this side's numbering: their rows take no row operation.
    let reloadedSections: Set<Int>
    private var claims: [IndexPath: TableUpdateKind] = [:]

    init(rowCounts: [Int], reloadedSections: Set<Int>) {
        self.rowCounts = rowCounts
        self.reloadedSections = reloadedSections
    }

    /// Checks `ip` for `kind`, and that no other operation of this side names it.
    mutating func claim(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
        try check(ip, kind)
        if let other = claims[ip] {
            throw .duplicateOperation(kind: kind, conflictsWith: other, section: ip.section, row: ip.row)
        }
        claims[ip] = kind
    }

    /// `ip` is a row of this side, outside a reloaded section.
    private func check(_ ip: IndexPath, _ kind: TableUpdateKind) throws(TableViewError) {
        let sectionCount = rowCounts.count
        guard ip.count == 2, ip.section >= 0, ip.section < sectionCount else {
            throw .indexOutOfRange(
                kind: kind,
                section: ip.count > 0 ? ip.section : -1,
                row: ip.count > 1 ? ip.row : -1,
                sectionCount: sectionCount,
                rowCount: nil
            )
        }
        guard ip.row >= 0, ip.row < rowCounts[ip.section] else {
            throw .indexOutOfRange(
                kind: kind,
                section: ip.section,
                row: ip.row,
                sectionCount: sectionCount,
                rowCount: rowCounts[ip.section]
            )
        }
        if reloadedSections.contains(ip.section) {
            throw .duplicateOperation(kind: kind, conflictsWith: .reloadSection, section: ip.section, row: ip.row)
        }
    }
}

/// The row operations of a batch counted per section, for the count rule: deletes
/// and moves out by old section, inserts and moves in by new section (a move
/// within one section counts neither way).
private struct RowTally {
    var deleted: [Int: Int] = [:]
    var inserted: [Int: Int] = [:]
    var movedOut: [Int: Int] = [:]
    var movedIn: [Int: Int] = [:]

    init(batch: TableUpdateBatch, oldToNewSection: [Int?]) {
        for ip in batch.deletedRows { deleted[ip.section, default: 0] += 1 }
        for ip in batch.insertedRows { inserted[ip.section, default: 0] += 1 }
        for move in batch.movedRows where oldToNewSection[move.from.section] != move.to.section {
            movedOut[move.from.section, default: 0] += 1
            movedIn[move.to.section, default: 0] += 1
        }
    }
}
