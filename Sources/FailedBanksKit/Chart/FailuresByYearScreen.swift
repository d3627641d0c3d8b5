import FetchedResults
import SQLiteStore
import TerminalUI

/// The "Failures by year" screen (`c` in the browser): the bar chart of
/// ``FailuresByYear``, live. It is its controller's delegate: each batch (a
/// delete, an import, another process's write) sets the new counts and the bars
/// animate to them. ↑/↓ select a year; Enter jumps to that year's section in the
/// Date tab (through `onJump`); Esc or ← return.
///
///     let screen = try FailuresByYearScreen(context: context, filter: nil, filterText: nil,
///                                           clock: loop.clock, usesBlocks: true)
///     screen.onJump = { year in browser.jump(toYear: year) }
///     loop.push(screen)
package final class FailuresByYearScreen: View, FetchedResultsControllerDelegate {
    /// The controller feeding the chart (sections by year).
    package let controller: FetchedResultsController
    /// The chart drawn.
    package let chart = BarChart()
    /// Called with the selected year's label when Enter is pressed (the screen then closes).
    package var onJump: ((String) -> Void)?
    /// Whether changes animate.
    package var animatesChanges = true

    let navigationBar: NavigationBar
    let statusLine = StatusLine(hints: "↑/↓ year  Enter show in Date tab  Esc back")
    private let clock: any TerminalUI.TimeSource
    /// Whether blocks are wanted at all (false under NO_COLOR); narrow frames use `#` anyway.
    private let blocksAllowed: Bool

    /// Fetches the banks `filter` lets through (its text goes into the title).
    package init(
        context: ObjectContext,
        filter: FetchPredicate?,
        filterText: String?,
        clock: any TerminalUI.TimeSource,
        usesBlocks: Bool
    ) throws {
        controller = FailuresByYear.makeController(context: context, filter: filter)
        try controller.performFetch()
        navigationBar = NavigationBar(
            title: FailuresByYear.title(filterText: filter == nil ? nil : filterText),
            backTitle: "Banks"
        )
        self.clock = clock
        self.blocksAllowed = usesBlocks
        chart.emptyMessage = "No banks"
        chart.setBars(FailuresByYear.bars(of: controller), at: clock.now, animated: false)
        controller.delegate = self
    }

    /// The new counts, animated from the old ones.
    package func controllerDidChangeContent(_ controller: FetchedResultsController) {
        chart.setBars(FailuresByYear.bars(of: controller), at: clock.now, animated: animatesChanges)
    }

    /// Title bar, the chart, the key hints with the number of banks on the right.
    package func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        chart.usesBlocks = blocksAllowed && frame.width >= FailuresByYear.minimumBlockWidth
        chart.render(into: &canvas, frame: frame.inset(top: 2, bottom: 1), at: time)
        let total = controller.numberOfObjects
        statusLine.trailingText = "\(total) bank\(total == 1 ? "" : "s")"
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    package func needsTick(at time: Double) -> Bool { chart.needsTick(at: time) }

    /// ↑/↓ and paging move through the years; Enter jumps; Esc, ← or `c` close.
    package func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .escape, .left, .backspace, .character("c"):
            return .dismiss
        case .enter, .right:
            guard let year = chart.selectedBar?.label else { return .handled }
            onJump?(year)
            return .dismiss
        default:
            return chart.handle(event) == .handled ? .handled : .ignored
        }
    }
}
