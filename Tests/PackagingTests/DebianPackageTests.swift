import Foundation
import MyStashKit
import TestSupport
import Testing

/// The Debian package `scripts/package-deb.sh` made (in CI, its step does): lintian finds no
/// error, and installed with `dpkg` into a throwaway root its programs run with the toolchain
/// off every search path, link nothing of the toolchain, and ship their man pages and completions.
@Suite(
    .serialized,
    .enabled(if: Artifacts.debianPackage != nil, "no .build/deb/*.deb: run 'bash scripts/package-deb.sh' first"),
    .enabled(if: Artifacts.which("dpkg") != nil, "dpkg is not installed")
)
struct DebianPackageTests {
    let package = Artifacts.debianPackage ?? ""

    /// Installs the package into a fresh root with its own dpkg database (the dependencies are
    /// this machine's libraries, so they are not checked against the empty database).
    func installedRoot() throws -> URL {
        let root = try Artifacts.temporaryFolder("dpkg-root")
        let admin = root.appendingPathComponent("var/lib/dpkg")
        try FileManager.default.createDirectory(
            at: admin.appendingPathComponent("info"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(
            at: admin.appendingPathComponent("updates"),
            withIntermediateDirectories: true
        )
        try Data().write(to: admin.appendingPathComponent("status"))  // the empty package database
        let result = try ProcessRunner.run(
            "/usr/bin/dpkg",
            [
                "--root=\(root.path)", "--admindir=\(admin.path)", "--force-depends", "--force-not-root",
                "--force-script-chrootless", "--log=/dev/null", "-i", package,
            ]
        )
        try #require(result.status == 0, "dpkg -i: \(result.standardError)")
        return root
    }

    /// Runs `command` under `env -i PATH=/usr/bin:/bin HOME=…`: nothing of the toolchain on any search path.
    func runClean(_ command: String, _ arguments: [String], home: URL) throws -> ProcessResult {
        try ProcessRunner.run(
            "/usr/bin/env",
            ["-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "XDG_CACHE_HOME=\(home.path)/cache", command] + arguments
        )
    }

    @Test(.enabled(if: Artifacts.which("lintian") != nil, "lintian is not installed"))
    func lintianFindsNoError() throws {
        let result = try ProcessRunner.run(Artifacts.which("lintian")!, ["--no-tag-display-limit", package])
        let errors = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("E:") }
        #expect(errors.isEmpty, "lintian: \(errors.joined(separator: "\n"))")
    }

    @Test func packageHoldsTheProgramsManPagesCompletionsAndDocumentation() throws {
        let listing = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--contents", package]).standardOutput
        for program in Artifacts.programs {
            for path in [
                "./usr/bin/\(program)", "./usr/share/man/man1/\(program).1.gz",
                "./usr/share/bash-completion/completions/\(program)", "./usr/share/zsh/vendor-completions/_\(program)",
                "./usr/share/fish/vendor_completions.d/\(program).fish",
            ] {
                #expect(listing.contains(path), "the package has no \(path)")
            }
        }
        #expect(listing.contains("./usr/share/doc/fetchedtable-tools/copyright"))
        let depends = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", package, "Depends"]).standardOutput
        for library in ["libc6", "libsqlite3", "libncursesw6", "libsodium", "libcurl"] {
            #expect(depends.contains(library), "Depends: \(depends) names no \(library)")
        }
        #expect(!depends.lowercased().contains("swift"))
    }

    @Test func installedProgramsRunWithoutTheToolchain() throws {
        let root = try installedRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let bin = root.appendingPathComponent("usr/bin").path

        let version = try runClean("\(bin)/failedbanks", ["--version"], home: home)
        #expect(version.status == 0, "\(version.standardError)")
        #expect(version.standardOutput.hasPrefix("failedbanks 1."))

        let csv = home.appendingPathComponent("towns.csv")
        try Data("name,state\nAustin,TX\nBoise,ID\n".utf8).write(to: csv)
        let listed = try runClean("\(bin)/fetchedtable", ["list", csv.path], home: home)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("Austin") && listed.standardOutput.contains("Boise"))

        let stashPath = home.appendingPathComponent("new.sqlite").path
        _ = try Stash(path: stashPath)  // a new, empty stash
        let notes = try runClean("\(bin)/mystash", ["list", "notes", "--db", stashPath], home: home)
        #expect(notes.status == 0, "\(notes.standardError)")
        #expect(notes.standardOutput.isEmpty)

        let page = try ProcessRunner.run(
            "/usr/bin/man",
            ["-M", root.appendingPathComponent("usr/share/man").path, "-w", "failedbanks"]
        )
        #expect(page.status == 0 && page.standardOutput.hasSuffix("man1/failedbanks.1.gz\n"), "\(page.standardError)")
    }

    @Test(.enabled(if: Artifacts.toolchainRoot != nil, "no swift on PATH to locate the toolchain"))
    func installedProgramsLinkNothingOfTheToolchain() throws {
        let root = try installedRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        for program in Artifacts.programs {
            let ldd = try ProcessRunner.run("/usr/bin/ldd", [root.appendingPathComponent("usr/bin/\(program)").path])
            #expect(ldd.status == 0, "\(ldd.standardError)")
            #expect(
                !ldd.standardOutput.contains(Artifacts.toolchainRoot!),
                "\(program) links the toolchain:\n\(ldd.standardOutput)"
            )
            #expect(!ldd.standardOutput.contains("libswift") && !ldd.standardOutput.contains("libFoundation"))
            #expect(!ldd.standardOutput.contains("not found"), "\(program):\n\(ldd.standardOutput)")
        }
    }

    /// A real `dpkg -i` on this machine, then `dpkg -r`: `man -w` and the shells' own folders find
    /// the files. Changes the machine, so only when asked (`FETCHEDTABLE_TEST_SYSTEM_INSTALL=1`, as root).
    @Test(
        .enabled(if: Artifacts.isRoot, "needs root"),
        .enabled(
            if: ProcessInfo.processInfo.environment["FETCHEDTABLE_TEST_SYSTEM_INSTALL"] == "1",
            "set FETCHEDTABLE_TEST_SYSTEM_INSTALL=1 to install the package on this machine"
        )
    )
    func systemInstallIsFoundByManAndBashThenRemoved() throws {
        let installed = try ProcessRunner.run("/usr/bin/dpkg", ["-i", package])
        try #require(installed.status == 0, "dpkg -i: \(installed.standardError)")
        defer { _ = try? ProcessRunner.run("/usr/bin/dpkg", ["-r", "fetchedtable-tools"]) }
        let page = try ProcessRunner.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "man", "-w", "failedbanks"])
        #expect(page.standardOutput == "/usr/share/man/man1/failedbanks.1.gz\n", "\(page.standardError)")
        let version = try ProcessRunner.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "failedbanks", "--version"])
        #expect(version.status == 0 && version.standardOutput.hasPrefix("failedbanks "))
        let bash = try Artifacts.bash(
            "source /usr/share/bash-completion/completions/failedbanks && complete -p failedbanks",
            environment: ["PATH": "/usr/bin:/bin"]
        )
        #expect(bash.standardOutput == "complete -F _failedbanks failedbanks\n")
        let removed = try ProcessRunner.run("/usr/bin/dpkg", ["-r", "fetchedtable-tools"])
        #expect(removed.status == 0, "dpkg -r: \(removed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/failedbanks"))
    }
}
