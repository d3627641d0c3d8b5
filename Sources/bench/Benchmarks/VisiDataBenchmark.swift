import CSVImport
import Foundation
import TestSupport

/// For comparison only (not a JSON key): VisiData's first screen of the same
/// CSV, through the same kind of pseudo-terminal as `first_screen_s`.
///
/// VisiData is the tool a person would otherwise use for this. It is
/// optional: when `vd` is not on `PATH` the row says n/a.
struct VisiDataBenchmark {
    let runner: BenchRunner

    func run() throws {
        guard let vd = ChildProcess.which("vd") ?? ChildProcess.which("visidata") else {
            runner.results.note("visidata: not installed (pip install visidata); no comparison")
            return
        }
        let csv = try runner.csv()
        guard
            let first = BankListGenerator(seed: BenchRunner.seed).banks(count: runner.configuration.rows)
                .first(where: { _ in true })
        else { return }
        let pattern = AppBenchmark.searchPattern(first.name)
        let runs = runner.configuration.runs(small: 3, large: 3)
        var times: [Double] = []
        let home = runner.workspace.path("vd-home")
        mkdir(home, 0o755)
        for index in 0...runs {
            let tty = try PseudoTerminal([vd, csv], environment: ["HOME": home], rows: 24, columns: 80)
            guard let shown = tty.waitFor(pattern, timeout: 30) else {
                tty.finish(timeout: 0.5)
                throw BenchError.failed(
                    "VisiData did not show '\(String(decoding: pattern, as: UTF8.self))' within 30 s"
                )
            }
            if index > 0 { times.append(shown - tty.startTime) }
            tty.send(Array("gq".utf8))
            tty.finish(timeout: 2)
        }
        runner.results.setMedian("visidata_first_screen_s", of: times)
    }
}
