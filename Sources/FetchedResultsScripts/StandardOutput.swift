import Glibc

/// Buffered standard output for the apps' script commands: one `write(2)` per 64 KiB, and on `flush()`.
///
///     let out = StandardOutput()
///     out.write("{\"sections\":[]}\n")
///     out.flush()
public final class StandardOutput {
    private var buffer: [UInt8] = []

    /// An empty buffer in front of file descriptor 1.
    public init() { buffer.reserveCapacity(1 << 16) }

    /// Appends `s`, writing the buffer out once it holds 64 KiB.
    public func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered; false when standard output is closed.
    @discardableResult
    public func flush() -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { bytes in
                Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if n <= 0 {
                buffer.removeAll(keepingCapacity: true)
                return false
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
        return true
    }
}
