import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// The FDIC configuration of the "Failures by year" chart: a fetched results
/// controller over the banks, sectioned by the year of their closing date
/// (newest first), each section one bar of ``BarChart``.
///
/// The same controller the Date tab uses (same order and sections, the browser's
/// filter applied), so a delete, an import or another process's write reaches
/// the chart as it reaches the list.
///
///     let controller = FailuresByYear.makeController(context: context, filter: nil)
///     try controller.performFetch()
///     chart.setBars(FailuresByYear.bars(of: controller), at: now)
package enum FailuresByYear {
    /// "Failures by year", or "Failures by year — filter: TEXT" when a filter applies.
    package static func title(filterText: String?) -> String {
        guard let filterText, !filterText.isEmpty else { return "Failures by year" }
        return "Failures by year — filter: \(filterText)"
    }

    /// A controller (not yet fetched) of the banks that `filter` lets through, one section per year.
    package static func makeController(context: ObjectContext, filter: FetchPredicate?) -> FetchedResultsController {
        // No results cache: the chart's controller lives beside the list's and must not share its cache.
        BankSortTab.date.listTab(storePath: nil).makeController(context: context, filter: filter)
    }

    /// One bar per year, newest first: the year ("—" for banks without a closing date) and its count,
    /// every year of the range included (a year without a failure is a bar of 0), so that quiet years
    /// are not hidden.
    package static func bars(of controller: FetchedResultsController) -> [BarChart.Bar] {
        withQuietYears(
            controller.sections.map { BarChart.Bar(label: $0.name.isEmpty ? "—" : $0.name, value: $0.numberOfObjects) }
        )
    }

    /// `bars` (years newest first) with a bar of 0 for each year missing between two of them.
    static func withQuietYears(_ bars: [BarChart.Bar]) -> [BarChart.Bar] {
        var result: [BarChart.Bar] = []
        result.reserveCapacity(bars.count)
        var previousYear: Int?
        for bar in bars {
            let year = Int(bar.label)
            if let year, let previousYear, previousYear - year > 1 {
                for missing in stride(from: previousYear - 1, to: year, by: -1) {
                    result.append(BarChart.Bar(label: String(missing), value: 0))
                }
            }
            if let year { previousYear = year }
            result.append(bar)
        }
        return result
    }

    /// Whether bars use eighth blocks: not under `NO_COLOR`, not in fewer than ``minimumBlockWidth`` columns.
    package static func usesBlocks(width: Int, environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && width >= minimumBlockWidth
    }

    /// Below this width bars are `#` (sub-cell blocks are hard to read on short bars).
    package static let minimumBlockWidth = 60

    /// The chart as text lines: the title, a blank line, one row per year (trailing spaces trimmed).
    ///
    ///     FailuresByYear.lines(bars: [.init(label: "2010", value: 157)], title: "Failures by year", width: 30, usesBlocks: false)
    ///     // ["Failures by year", "", " 2010 ######################## 157"]
    package static func lines(bars: [BarChart.Bar], title: String, width: Int, usesBlocks: Bool) -> [String] {
        let chart = BarChart()
        chart.usesBlocks = usesBlocks
        chart.emptyMessage = "No banks"
        chart.setBars(bars, at: 0, animated: false)
        let height = max(1, bars.count)
        var canvas = Canvas(width: max(1, width), height: height)
        chart.render(into: &canvas, frame: canvas.bounds, at: 0)
        // The printed chart has no selection.
        var lines = [title, ""]
        lines += canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines
    }
}
