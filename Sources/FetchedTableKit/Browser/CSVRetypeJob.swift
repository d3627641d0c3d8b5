import BulkImport
import Foundation

/// A CSV file's cache column re-typed on a thread of its own (``CSVTableRetyping``), its
/// progress and outcome read by the run loop's ticker: the list stays browsable meanwhile,
/// and sees the new values once the transaction commits.
///
///     let job = CSVRetypeJob(databasePath: path, table: "flights", column: "dep_delay", to: .integer,
///                            missingValues: ["NA"])
///     job.start()
///     // every tick: job.progress, then job.outcome once done
final class CSVRetypeJob: @unchecked Sendable {
    let retyping: CSVTableRetyping
    let column: String
    let target: CSVTableRetyping.Target
    let missingValues: [String]
    private let lock = NSLock()
    private var fraction = 0.0
    private var result: Result<CSVTableRetyping.Outcome, Error>?

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

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in
            let result = Result {
                try retyping.retype(column, to: target, missingValues: missingValues) { done, total in
                    lock.withLock { fraction = Double(done) / Double(max(1, total)) }
                }
            }
            lock.withLock { self.result = result }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// How far it is, 0…1.
    var progress: Double { lock.withLock { fraction } }
    /// What it did, once done.
    var outcome: Result<CSVTableRetyping.Outcome, Error>? { lock.withLock { result } }
}
