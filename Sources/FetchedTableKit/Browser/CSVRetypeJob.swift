import BulkImport
import Foundation

/// A CSV file's cache column re-typed on a thread of its own (``CSVTableRetyping``): its
/// progress and its outcome handed to functions any thread may call (the run loop's
/// posters), so the list stays browsable meanwhile and sees the new values once the
/// transaction commits.
///
///     let job = CSVRetypeJob(databasePath: path, table: "flights", column: "dep_delay", to: .integer,
///                            missingValues: ["NA"])
///     job.start(progress: loop.poster { fraction in … }, finish: loop.poster { outcome in … })
struct CSVRetypeJob: Sendable {
    let retyping: CSVTableRetyping
    let column: String
    let target: CSVTableRetyping.Target
    let missingValues: [String]

    init(
        databasePath: String,
        table: String,
        column: String,
        to target: CSVTableRetyping.Target,
        missingValues: [String]
    ) {
        retyping = CSVTableRetyping(databasePath: databasePath, table: table)
        self.column = column
        self.target = target
        self.missingValues = missingValues
    }

    /// Starts the thread: `progress` gets how far it is (0…1) after each step, `finish` the outcome.
    func start(
        progress: @escaping @Sendable (sending Double) -> Void,
        finish: @escaping @Sendable (sending Result<CSVTableRetyping.Outcome, Error>) -> Void
    ) {
        let thread = Thread { [self] in
            let result = Result {
                try retyping.retype(column, to: target, missingValues: missingValues) { done, total in
                    progress(Double(done) / Double(max(1, total)))
                }
            }
            finish(result)
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
}
