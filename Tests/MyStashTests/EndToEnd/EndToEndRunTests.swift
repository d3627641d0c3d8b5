import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `EndToEnd.run` starts tmux servers that outlive the call: they must not keep the test process's descriptors.
@Suite struct EndToEndRunTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/ls"), "needs /bin/ls"))
    func aStartedProgramInheritsNoDescriptorAboveStandardError() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)   // not close-on-exec, like most of what tests open
        defer { close(ends[0]); close(ends[1]) }
        let listed = try EndToEnd.run("/bin/ls", ["/proc/self/fd"]).output
        let inherited = Set(listed.split(separator: "\n").compactMap { Int32($0) })
        #expect(!inherited.contains(ends[0]) && !inherited.contains(ends[1]), "the child holds \(inherited.sorted())")
    }
}
