import Foundation
import TestSupport

/// The standard fault-injection test of one operation that writes a file: for every fault of
/// a ``FaultSweep``, a fresh copy of a starting file, a subject made over it (opened, loaded,
/// edited — without faults), the operation run with the fault armed, and then the checks
/// every write must pass:
///
/// 1. success is reported only when the file holds the new state, and a failure leaves it
///    exactly in the old state (never half, never the new state with a failure reported);
/// 2. the file passes `PRAGMA integrity_check`;
/// 3. after a failure, `afterFailure` checks the subject's memory (pending changes intact,
///    in step with the file), and `retry` — run without faults — brings exactly the new state:
///    what the user typed is saved;
/// 4. with the subject released, the files left beside the database (`-wal`, `-shm`,
///    journal) are ones the next open handles: it opens, the file is sound and new.
///
/// The new state is that of a reference run without faults. Problems are collected, not
/// thrown: the test expects ``Outcome/problems`` to be empty.
///
///     let outcome = try WriteUnderFaults(template: template) { path in try Subject(path) }
///         operation: { try $0.context.save() }
///         retry: { try $0.context.save() }
///         .run()
///     #expect(outcome.problems.isEmpty, "\(outcome)")
public struct WriteUnderFaults<Subject> {
    /// The starting file, copied for each trial.
    public var template: FileTemplate
    /// Makes the subject over the copy at the path (runs without faults).
    public var open: (String) throws -> Subject
    /// The operation under test (runs with the fault armed); a throw is a reported failure.
    public var operation: (Subject) throws -> Void
    /// After a reported failure: checks of the subject's memory; returns problems found.
    public var afterFailure: (Subject, any Error) throws -> [String] = { _, _ in [] }
    /// After a reported failure: the user's retry (no faults), which must bring the new state.
    public var retry: ((Subject) throws -> Void)?
    /// The file's contents as compared (default: every table).
    public var digest: (String) throws -> String = { try StoredState.digest(of: $0) }
    /// The faults to try.
    public var kinds: [(FaultyCall, FaultResult)] = FaultSweep.standardKinds

    /// The test of `operation` on subjects `open` makes over copies of `template`; `digest`
    /// (default: every table's rows) is what must be the old or the new state — a file whose
    /// writes are not deterministic (fresh nonces) compares what they mean instead.
    public init(
        template: FileTemplate,
        open: @escaping (String) throws -> Subject,
        operation: @escaping (Subject) throws -> Void,
        afterFailure: @escaping (Subject, any Error) throws -> [String] = { _, _ in [] },
        retry: ((Subject) throws -> Void)?,
        digest: @escaping (String) throws -> String = { try StoredState.digest(of: $0) }
    ) {
        self.template = template
        self.open = open
        self.operation = operation
        self.afterFailure = afterFailure
        self.retry = retry
        self.digest = digest
    }

    /// What the sweep found.
    public struct Outcome: CustomStringConvertible {
        /// The sweep's trials.
        public var summary: FaultSweep.Summary
        /// Each check that failed, with its fault.
        public var problems: [String]
        /// How many trials reported a failure.
        public var failuresReported: Int
        public var description: String {
            "\(summary); \(failuresReported) failures reported; \(problems.count) problems"
                + (problems.isEmpty ? "" : ":\n" + problems.prefix(12).joined(separator: "\n"))
        }
    }

    /// Runs the reference run, then the sweep.
    public func run() throws -> Outcome {
        // Before any connection opens: one opened earlier goes to the disk directly.
        FaultInjection.install()
        let (oldDigest, newDigest) = try reference()
        var problems: [String] = []
        if oldDigest == newDigest { problems.append("the operation changes nothing: nothing to test") }
        var failures = 0
        let summary = try FaultSweep.run(kinds: kinds) { fault in
            let folder = TemporaryDirectory("faults")
            defer { folder.remove() }
            let path = try template.copy(into: folder.path)
            var found: [String] = []
            // An error of the checks themselves (the next open finds the file damaged) is a problem of the trial.
            var report = FaultReport(fault: fault, calls: fault.n)
            do {
                let subject = try open(path)
                let before = try digest(path)
                if before != oldDigest { found.append("the subject's preparation is not repeatable") }
                let (result, injected) = FaultInjection.inject(fault, under: folder.path) { try operation(subject) }
                report = injected
                let after = try digest(path)
                if FileManager.default.fileExists(atPath: path) {
                    let integrity = try StoredState.integrity(of: path)
                    if integrity != "ok" { found.append("integrity_check: \(integrity)") }
                }
                switch result {
                case .success:
                    if after != newDigest {
                        found.append(
                            after == before
                                ? "reported success, changed nothing" : "reported success, file is neither old nor new"
                        )
                    }
                case .failure(let error):
                    failures += 1
                    if after == newDigest {
                        found.append("reported failure (\(error)) but the file holds the new state")
                    } else if after != before {
                        found.append("reported failure (\(error)); the file is neither old nor new")
                    }
                    found += try afterFailure(subject, error).map { "after \(error): \($0)" }
                    if let retry {
                        do {
                            try retry(subject)
                            if try digest(path) != newDigest { found.append("the retry did not bring the new state") }
                        } catch {
                            found.append("the retry failed: \(error)")
                        }
                    }
                }
            } catch {
                found.append("reading the file after the operation failed: \(error)")
            }
            // The subject is released: its connections are closed. The next open must manage.
            do {
                guard FileManager.default.fileExists(atPath: path) else { throw NoFile() }
                let integrity = try StoredState.integrity(of: path)
                if integrity != "ok" { found.append("after closing: integrity_check: \(integrity)") }
            } catch is NoFile {
                // Nothing was created (an operation that makes the file failed early): nothing to open.
            } catch {
                found.append("after closing, the next open failed: \(error)")
            }
            problems += found.map { "\(fault): \($0)" }
            return report
        }
        let outcome = Outcome(summary: summary, problems: problems, failuresReported: failures)
        if FaultSweep.isVerbose { print("faults: \(outcome)") }
        return outcome
    }

    /// The old and the new state: a run without faults.
    private func reference() throws -> (String, String) {
        let folder = TemporaryDirectory("faults-reference")
        defer { folder.remove() }
        let path = try template.copy(into: folder.path)
        let subject = try open(path)
        let old = try digest(path)
        try operation(subject)
        return (old, try digest(path))
    }
}

/// A starting file made once, then copied (the main file only: it is made closed, checkpointed),
/// or no file at all (``absent(_:)``: for an operation that creates it).
public final class FileTemplate {
    private let folder: TemporaryDirectory
    /// The file's name.
    public let name: String
    /// The file's path in the template's own folder.
    public var path: String { folder.path(name) }

    /// Makes the file: `make` writes it at the path it is given and closes it.
    public init(_ name: String = "store.sqlite", _ make: (String) throws -> Void) throws {
        folder = TemporaryDirectory("faults-template")
        self.name = name
        try make(folder.path(name))
        let left = StoredState.sideFiles(of: folder.path(name))
        precondition(left.isEmpty, "the template was not closed: \(left) left beside it")
    }

    /// No file called `name`: each trial starts from an empty folder.
    public static func absent(_ name: String) throws -> FileTemplate { try FileTemplate(name) { _ in } }

    /// Copies the file into `directory` (when there is one); returns the copy's path.
    public func copy(into directory: String) throws -> String {
        let target = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { return target }
        try FileManager.default.copyItem(atPath: path, toPath: target)
        return target
    }
}

/// The file is not there (an operation that creates it failed before it did).
private struct NoFile: Error {}
