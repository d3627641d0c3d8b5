import CLIKit
import Foundation
import TestSupport
import Testing

/// Foundation's errors as the reason a person reads: the system's sentence, never the
/// `NSCocoaErrorDomain Code=… UserInfo={…}` dump; the project's own errors as they describe themselves.
@Suite struct ErrorReasonTests {
    struct OwnError: Error, CustomStringConvertible {
        var description: String { "line 4: not a number" }
    }

    @Test func aFoundationErrorGivesTheSystemsSentence() {
        let folder = TemporaryDirectory("reason")
        defer { folder.remove() }
        let file = folder.path("a-file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("a file".utf8)))
        do {
            try FileManager.default.createDirectory(
                atPath: file + "/sub",
                withIntermediateDirectories: true
            )
            Issue.record("a folder was made inside a file")
        } catch {
            let text = ErrorReason.text(of: error)
            #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("UserInfo"), "\(text)")
            // The reason under Foundation's error (ENOTDIR), not its own code ("file error 512").
            #expect(text == String(cString: strerror(ENOTDIR)), "\(text)")
        }
        for code in [CocoaError.Code.fileWriteNoPermission, .fileWriteFileExists, .fileNoSuchFile] {
            let text = ErrorReason.text(of: CocoaError(code))
            #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("UserInfo"), "\(text)")
        }
        #expect(ErrorReason.text(of: CocoaError(.fileWriteNoPermission)) == String(cString: strerror(EACCES)))
        #expect(ErrorReason.text(of: POSIXError(.ENOSPC)) == String(cString: strerror(ENOSPC)))
    }

    @Test func theProjectsErrorsDescribeThemselves() {
        #expect(ErrorReason.text(of: OwnError()) == "line 4: not a number")
    }
}
