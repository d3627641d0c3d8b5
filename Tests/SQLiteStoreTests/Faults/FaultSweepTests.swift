import FaultInjection
import Testing

/// The short form of the fault sweep — the one every `swift test`, and so `.ci/run`, runs —
/// tries a bounded set of N for each kind of fault, whatever the operation's length: 1 to 4,
/// then doubling, then the operation's last four calls (where its commits are).
@Suite struct FaultSweepTests {
    @Test(.enabled(if: !FaultSweep.isLong, "FAULTS_LONG=1 tries every N"))
    func theShortFormTriesAFewNAndTheLastFourCalls() throws {
        let calls = 1000  // an operation that makes 1,000 calls of the kind
        var tried: [Int] = []
        let summary = try FaultSweep.run(kinds: [(.write, .diskFull)]) { fault in
            tried.append(fault.n)
            // Met, the fault stops the operation at its Nth call; past its end, it is never met.
            return FaultReport(fault: fault, calls: min(fault.n, calls))
        }
        #expect(tried == [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 997, 998, 999, 1000])
        #expect(summary.trials == 16)
        #expect(summary.fired(.write) == 15)
    }

    @Test func eachKindIsSweptOnItsOwnUntilTheOperationNoLongerMeetsIt() throws {
        var tried: [String] = []
        try FaultSweep.run(kinds: [(.write, .ioError), (.sync, .ioError)]) { fault in
            tried.append("\(fault.call) \(fault.n)")
            return FaultReport(fault: fault, calls: min(fault.n, fault.call == .write ? 2 : 1))
        }
        #expect(tried == ["write 1", "write 2", "write 3", "sync 1", "sync 2"])
    }
}
