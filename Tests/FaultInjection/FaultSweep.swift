import Foundation

/// Runs one operation under failure after failure: for each kind of fault, the 1st, 2nd, 3rd…
/// call fails, until a run in which the operation made fewer calls than that (it succeeded
/// without meeting the fault).
///
/// The short form (the default, part of the normal test run) tries N = 1, 2, 3, 4, then
/// doubles N, and last the final four calls of the operation (where the commits are); the
/// long form, `FAULTS_LONG=1`, tries every N.
///
///     let sweep = try FaultSweep.run { fault in
///         let trial = try Trial(folder)                      // a fresh copy of the file
///         let (result, report) = FaultInjection.inject(fault, under: trial.folder) { try trial.save() }
///         try trial.check(result, fired: report.fired)      // old or new state, never a lie
///         return report
///     }
///     #expect(sweep.fired(.write) > 0)
public enum FaultSweep {
    /// `FAULTS_LONG=1`: every N.
    public static let isLong = ProcessInfo.processInfo.environment["FAULTS_LONG"] == "1"
    /// `FAULTS_VERBOSE=1`: each sweep prints what it did.
    public static let isVerbose = ProcessInfo.processInfo.environment["FAULTS_VERBOSE"] == "1"

    /// The faults tried: what a disk and other processes really do to each call, as SQLite's
    /// own VFS reports it — a write on a full disk (`SQLITE_FULL`), any call failing with an
    /// I/O error, a lock another process holds (`SQLITE_BUSY`). Not the others: no VFS returns
    /// `SQLITE_BUSY` from a write or a sync, and SQLite, which does not expect it, reads it in a
    /// checkpoint as "try later" and goes on (a file it then calls malformed); ``FaultInjection``
    /// can still inject them one by one.
    public static let standardKinds: [(FaultyCall, FaultResult)] = [
        (.write, .ioError), (.write, .diskFull), (.sync, .ioError), (.truncate, .ioError),
        (.lock, .busy), (.lock, .ioError), (.shmLock, .busy), (.shmLock, .ioError),
    ]

    /// What a sweep did.
    public struct Summary: Sendable, CustomStringConvertible {
        /// Every trial's report, in order.
        public var reports: [FaultReport] = []
        /// How many trials met their fault, for `call`.
        public func fired(_ call: FaultyCall) -> Int { reports.filter { $0.fault.call == call && $0.fired }.count }
        /// How many trials ran.
        public var trials: Int { reports.count }
        public var description: String {
            let fired = FaultyCall.allCases.map { "\($0): \(self.fired($0))" }.joined(separator: ", ")
            return "\(trials) trials, faults met — \(fired)"
        }
    }

    /// Runs `trial` for each fault of `kinds` at the N of the short or long form (see the type);
    /// `trial` makes a fresh subject, injects the fault around the operation, checks the
    /// outcome, and returns the injection's report. At most `limit` trials per kind.
    @discardableResult
    public static func run(
        kinds: [(FaultyCall, FaultResult)] = standardKinds,
        limit: Int = 100_000,
        _ trial: (Fault) throws -> FaultReport
    ) throws -> Summary {
        var summary = Summary()
        for (call, result) in kinds {
            var tried = Set<Int>()
            var n = 1
            var total: Int?
            while total == nil, tried.count < limit {
                let report = try trial(Fault(call, result, n: n))
                summary.reports.append(report)
                tried.insert(n)
                if !report.fired {
                    total = report.calls
                } else {
                    n = isLong || n < 4 ? n + 1 : n * 2
                }
            }
            guard !isLong, let total else { continue }
            for last in (total - 3)...total where last > 0 && !tried.contains(last) {
                tried.insert(last)
                summary.reports.append(try trial(Fault(call, result, n: last)))
            }
        }
        return summary
    }
}
