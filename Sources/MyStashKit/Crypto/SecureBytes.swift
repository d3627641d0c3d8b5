import CSodium

/// A fixed-size buffer of secret bytes in guarded memory, wiped when released.
///
/// The storage comes from `sodium_malloc` (guard pages, canary, excluded from
/// core dumps where the system allows) and is zeroed by `sodium_free` when the
/// object is deinitialised or `wipe()` is called. Use it for keys and
/// passphrases; Swift arrays and strings may be copied and cannot be wiped
/// reliably.
///
///     var typed = Array("correct horse".utf8)
///     let passphrase = SecureBytes(wiping: &typed)   // `typed` is now zeros
///     passphrase.withUnsafeBytes { print($0.count) }  // 13
package final class SecureBytes {
    private var pointer: UnsafeMutableRawPointer?
    /// The number of bytes held (0 after `wipe()`).
    package private(set) var count: Int

    /// Allocates `count` zeroed bytes.
    package init(count: Int) {
        _ = try? Sodium.ensureInitialized()
        self.count = count
        // sodium_malloc(0) is legal but returns a unique pointer; keep one byte to be safe.
        let raw = sodium_malloc(max(count, 1))
        if let raw { sodium_memzero(raw, max(count, 1)) }
        self.pointer = raw
        if raw == nil { self.count = 0 }
    }

    /// Copies `bytes` into guarded memory, then zeroes `bytes`.
    package convenience init(wiping bytes: inout [UInt8]) {
        self.init(count: bytes.count)
        if let pointer, !bytes.isEmpty {
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
        Sodium.wipe(&bytes)
    }

    /// Copies `bytes` (for instance another `SecureBytes`' prefix) into guarded memory.
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count)
        if let pointer, let base = bytes.baseAddress, bytes.count > 0 {
            pointer.copyMemory(from: base, byteCount: bytes.count)
        }
    }

    /// Copies the UTF-8 of `string` into guarded memory.
    ///
    /// A Swift `String` cannot be wiped; the caller should drop its copy at once.
    /// Prefer `init(wiping:)` when the bytes are at hand.
    package convenience init(utf8 string: String) {
        var bytes = Array(string.utf8)
        self.init(wiping: &bytes)
    }

    /// Whether the bytes were wiped (or never allocated).
    package var isWiped: Bool { pointer == nil }

    /// Calls `body` with the bytes; empty after `wipe()`.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Calls `body` with mutable access to the bytes.
    package func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Zeroes and frees the bytes now; later reads see an empty buffer.
    package func wipe() {
        if let pointer {
            sodium_memzero(pointer, max(count, 1))
            sodium_free(pointer)
        }
        pointer = nil
        count = 0
    }

    deinit { wipe() }
}
