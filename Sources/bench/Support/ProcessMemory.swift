import Glibc

/// Resident memory of this process, read from the kernel.
///
/// `VmRSS` from `/proc/self/status` is the resident set right now; `VmHWM`
/// its peak. Both in kilobytes as the kernel reports them.
///
///     let before = ProcessMemory.residentKilobytes()
enum ProcessMemory {
    static func residentKilobytes() -> Int? { statusField("VmRSS:") }
    static func peakResidentKilobytes() -> Int? { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Int? {
        guard let text = FileText.contents(of: "/proc/self/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter { $0.isNumber }
            return Int(digits)
        }
        return nil
    }
}

/// Whole-file reads and writes without Foundation.
enum FileText {
    static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @discardableResult
    static func store(_ text: String, at path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return FileDescriptor.writeAll(fd, Array(text.utf8))
    }
}

/// Helpers for raw file descriptors.
enum FileDescriptor {
    /// Writes every byte, retrying short writes and EINTR.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
