import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion (the built `failedbanks`, for the download tests) and reports,
/// besides its status and output, the most memory it held (`wait4`'s `ru_maxrss`, this child's
/// own, not the test process's) — a download must stay bounded whatever the server sends.
///
///     let run = try MeasuredProcess.run(BrowserFixture.binary!, ["update", "--url", url, "--db", path])
///     #expect(run.maximumResidentMegabytes < 200)
struct MeasuredProcess {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// The peak resident set size, in MiB.
    var maximumResidentMegabytes: Double

    /// Runs `executable` with `arguments`, this process's environment with `environment` on top,
    /// standard input from `/dev/null`, and output into files of `scratch`.
    static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        scratch: TemporaryDirectory
    ) throws -> MeasuredProcess {
        let out = scratch.path("measured-\(UUID().uuidString.prefix(8)).out")
        let err = scratch.path("measured-\(UUID().uuidString.prefix(8)).err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw EndToEndError("posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return MeasuredProcess(
            status: exitStatus,
            standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
            maximumResidentMegabytes: Double(usage.ru_maxrss) / 1024
        )
    }
}
