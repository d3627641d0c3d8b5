import FaultInjection
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// `failedbanks import` and `failedbanks update` under every injected I/O failure (README:
/// Reliability): each command opens, writes and closes the store itself; a failure exits with
/// an I/O or busy status and the store as it was, and the same command run again brings
/// exactly what a run without faults brings.
@Suite struct WriteFaultTests {
    /// A command that exited with a status other than 0.
    struct Failed: Error, CustomStringConvertible {
        var status: Int32
        var errors: [String]
        var description: String { "exit \(status): \(errors.joined(separator: " / "))" }
    }

    /// A store as `make` leaves it.
    static func template(_ make: @escaping (Store) throws -> Void = { _ in }) throws -> FileTemplate {
        try FileTemplate("banks.sqlite") { path in try make(try FailedBankStore.open(path: path)) }
    }

    /// What a failed command says: an I/O (74) or busy (75) status, and a sentence, not a raw SQL error.
    static func refusal(_ error: any Error) -> [String] {
        guard let failed = error as? Failed else { return ["not a command failure: \(error)"] }
        var problems: [String] = []
        if ![74, 75].contains(failed.status) { problems.append("exit status \(failed.status)") }
        if failed.errors.joined().contains("SQL:") { problems.append("the message shows SQL: \(failed.errors)") }
        return problems
    }

    /// Into an empty store (the bulk load), and the list with three new banks and one changed
    /// into a store holding the bundled list (the upsert).
    @Test func anImportThatFailsLeavesTheStoreAsItWas() throws {
        let folder = TemporaryDirectory("import-faults")
        let newer = folder.path("newer.csv")
        try Data(UpdateCommandTests.newerList).write(to: URL(fileURLWithPath: newer))
        let cases = [
            (BundledListTests.path, try Self.template()),
            (newer, try Self.template { _ = try BankImporter(store: $0).importFile(BundledListTests.path) }),
        ]
        for (file, template) in cases {
            let run: (String) throws -> Void = { path in
                let result = runImport([file, "--db", path])
                if result.status != 0 { throw Failed(status: result.status, errors: result.errors) }
            }
            let outcome = try WriteUnderFaults<String>(
                template: template,
                open: { $0 },
                operation: run,
                afterFailure: { _, error in Self.refusal(error) },
                retry: run
            ).run()
            #expect(outcome.problems.isEmpty, "\(outcome)")
            #expect(outcome.summary.fired(.write) > 0, "\(outcome)")
        }
    }

    /// An update from a local server (three new banks, one changed; validators kept as metadata).
    @Test func anUpdateThatFailsLeavesTheStoreAsItWas() throws {
        let server = try LocalHTTPServer { _ in
            .ok(
                body: UpdateCommandTests.newerList,
                headers: [("ETag", "\"fdic-v2\""), ("Last-Modified", "Fri, 14 Nov 2025 20:00:00 GMT")]
            )
        }
        defer { server.stop() }
        let url = server.url("/banklist.csv")
        let run: (String) throws -> Void = { path in
            var errors: [String] = []
            let status = UpdateCommand.run(
                ["--url", url, "--db", path, "--quiet"],
                environment: [:],
                output: { _ in },
                errorOutput: { errors.append($0) },
                progressBars: false
            )
            if status != 0 { throw Failed(status: status, errors: errors) }
        }
        let outcome = try WriteUnderFaults<String>(
            template: try Self.template { _ = try BankImporter(store: $0).importFile(BundledListTests.path) },
            open: { $0 },
            operation: run,
            afterFailure: { _, error in Self.refusal(error) },
            retry: run
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }
}
