import CLIKit
import Foundation

/// The stash group, `bench --only stash`: `mystash import` of a Bitwarden export the stash
/// already holds, every entry found unchanged — what a person does who imports the same export
/// twice. Issue 38 measured 40 s for 16,000 entries (each row looked up by a scan of the stash
/// and a decryption of every namesake's user ID); the target is 10 s for 100,000.
///
/// Runs the `mystash` executable beside `bench` (a release build puts it there): `init`, a
/// first import into the empty stash (`stash_import100k_s`, shown for information), then the
/// timed re-imports, each from spawn to reap, the median written as `stash_reimport100k_s`.
/// The passphrase goes through descriptor 3, as a script gives it. At 100,000 entries when the
/// group is named in `--only` or the run is large, else at `--rows` (a quick run stays quick).
struct StashReimportBenchmark {
    let runner: BenchRunner

    func run() throws {
        let entries = runner.configuration.stashEntries
        guard let mystash = program() else {
            runner.results.note("stash: no mystash beside bench (swift build -c release builds it there)")
            return
        }
        if entries != 100_000 {
            runner.results.note("stash: \(entries) entries (the key is named for 100k)")
        }
        let csv = runner.workspace.path("stash-export.csv")
        try writeExport(entries: entries, to: csv)
        let passphrase = runner.workspace.path("stash-passphrase")
        guard FileText.store("bench stash passphrase, not a secret\n", at: passphrase) else {
            throw ChildProcess.SpawnError(program: passphrase, code: errno)
        }
        chmod(passphrase, 0o600)
        let db = runner.workspace.path("stash.sqlite")
        runner.workspace.removeDatabase(db)
        let made = try mystashRun(mystash, ["init", "--db", db], passphrase: passphrase)
        guard made.succeeded else {
            runner.results.note(
                "stash: mystash init failed (status \(made.status)): \(runner.lastLine(made.errorOutput))"
            )
            return
        }
        let first = try mystashRun(mystash, ["import", csv, "--db", db], passphrase: passphrase)
        guard first.succeeded, first.output.contains("\(entries) added") else {
            runner.results.note(
                "stash: the first import failed (status \(first.status)): \(runner.lastLine(first.errorOutput + first.output))"
            )
            return
        }
        runner.results["stash_import100k_s"] = first.seconds
        runner.log(String(format: "stash: first import of %d entries in %.2f s", entries, first.seconds))
        var times: [Double] = []
        var cpu: [Double] = []
        for index in 1...runner.configuration.runs(small: 1, large: 3) {
            let again = try mystashRun(mystash, ["import", csv, "--db", db], passphrase: passphrase)
            guard again.succeeded, again.output.contains("\(entries) unchanged") else {
                runner.results.note(
                    "stash: the re-import did not find every entry unchanged (status \(again.status)): "
                        + runner.lastLine(again.errorOutput + again.output)
                )
                return
            }
            times.append(again.seconds)
            cpu.append(again.cpuSeconds)
            runner.log(String(format: "stash: re-import run %d: %.2f s", index, again.seconds))
        }
        runner.results.setMedian("stash_reimport100k_s", of: times)
        // Its CPU time: what a loaded machine does not stretch (shown, not judged).
        runner.results.setMedian("stash_reimport100k_cpu_s", of: cpu)
        runner.workspace.removeDatabase(db)
    }

    /// `mystash` beside `bench`, nil when there is none.
    private func program() -> String? {
        let sibling = (runner.executablePath as NSString).deletingLastPathComponent + "/mystash"
        guard access(sibling, X_OK) == 0 else { return nil }
        runner.log("measuring \(sibling)")
        return sibling
    }

    /// Runs `mystash arguments --passphrase-fd 3` with the file `passphrase` as descriptor 3
    /// (through `sh`, which `ChildProcess` cannot do itself); a debug build takes the tests' cost.
    private func mystashRun(_ mystash: String, _ arguments: [String], passphrase: String) throws -> ChildProcess.Result
    {
        try ChildProcess.run(
            ["/bin/sh", "-c", "exec \"$0\" \"$@\" 3< \"$PASSPHRASE_FILE\"", mystash] + arguments + [
                "--passphrase-fd", "3",
            ],
            environment: ["PASSPHRASE_FILE": passphrase, "MYSTASH_KDF": "min"],
            captureOutput: true
        )
    }

    /// A Bitwarden export of `entries` logins: each its own name, user ID, URL and password (made
    /// from its number, the same every run).
    private func writeExport(entries: Int, to path: String) throws {
        var text =
            "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
        text.reserveCapacity(entries * 110)
        for i in 0..<entries {
            let secret = String((UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 16, radix: 36)
            text += ",,login,site \(i).example,,,0,https://site\(i).example/login,user\(i)@example.com,pw-\(secret),\n"
        }
        guard FileText.store(text, at: path) else { throw ChildProcess.SpawnError(program: path, code: errno) }
    }
}
