import CSodium

/// One-time initialisation of libsodium, shared by every crypto type here.
///
/// `sodium_init()` is idempotent and thread-safe; calling it through this
/// lazily initialised constant runs it once per process and remembers whether
/// it worked, so each entry point can fail with a typed error instead of
/// crashing.
///
///     try Sodium.ensureInitialized()
enum Sodium {
    private static let status: Int32 = sodium_init()

    /// Throws `VaultError.sodiumUnavailable` when libsodium could not start
    /// (for instance when no entropy source is available).
    static func ensureInitialized() throws {
        if status < 0 { throw VaultError.sodiumUnavailable }
    }

    /// Fills `count` bytes with cryptographically secure random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    /// Overwrites the array's bytes with zeros in a way the optimiser cannot elide.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
