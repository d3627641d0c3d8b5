import Foundation
import SQLiteStore

/// The sections of rows read in the order of their first sort, each row's section derived
/// from its sort value (``FetchPlan/sectionFromSortValue``). The reader decides cheaply
/// whether a row continues the current section — its text agrees with the previous row's on
/// the deciding bytes (``SortValueRun/TextComparison/inOneSection(deciding:)``) — and counts
/// it (``countInCurrent()``); any other row's section is computed in Swift (``add(_:)``). The loop runs once per row (millions),
/// so the common case touches no array and calls no closure.
///
///     var sections = SortValueSections(plan: plan, derive: derive)
///     for row in rows {
///         if let previous, SortValueRun.compare(previous, with: row.bytes).inOneSection(deciding: derive.decidingBytes) {
///             sections.countInCurrent()
///         } else {
///             guard sections.add(row.value) else { return nil }   // not monotonic
///         }
///     }
///     let records = sections.finish()
struct SortValueSections {
    let plan: FetchPlan
    let derive: FetchPlan.SectionFromSortValue
    private var sections: [SectionRecord] = []
    private var current: StoreValue = .null
    /// Rows of the current section not yet added to its record.
    private var pending = 0

    init(plan: FetchPlan, derive: FetchPlan.SectionFromSortValue) {
        self.plan = plan
        self.derive = derive
    }

    /// Counts a row of the current section.
    @inline(__always)
    mutating func countInCurrent() {
        pending += 1
    }

    /// Adds a row whose sort value is `raw`; false when its section comes before the current
    /// one (the sections are not monotonic).
    mutating func add(_ raw: StoreValue) -> Bool {
        let value = derive.section(of: raw)
        if !sections.isEmpty {
            let c = plan.compareSectionValues(value, current)
            if c == 0 {
                pending += 1
                return true
            }
            if plan.sectionAscending ? c < 0 : c > 0 { return false }
            sections[sections.count - 1].count += pending
        }
        pending = 0
        sections.append(SectionRecord(value: value, name: FetchedResultsController.sectionName(for: value), count: 1))
        current = value
        return true
    }

    /// The sections, every row counted.
    mutating func finish() -> [SectionRecord] {
        if !sections.isEmpty { sections[sections.count - 1].count += pending }
        pending = 0
        return sections
    }
}
