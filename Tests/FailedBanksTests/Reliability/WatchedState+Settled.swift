import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension WatchedState {
    /// What `failedbanks watch` and a fresh `list` agree on, or not, once the writers stopped.
    struct Settled {
        /// Watch's state, rebuilt from its lines.
        var watched: WatchedState
        /// The fresh list's sections.
        var expected: [Section]
        /// The fresh list's output (`list --format json`).
        var listed: String
        /// How long watch's state took to equal the list's after the quiet period, in seconds (or
        /// how long it was given).
        var convergence: Double
        /// How many banks the fresh list has.
        var total: Int { expected.reduce(0) { $0 + $1.ids.count } }
    }

    /// Once `watch`'s output has not grown for `quiet` seconds (waited for up to `timeout`): a fresh
    /// `list --format json` of `store`, and watch's state rebuilt from its lines — read again every
    /// half second while it differs, for up to `converging` seconds while watch runs (a large batch
    /// may take it a while: eventually consistent).
    static func settled(
        watch: SpawnedProcess,
        binary: String,
        store: String,
        quiet: Double,
        timeout: Double,
        converging: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Settled {
        try waitUntilStable(watch.outputPath, quiet: quiet, timeout: timeout)
        let fresh = try ProcessRunner.run(binary, ["list", "--db", store, "--format", "json"])
        try #require(fresh.status == 0, "list --format json: \(fresh.standardError)", sourceLocation: sourceLocation)
        let expected = try Section.list(fromJSON: fresh.standardOutput)
        var watched = try WatchedState(jsonLines: watch.standardOutput)
        let started = Date()
        while watched.sections != expected && Date().timeIntervalSince(started) < converging && watch.isRunning {
            usleep(500_000)
            watched = try WatchedState(jsonLines: watch.standardOutput)
        }
        return Settled(
            watched: watched,
            expected: expected,
            listed: fresh.standardOutput,
            convergence: Date().timeIntervalSince(started)
        )
    }
}
