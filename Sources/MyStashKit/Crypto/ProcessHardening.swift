import CSodium

/// What the process does at start so that its secrets cannot leave it
/// through a core dump: `RLIMIT_CORE` 0 and `PR_SET_DUMPABLE` 0 (which also
/// keeps other processes of the same user from attaching with ptrace).
/// Keys and passphrases live in `sodium_malloc`ed memory (`SecureBytes`:
/// locked, excluded from dumps, wiped when released) besides.
///
///     ProcessHardening.disableCoreDumps()   // first thing in main.swift
public enum ProcessHardening {
    /// Turns core dumps off for this process and its children. Returns false
    /// when the system refused (the app runs anyway).
    @discardableResult
    public static func disableCoreDumps() -> Bool {
        csodium_disable_core_dumps() == 0
    }

    /// Whether this process may dump core (`prctl(PR_GET_DUMPABLE)`).
    package static var isDumpable: Bool { csodium_process_is_dumpable() != 0 }
}
