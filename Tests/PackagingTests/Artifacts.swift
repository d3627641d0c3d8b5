import Foundation
import TestSupport

/// Where the tests find what they check: the package root, the debug programs `swift build`
/// made, the Debian package `scripts/package-deb.sh` made, and the tools on this machine.
enum Artifacts {
    /// The three programs of the package.
    static let programs = ["failedbanks", "mystash", "fetchedtable"]

    /// The package root, from this file's path.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Artifacts.swift, PackagingTests, Tests
        return url
    }()

    /// The folder of the debug programs (`$FETCHEDTABLE_BIN_DIR`, else this build's products
    /// folder, ``BuiltProgram/productsDirectory``), when all three are there.
    static let debugBinDirectory: String? = {
        let directory =
            ProcessInfo.processInfo.environment["FETCHEDTABLE_BIN_DIR"] ?? BuiltProgram.productsDirectory.path
        return programs.allSatisfy { FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)") }
            ? directory : nil
    }()

    /// The newest `.build/deb/fetchedtable-tools_*.deb` (made by `scripts/package-deb.sh`, in CI by its step).
    static let debianPackage: String? = {
        let folder = packageRoot.appendingPathComponent(".build/deb")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("fetchedtable-tools_") && $0.hasSuffix(".deb") }.sorted().last
            .map { folder.appendingPathComponent($0).path }
    }()

    /// The toolchain's root (`/opt/swift` for `/opt/swift/usr/bin/swift`), from `swift` on PATH.
    static let toolchainRoot: String? = {
        guard let swift = which("swift") else { return nil }
        var url = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
        for _ in 0..<3 { url.deleteLastPathComponent() }  // swift, bin, usr
        return url.path
    }()

    /// Whether this process runs as root.
    static let isRoot = getuid() == 0

    /// The path of a program on PATH, or nil.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a bash script (with `arguments` as `$1…`), returning its status and output.
    @discardableResult
    static func bash(
        _ script: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil
    ) throws
        -> ProcessResult
    {
        try ProcessRunner.run("/bin/bash", ["-c", script, "bash"] + arguments, environment: environment)
    }

    /// A fresh folder under the temporary directory.
    static func temporaryFolder(_ label: String) throws -> URL {
        TemporaryDirectory.create(label)
    }
}
