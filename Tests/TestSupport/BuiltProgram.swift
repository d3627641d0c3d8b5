import Foundation

/// The one way the end-to-end tests find the programs they drive: in the
/// folder the running test bundle was built into, so the program tested is the
/// one `swift build` made from the same sources with the same scratch path and
/// configuration (a `swift test --scratch-path .build/asan` never picks up an
/// older `.build/debug/failedbanks`). `$<NAME>_BIN` (`FAILEDBANKS_BIN`,
/// `MYSTASH_BIN`, `FETCHEDTABLE_BIN`, `BANKLIST_GEN_BIN`) names another file
/// instead, for a program built elsewhere.
///
///     let failedbanks = try #require(BuiltProgram.path("failedbanks"))
///     guard BuiltProgram.path("mystash") != nil else { return BuiltProgram.missingReason("mystash") }
public enum BuiltProgram {
    /// The products folder of this build: where the running test bundle is.
    public static let productsDirectory: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable)
        // `….xctest` is the bundle (an executable on Linux, a folder elsewhere): its folder.
        while url.path.contains(".xctest") { url.deleteLastPathComponent() }
        return url
    }()

    /// The variable that names the program's file instead: `fetchedtable` → `FETCHEDTABLE_BIN`.
    public static func overrideVariable(_ name: String) -> String {
        name.uppercased().replacingOccurrences(of: "-", with: "_") + "_BIN"
    }

    /// The built program `name`, or nil when it is not there (not built yet).
    public static func path(_ name: String) -> String? {
        let candidate =
            ProcessInfo.processInfo.environment[overrideVariable(name)]
            ?? productsDirectory.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// Why a test of `name` cannot run: the sentence a skipped end-to-end test shows
    /// (it begins "no built", which `scripts/test.sh` fails on when tmux is installed).
    public static func missingReason(_ name: String) -> String {
        "no built \(name) in \(productsDirectory.path) (run 'swift build' first, or set \(overrideVariable(name)))"
    }
}
