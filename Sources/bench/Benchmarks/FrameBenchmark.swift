import Foundation
@_spi(Benchmark) import TerminalUI

/// One `TableView` frame rendered into an 80×24 in-memory `Canvas`, for a
/// 1,000,000-row and a 100-row data source of the same shape.
///
/// Before each timed frame the selection moves down one row (untimed), so
/// the frames are those of a user scrolling through the middle of the
/// table; rounds of 1M and 100-row frames alternate so noise hits both.
/// Keys: `frame_1m_ms`, `frame_100_ms`, `frame_ratio`.
struct FrameBenchmark {
    let runner: BenchRunner

    func run() throws {
        let large = Table(rows: 1_000_000)
        let small = Table(rows: 100)
        let rounds = runner.configuration.runs(small: 10, large: 20)
        let framesPerRound = 200
        var largeTimes: [Double] = []
        var smallTimes: [Double] = []
        _ = large.frames(framesPerRound)  // warm-up
        _ = small.frames(framesPerRound)
        for _ in 0..<rounds {
            largeTimes += large.frames(framesPerRound)
            smallTimes += small.frames(framesPerRound)
        }
        runner.results.setMedian("frame_1m_ms", of: largeTimes, scale: 1000)
        runner.results.setMedian("frame_100_ms", of: smallTimes, scale: 1000)
        runner.results.setRatio("frame_ratio", "frame_1m_ms", "frame_100_ms")
        if !large.drewRows || !small.drewRows {
            runner.results.note("frame: the table drew no rows; figures are not meaningful")
        }
    }

    /// A table view over a synthetic source, scrolled to the middle.
    final class Table {
        let source: SyntheticBankSource
        let view = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
        var canvas = Canvas(width: 80, height: 24)
        private(set) var drewRows = false

        init(rows: Int) {
            source = SyntheticBankSource(rows: rows)
            view.dataSource = source
            view.animatesUpdates = false
            let middle = source.numberOfSections / 2
            view.selectRow(at: IndexPath(row: source.numberOfRows(inSection: middle) / 2, section: middle))
            view.render(into: &canvas, at: 0)
            drewRows = canvas.text.contains("Bank")
            if BenchRunner.debug { print(canvas.text) }
        }

        /// Renders `count` frames, moving the selection down before each
        /// (wrapping to the top at the end); returns each frame's seconds.
        func frames(_ count: Int) -> [Double] {
            var times: [Double] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                if let last = view.selection, last.section == source.numberOfSections - 1,
                    last.row == source.numberOfRows(inSection: last.section) - 1
                {
                    view.selectRow(at: IndexPath(row: 0, section: 0))
                } else {
                    view.handle(.down)
                }
                let start = MonotonicClock.seconds()
                view.render(into: &canvas, at: 0)
                times.append(MonotonicClock.seconds() - start)
            }
            return times
        }
    }
}
