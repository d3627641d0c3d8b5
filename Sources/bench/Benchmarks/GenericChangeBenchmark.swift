/// Placeholder until the foreign store (ft-engine) is merged.
struct GenericChangeBenchmark {
    let runner: BenchRunner
    let database: String
    let rows: Int
    func run() throws { throw BenchError.missing("the foreign store (Store(foreignDatabaseAt:)) is not in this build") }
}
