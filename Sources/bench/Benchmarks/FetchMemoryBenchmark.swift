/// Resident memory added by a fetched controller over the whole store,
/// measured in a child process of its own (`bench --child fetch-rss`) so
/// nothing this process allocated before counts. Key: `fetch_rss_mb`
/// (median of a few children).
struct FetchMemoryBenchmark {
    let runner: BenchRunner

    func run() throws {
        let store = try runner.store()
        var added: [Double] = []
        for _ in 0..<runner.configuration.runs(small: 3, large: 3) {
            let result = try ChildProcess.run(runner.childCommand("fetch-rss", ["--db", store]), captureOutput: true)
            guard result.succeeded,
                let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("fetch-rss ") })
            else {
                throw BenchError.failed(
                    "the fetch-rss child failed (status \(result.status)): \(runner.lastLine(result.errorOutput))"
                )
            }
            let fields = FetchMemoryChild.parse(String(line))
            guard let before = fields["before_kb"], let after = fields["after_kb"] else {
                throw BenchError.failed("the fetch-rss child printed '\(line)'")
            }
            if let objects = fields["objects"], Int(objects) != runner.configuration.rows {
                runner.results.note("rss: the child fetched \(Int(objects)) objects, not \(runner.configuration.rows)")
            }
            added.append((after - before) / 1024)
        }
        runner.results.setMedian("fetch_rss_mb", of: added)
    }
}
