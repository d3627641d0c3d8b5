import Foundation
import TerminalUI
import Timekeeping

/// The table view's grid layout, in memory: a 1,000,000-row source of 20 columns drawn
/// 50 rows high in a 200-column canvas (the header row above them).
///
/// - `grid_frame_ms`: a full redraw of the 50 rows × 20 columns (every value asked for,
///   measured and drawn) after the selection moved down one row (untimed);
/// - `grid_hscroll_ms`: a column-cursor move that scrolls the columns sideways, and the
///   frame that shows it (the cursor walks to the last column and back; only the moves
///   that changed the scroll offset count).
struct GridFrameBenchmark {
    let runner: BenchRunner

    static let columns = 20
    static let rows = 1_000_000

    func run() throws {
        let grid = Grid()
        guard grid.drewValues else {
            runner.results.note("grid: the table drew no values; figures are not meaningful")
            return
        }
        let rounds = runner.configuration.runs(small: 10, large: 20)
        _ = grid.frames(100)  // warm-up
        _ = grid.scrolls()
        var frames: [Double] = []
        var scrolls: [Double] = []
        for _ in 0..<rounds {
            frames += grid.frames(100)
            scrolls += grid.scrolls()
        }
        runner.results.setMedian("grid_frame_ms", of: frames, scale: 1000)
        runner.results.setMedian("grid_hscroll_ms", of: scrolls, scale: 1000)
    }

    /// A grid over ``Source``, scrolled to the middle.
    final class Grid {
        let source = Source()
        let view = TableView(rowHeight: 1)
        var canvas = Canvas(width: 200, height: 51)
        private(set) var drewValues = false

        init() {
            view.dataSource = source
            view.animatesUpdates = false
            view.gridColumns = (0..<GridFrameBenchmark.columns).map { i in
                GridColumn("column \(i + 1)", alignment: i % 3 == 0 ? .trailing : .leading)
            }
            view.selectRow(at: IndexPath(row: GridFrameBenchmark.rows / 2, section: 0))
            view.render(into: &canvas, at: 0)
            drewValues = canvas.text.contains("column 1") && canvas.text.contains("\(GridFrameBenchmark.rows / 2)")
            if BenchRunner.debug { print(canvas.text) }
        }

        /// `count` full frames, the selection one row further down before each.
        func frames(_ count: Int) -> [Double] {
            var times: [Double] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                view.handle(.down)
                let start = MonotonicClock.seconds()
                view.render(into: &canvas, at: 0)
                times.append(MonotonicClock.seconds() - start)
            }
            return times
        }

        /// The cursor from the first column to the last and back: the seconds of each move
        /// (key and frame) that scrolled the columns.
        func scrolls() -> [Double] {
            var times: [Double] = []
            for step in [1, -1] {
                for _ in 1..<GridFrameBenchmark.columns {
                    let offset = view.gridState.horizontalOffset
                    let start = MonotonicClock.seconds()
                    view.handle(step > 0 ? .right : .left)
                    view.render(into: &canvas, at: 0)
                    let seconds = MonotonicClock.seconds() - start
                    if view.gridState.horizontalOffset != offset { times.append(seconds) }
                }
            }
            return times
        }
    }

    /// One section of ``GridFrameBenchmark/rows`` rows of 20 values made from the row
    /// number: text, numbers, dates, an occasional NULL and wide characters.
    final class Source: TableViewDataSource {
        private let words = ["alpha", "Zürich", "東京", "delta échoué", "🦀 crab", "a longer value, with words"]
        var numberOfSections: Int { 1 }
        func numberOfRows(inSection section: Int) -> Int { GridFrameBenchmark.rows }
        func cell(forRowAt indexPath: IndexPath) -> TableCell {
            let row = indexPath.row
            var values: [String?] = []
            values.reserveCapacity(GridFrameBenchmark.columns)
            for column in 0..<GridFrameBenchmark.columns {
                switch column % 4 {
                case 0: values.append(String(row * (column + 1)))
                case 1: values.append(words[(row + column) % words.count])
                case 2: values.append(row % 7 == column % 7 ? nil : "2024-0\(1 + row % 9)-1\(column % 10)")
                default: values.append("row \(row) · \(column)")
                }
            }
            return TableCell(values: values)
        }
    }
}
