import Foundation
import Glibc

/// The reason an error gives, as a person reads it after the file it concerns:
/// the system's sentence for a Foundation error (`Permission denied`, `File exists`),
/// never its `NSCocoaErrorDomain Code=513 … UserInfo={…}` dump; the error's own
/// description for the project's errors, which carry their context.
///
///     do { try FileManager.default.createDirectory(atPath: "/proc/x", withIntermediateDirectories: true) }
///     catch { print("/proc/x: \(ErrorReason.text(of: error))") }   // "/proc/x: No such file or directory"
package enum ErrorReason {
    /// The reason `error` gives (see the type's summary).
    package static func text(of error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError { return text(of: cocoa as NSError) }
        if type(of: error) is NSError.Type { return text(of: error as NSError) }
        return "\(error)"
    }

    /// The `errno` of the POSIX error under a Foundation error (which Linux's Foundation keeps as
    /// an `NSError` or as a Swift error, as it was made).
    static func underlyingPOSIXCode(of error: NSError) -> Int32? {
        let underlying = error.userInfo[NSUnderlyingErrorKey]
        if let posix = underlying as? POSIXError { return posix.code.rawValue }
        let nsError = (underlying as? NSError) ?? (underlying as? Error).map { $0 as NSError }
        guard let nsError, nsError.domain == NSPOSIXErrorDomain else { return nil }
        return Int32(nsError.code)
    }

    /// A Foundation error's reason: its underlying POSIX error's, else a sentence for its code.
    static func text(of error: NSError) -> String {
        if let code = underlyingPOSIXCode(of: error) { return String(cString: strerror(code)) }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        guard error.domain == NSCocoaErrorDomain else { return "error \(error.code) (\(error.domain))" }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteFileExists: return "a file is in the way (\(String(cString: strerror(EEXIST))))"
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileReadCorruptFile: return "the file is damaged"
        case .fileReadTooLarge: return "the file is too large"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding:
            return "the text is not in the expected encoding"
        default: return "file error \(error.code)"
        }
    }
}
