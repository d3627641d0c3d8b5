import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// Random valid batches (built the way rule 4 of FetchedResults.docc/ChangeBatches.md applies them) against a
/// model array of arrays: the table must accept every one, keep the selection on
/// the same object, and once the animation is over draw exactly what a fresh
/// table over the new data draws.
///
/// `PROPERTY_SEED=<n>` replays one seed; `PROPERTY_LONG=1` runs 20× more
/// sequences from random seeds.
@Suite struct TableViewPropertyTests {
    typealias Section = ModelDataSource.Section
    typealias Row = ModelDataSource.Row

    /// One batch in UIKit's coordinates, and the data after it.
    struct Batch: CustomStringConvertible {
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        var reloadedSections: [Int] = []
        var deletedRows: [IndexPath] = []
        var insertedRows: [IndexPath] = []
        var reloadedRows: [IndexPath] = []
        var moves: [(IndexPath, IndexPath)] = []
        var sections: [Section] = []

        var description: String {
            "deleteSections \(deletedSections) insertSections \(insertedSections) reloadSections \(reloadedSections) "
                + "deleteRows \(deletedRows.map { [$0.section, $0.row] }) insertRows \(insertedRows.map { [$0.section, $0.row] }) "
                + "reloadRows \(reloadedRows.map { [$0.section, $0.row] }) moves \(moves.map { ([$0.0.section, $0.0.row], [$0.1.section, $0.1.row]) })"
        }
    }

    struct Generator {
        var rng: SeededGenerator
        var nextID = 0

        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

        mutating func row() -> Row {
            defer { nextID += 1 }
            return Row(id: nextID, title: "r\(nextID)", detail: "d\(nextID)")
        }

        mutating func section() -> Section {
            defer { nextID += 1 }
            let title: String? = nextID % 5 == 0 ? nil : "S\(nextID)"
            return Section(id: nextID, title: title, indexTitle: title.map { String($0.prefix(3)) }, rows: [])
        }

        mutating func initial() -> [Section] {
            (0..<int(0...6)).map { _ in
                var s = section()
                s.rows = (0..<int(0...8)).map { _ in row() }
                return s
            }
        }

        /// A random batch over `old`, applied as rule 4 says: remove deleted rows,
        /// move sources and deleted sections; insert sections ascending; insert
        /// inserted rows and move destinations ascending.
        mutating func batch(over old: [Section]) -> Batch {
            var b = Batch()
            let heavy = chance(0.1)  // now and then a batch that changes a lot
            let p = heavy ? 3.0 : 1.0
            var deletedSections = Set<Int>()
            var reloadedSections = Set<Int>()
            for s in old.indices {
                if chance(0.07 * p) { deletedSections.insert(s) } else if chance(0.03) { reloadedSections.insert(s) }
            }
            // Rows leaving their place.
            var survivors: [Int: [Row]] = [:]
            var movers: [(from: IndexPath, row: Row)] = []
            for (s, section) in old.enumerated() where !reloadedSections.contains(s) {
                for (r, row) in section.rows.enumerated() {
                    let ip = IndexPath(row: r, section: s)
                    if deletedSections.contains(s) {
                        if chance(0.1) { movers.append((ip, row)) } else if chance(0.3) { b.deletedRows.append(ip) }
                    } else if chance(0.07 * p) {
                        b.deletedRows.append(ip)
                    } else if chance(0.05 * p) {
                        movers.append((ip, row))
                    } else {
                        var kept = row
                        if chance(0.04) {
                            b.reloadedRows.append(ip)
                            kept.title += "'"
                        }
                        survivors[s, default: []].append(kept)
                    }
                }
            }
            // Sections after the update.
            let remaining = old.indices.filter { !deletedSections.contains($0) }
            let insertedCount = chance(0.12 * p) ? int(1...2) : 0
            let newCount = remaining.count + insertedCount
            var insertedSet = Set<Int>()
            while insertedSet.count < insertedCount { insertedSet.insert(int(0...(newCount - 1))) }
            var sections: [Section] = []
            var bases: [[Row]] = []
            var isReloaded: [Bool] = []
            var iterator = remaining.makeIterator()
            for n in 0..<newCount {
                if insertedSet.contains(n) {
                    sections.append(section())
                    bases.append([])
                    isReloaded.append(false)
                } else {
                    let s = iterator.next()!
                    sections.append(old[s])
                    if reloadedSections.contains(s) {
                        bases.append((0..<int(0...5)).map { _ in row() })
                        isReloaded.append(true)
                    } else {
                        bases.append(survivors[s] ?? [])
                        isReloaded.append(false)
                    }
                }
            }
            // Rows arriving: inserts and move destinations, into any section not reloaded.
            let targets = sections.indices.filter { !isReloaded[$0] }
            var additions: [[(row: Row, from: IndexPath?)]] = Array(repeating: [], count: newCount)
            if !targets.isEmpty {
                for mover in movers { additions[targets[int(0...(targets.count - 1))]].append((mover.row, mover.from)) }
                for _ in 0..<(chance(0.5) ? int(1...(heavy ? 6 : 3)) : 0) {
                    additions[targets[int(0...(targets.count - 1))]].append((row(), nil))
                }
            } else {
                for mover in movers { b.deletedRows.append(mover.from) }  // nowhere to go: deleted instead
            }
            for n in 0..<newCount {
                var rows = bases[n]
                let arriving = additions[n].shuffled(using: &rng)
                let total = rows.count + arriving.count
                var positions = Set<Int>()
                while positions.count < arriving.count { positions.insert(int(0...(total - 1))) }
                for (position, arrival) in zip(positions.sorted(), arriving) {
                    rows.insert(arrival.row, at: position)
                    let ip = IndexPath(row: position, section: n)
                    if let from = arrival.from {
                        b.moves.append((from, ip))
                    } else if !insertedSet.contains(n) || chance(0.5) {
                        b.insertedRows.append(ip)  // rows of a new section may be reported or not
                    }
                }
                sections[n].rows = rows
            }
            b.deletedSections = deletedSections.sorted()
            b.insertedSections = insertedSet.sorted()
            b.reloadedSections = reloadedSections.sorted()
            b.sections = sections
            return b
        }
    }

    /// Runs one sequence of `batches` random batches from `seed`; returns a
    /// failure description, or nil.
    static func runSequence(seed: UInt64, batches: Int) -> String? {
        var gen = Generator(rng: SeededGenerator(seed: seed))
        let rowHeight = gen.chance(0.5) ? 2 : 1
        let source = ModelDataSource(gen.initial(), style: rowHeight == 2 ? .subtitle : .value1)
        let table = TableView(rowHeight: rowHeight)
        table.dataSource = source
        let (width, height) = gen.chance(0.5) ? (40, 12) : (30, 7)
        var time = 0.0
        _ = draw(table, width: width, height: height, at: time)

        for step in 0..<batches {
            // The user moves about a little.
            for _ in 0..<gen.int(0...2) {
                let keys: [InputEvent] = [
                    .down, .up, .pageDown, .pageUp, .home, .end, .character("}"), .character("{"),
                ]
                table.handle(keys[gen.int(0...(keys.count - 1))])
            }
            if gen.chance(0.5) {
                time += 0.3
                _ = draw(table, width: width, height: height, at: time)
            }

            let oldSections = source.sections
            let selectedID = table.selection.map { source.row(at: $0).id }
            let selectedInReloaded: Bool
            let batch = gen.batch(over: oldSections)
            if let selection = table.selection {
                selectedInReloaded = batch.reloadedSections.contains(selection.section)
            } else {
                selectedInReloaded = false
            }
            source.sections = batch.sections
            let context = "seed \(seed) step \(step): \(batch)"
            do {
                try table.performBatchUpdates(
                    {
                        table.deleteSections(IndexSet(batch.deletedSections))
                        table.insertSections(IndexSet(batch.insertedSections))
                        table.reloadSections(IndexSet(batch.reloadedSections))
                        table.deleteRows(at: batch.deletedRows)
                        table.insertRows(at: batch.insertedRows)
                        table.reloadRows(at: batch.reloadedRows)
                        for (from, to) in batch.moves { table.moveRow(at: from, to: to) }
                    },
                    animated: gen.chance(0.8)
                )
            } catch {
                return "\(context)\nthrew: \(error)"
            }

            // The selection is on the same object, if it survived.
            let total = source.sections.reduce(0) { $0 + $1.rows.count }
            if let id = selectedID, !selectedInReloaded, let expected = source.indexPath(ofRow: id) {
                if table.selection != expected {
                    return
                        "\(context)\nselection \(String(describing: table.selection)) but row \(id) is at \(expected)"
                }
            } else if total > 0 {
                guard let selection = table.selection, selection.section < source.sections.count,
                    selection.row < source.sections[selection.section].rows.count
                else {
                    return "\(context)\nno valid selection: \(String(describing: table.selection))"
                }
            }

            // Frames during the animation draw without trouble; sometimes another
            // batch interrupts (next iteration) before it ends.
            _ = draw(table, width: width, height: height, at: time)
            _ = draw(table, width: width, height: height, at: time + Double(gen.int(0...25)) / 100)
            if gen.chance(0.3) { continue }

            // Once it is over, the same picture as a fresh table over the new data.
            time += 1
            let settled = draw(table, width: width, height: height, at: time)
            let fresh = TableView(rowHeight: rowHeight)
            fresh.dataSource = source
            _ = draw(fresh, width: width, height: height)
            fresh.selectRow(at: table.selection)
            fresh.scrollOffset = table.scrollOffset
            let expected = draw(fresh, width: width, height: height)
            if settled.text != expected.text || attributeMap(settled) != attributeMap(expected) {
                return
                    "\(context)\nsettled frame differs from a fresh table's:\n\(settled.text)\n--- fresh:\n\(expected.text)"
            }
        }
        return nil
    }

    @Test func randomValidBatchesKeepSelectionAndMatchAFreshTable() {
        let sequences = PropertySettings.cases(normal: 20, long: 400)
        for seed in PropertySettings.seeds(default: (0..<UInt64(sequences)).map { 0x5EED_0000 + $0 }) {
            if let failure = Self.runSequence(seed: seed, batches: 50) {
                Issue.record("\(PropertySettings.replay(seed))\n\(failure)")
                return
            }
        }
    }

    @Test func theGeneratorsBatchesObeyRuleFourByConstruction() {
        // Guard for the guard: a batch's counts satisfy rule 4 on their own.
        var gen = Generator(rng: SeededGenerator(seed: 42))
        var sections = gen.initial()
        for _ in 0..<200 {
            let batch = gen.batch(over: sections)
            let map = try? TableUpdateMap(
                batch: TableUpdateBatch(
                    insertedRows: batch.insertedRows,
                    deletedRows: batch.deletedRows,
                    reloadedRows: batch.reloadedRows,
                    movedRows: batch.moves.map { ($0.0, $0.1) },
                    insertedSections: batch.insertedSections,
                    deletedSections: batch.deletedSections,
                    reloadedSections: batch.reloadedSections
                ),
                oldRowCounts: sections.map(\.rows.count),
                newRowCounts: batch.sections.map(\.rows.count)
            )
            #expect(map != nil, "\(batch)")
            sections = batch.sections
        }
    }
}
