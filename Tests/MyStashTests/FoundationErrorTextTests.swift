import Foundation
import Testing

@testable import MyStashKit

/// A Foundation error met by a command (a file where a folder is expected, a folder that cannot be
/// written) is told in a sentence, never as Foundation's dump (`Error Domain=NSCocoaErrorDomain
/// Code=512 … UserInfo={…}`).
@Suite(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct FoundationErrorTextTests {
    static func expectNoFoundationDump(_ text: String) {
        for dump in ["NSCocoaErrorDomain", "UserInfo=", "NSPOSIXErrorDomain", "Error Domain="] {
            #expect(!text.contains(dump), "\(text)")
        }
    }

    @Test func aFileWhereTheStashFolderShouldBeIsNamedWithoutAFoundationDump() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let file = temp.directory.appendingPathComponent("a-file").path
        try "not a folder\n".write(toFile: file, atomically: true, encoding: .utf8)
        let path = file + "/sub/stash.sqlite"
        let run = try ScriptRun.run(["init", "--db", path, "--passphrase-fd", "3"], fd3: "pass phrase\n")
        #expect(run.status != 0)
        Self.expectNoFoundationDump(run.standardError)
        #expect(run.standardError.contains("\(file)/sub"), "\(run.standardError)")
        #expect(run.standardError.contains(String(cString: strerror(ENOTDIR))), "\(run.standardError)")
    }

    @Test(.enabled(if: getuid() != 0, "root may write into any folder"))
    func anUnwritableFolderForTheStashIsNamedWithoutAFoundationDump() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let locked = temp.directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        chmod(locked.path, 0o500)
        defer { chmod(locked.path, 0o700) }
        let path = locked.appendingPathComponent("new/stash.sqlite").path
        let run = try ScriptRun.run(["init", "--db", path, "--passphrase-fd", "3"], fd3: "pass phrase\n")
        #expect(run.status != 0)
        Self.expectNoFoundationDump(run.standardError)
        #expect(run.standardError.contains(String(cString: strerror(EACCES))), "\(run.standardError)")
    }
}
