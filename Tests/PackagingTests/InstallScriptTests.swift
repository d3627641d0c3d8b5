import Foundation
import TestSupport
import Testing

/// `scripts/install.sh --prefix DIR` installs the programs with their man pages and completions
/// (here the debug build, `--bin-dir`), the shells accept the completion files, and
/// `--uninstall` removes exactly what was installed.
@Suite(.enabled(if: Artifacts.debugBinDirectory != nil, "needs the debug programs ('swift build' first)"))
struct InstallScriptTests {
    let script = Artifacts.packageRoot.appendingPathComponent("scripts/install.sh").path

    /// Every file and folder under `root`, relative to it, sorted.
    static func tree(_ root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }

    func install(prefix: URL) throws {
        let result = try Artifacts.bash(
            "bash \"$1\" --prefix \"$2\" --bin-dir \"$3\"",
            [script, prefix.path, Artifacts.debugBinDirectory!]
        )
        try #require(result.status == 0, "install.sh: \(result.standardError)")
    }

    @Test func installPutsEveryFileUnderThePrefixAndUninstallRemovesExactlyThose() throws {
        let parent = try Artifacts.temporaryFolder("install")
        defer { try? FileManager.default.removeItem(at: parent) }
        let prefix = parent.appendingPathComponent("prefix")
        // Someone else's file in a folder the install also uses: it must survive the uninstall.
        let foreign = prefix.appendingPathComponent("bin/other-tool")
        try FileManager.default.createDirectory(
            at: foreign.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("#!/bin/sh\n".utf8).write(to: foreign)
        let before = Self.tree(parent)

        try install(prefix: prefix)
        let installed = Set(Self.tree(prefix))
        for program in Artifacts.programs {
            for path in [
                "bin/\(program)", "share/man/man1/\(program).1.gz", "share/bash-completion/completions/\(program)",
                "share/zsh/site-functions/_\(program)", "share/fish/vendor_completions.d/\(program).fish",
            ] {
                #expect(installed.contains(path), "missing \(path)")
            }
        }
        #expect(installed.contains("share/doc/fetchedtable-tools/copyright"))
        #expect(installed.contains("share/fetchedtable-tools/banklist.csv"))
        let man = try Artifacts.bash(
            "man -l -P cat \"$1\" 2>/dev/null | head -5",
            [prefix.path + "/share/man/man1/failedbanks.1.gz"]
        )
        #expect(man.standardOutput.contains("failedbanks"))

        // Installing again replaces, and still uninstalls to the same tree.
        try install(prefix: prefix)
        let uninstall = try Artifacts.bash("bash \"$1\" --uninstall --prefix \"$2\"", [script, prefix.path])
        #expect(uninstall.status == 0, "\(uninstall.standardError)")
        #expect(Self.tree(parent) == before)
    }

    @Test func bashCompletionFromTheInstalledFileCompletesSubcommandsOptionsAndValues() throws {
        let prefix = try Artifacts.temporaryFolder("completion")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try install(prefix: prefix)
        let completions = prefix.appendingPathComponent("share/bash-completion/completions").path
        // `complete` after sourcing, then what Tab would offer (COMP_WORDS as bash sets them).
        let script = """
            PATH="$2/bin:$PATH"
            source "$1/failedbanks"; source "$1/mystash"; source "$1/fetchedtable"
            complete -p failedbanks
            offer() { local function=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); $function; echo "$*=>${COMPREPLY[*]}"; }
            offer _failedbanks failedbanks --so
            offer _failedbanks failedbanks li
            offer _failedbanks failedbanks list --sort ''
            offer _failedbanks failedbanks list --format j
            offer _mystash mystash show --field ''
            offer _mystash mystash show ''
            offer _mystash mystash list ''
            offer _fetchedtable fetchedtable "$3" --table ''
            offer _fetchedtable fetchedtable list "$3" --format ''
            """
        let database = prefix.appendingPathComponent("school.sqlite").path
        let made = try Artifacts.bash(
            "sqlite3 \"$1\" 'CREATE TABLE student(id INTEGER PRIMARY KEY, name TEXT); CREATE VIEW seniors AS SELECT * FROM student;'",
            [database]
        )
        try #require(made.status == 0, "sqlite3: \(made.standardError)")
        let result = try Artifacts.bash(script, [completions, prefix.path, database])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "complete -F _failedbanks failedbanks")
        #expect(lines.contains("failedbanks --so=>--sort"))
        #expect(lines.contains("failedbanks li=>list"))
        #expect(lines.contains("failedbanks list --sort =>date name state"))
        #expect(lines.contains("failedbanks list --format j=>json"))
        #expect(lines.contains("mystash show --field =>password user url notes totp"))
        #expect(lines.contains("mystash show =>"), "mystash never completes an entry's name")
        #expect(lines.contains("mystash list =>notes passwords"))
        #expect(lines.contains("fetchedtable \(database) --table =>seniors student"))
        #expect(lines.contains("fetchedtable list \(database) --format =>text json csv"))
    }

    @Test(.enabled(if: Artifacts.which("zsh") != nil, "zsh is not installed"))
    func zshCompletionFilesParse() throws {
        let prefix = try Artifacts.temporaryFolder("zsh")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try install(prefix: prefix)
        for program in Artifacts.programs {
            let file = prefix.appendingPathComponent("share/zsh/site-functions/_\(program)").path
            let result = try ProcessRunner.run(Artifacts.which("zsh")!, ["-n", file])
            #expect(result.status == 0, "zsh -n _\(program): \(result.standardError)")
        }
    }

    @Test(.enabled(if: Artifacts.which("fish") != nil, "fish is not installed"))
    func fishCompletionFilesParse() throws {
        let prefix = try Artifacts.temporaryFolder("fish")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try install(prefix: prefix)
        for program in Artifacts.programs {
            let file = prefix.appendingPathComponent("share/fish/vendor_completions.d/\(program).fish").path
            let result = try ProcessRunner.run(Artifacts.which("fish")!, ["--no-execute", file])
            #expect(result.status == 0, "fish --no-execute \(program).fish: \(result.standardError)")
        }
    }
}
