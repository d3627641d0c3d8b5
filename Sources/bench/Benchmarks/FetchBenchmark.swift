struct FetchBenchmark {
    let runner: BenchRunner

    func run() throws {
        throw BenchError.missing("not yet available")
    }
}
