import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `ProcessRunner.runDetaching` starts tmux servers that outlive the call: they must not keep the test process's descriptors.
@Suite struct EndToEndRunTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/ls"), "needs /bin/ls"))
    func aStartedProgramInheritsNoDescriptorAboveStandardError() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)  // not close-on-exec, like most of what tests open
        defer {
            close(ends[0])
            close(ends[1])
        }
        let listed = try ProcessRunner.runDetaching("/bin/ls", ["/proc/self/fd"]).standardOutput
        let inherited = Set(listed.split(separator: "\n").compactMap { Int32($0) })
        // 0-2 are the child's own, and ls opens the directory it lists at the lowest free number
        // (3 when nothing was inherited). Anything more is a descriptor of this process.
        #expect(
            inherited.isSubset(of: [0, 1, 2, 3]),
            "the child holds \(inherited.sorted()); the test's pipe is \(ends)"
        )
    }
}
