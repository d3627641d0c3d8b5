import SQLiteStore

/// The sections of rows read in the order of their first sort, each row's section derived
/// from its sort value (``FetchPlan/sectionFromSortValue``): a row whose text agrees with the
/// last one computed on the deciding bytes is in the current section, any other row's section
/// is computed in Swift. The loop runs once per row (millions), so the common case touches no
/// array and calls no closure.
///
///     var sections = SortValueSections(plan: plan, derive: derive)
///     for row in rows where !sections.continuesCurrent(row.bytes) {
///         guard sections.add(row.value) else { return nil }   // not monotonic
///     }
///     let records = sections.finish()
struct SortValueSections {
    let plan: FetchPlan
    let derive: FetchPlan.SectionFromSortValue
    private var sections: [SectionRecord] = []
    private var current: StoreValue = .null
    /// The text the current section was last computed from (hasWitness false after a value that is not text).
    private var witness: [UInt8] = []
    private var hasWitness = false
    /// Rows of the current section not yet added to its record.
    private var pending = 0

    init(plan: FetchPlan, derive: FetchPlan.SectionFromSortValue) {
        self.plan = plan
        self.derive = derive
    }

    /// Whether a row whose sort value's text is `bytes` (nil when it is not text) is in the
    /// current section by its deciding bytes; it is counted then.
    @inline(__always)
    mutating func continuesCurrent(_ bytes: UnsafeRawBufferPointer?) -> Bool {
        guard hasWitness, let bytes, FetchedResultsController.agree(bytes, witness, on: derive.decidingBytes) else {
            return false
        }
        pending += 1
        return true
    }

    /// Adds a row whose sort value is `raw`; false when its section comes before the current
    /// one (the sections are not monotonic).
    mutating func add(_ raw: StoreValue) -> Bool {
        if case .text(let text) = raw {
            witness = Array(text.utf8)
            hasWitness = true
        } else {
            hasWitness = false
        }
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
