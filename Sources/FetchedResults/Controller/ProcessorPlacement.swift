import CScheduling

/// Keeps a helper thread off the processor of the thread that woke it.
///
/// A split read (``RowValuesReader``) wakes a pool thread and goes on reading
/// itself. Linux often starts the woken thread on the waker's own processor,
/// where it takes over until the load balancer moves one of them, a tick or
/// so later: on a two-core machine a third of the thousand-row change sets
/// waited 4 ms in `begin` while the other core stood idle, and the two halves
/// of the read ran one after the other. The helper moves itself off that
/// processor instead, and lets itself back on when its part is done.
///
///     let caller = ProcessorPlacement.current
///     // on the helper thread:
///     let placement = ProcessorPlacement.leave(caller)
///     defer { placement?.restore() }
struct ProcessorPlacement {
    /// The processors the thread was allowed before it left one (a `cpu_set_t`'s 1,024 bits).
    private let allowed: [UInt64]

    /// The processor the calling thread runs on (-1 when the system cannot say).
    static var current: Int32 { sched_getcpu() }

    /// Moves the calling thread off `processor` when it runs there and may run
    /// elsewhere; nil when there was nothing to do (or the system refused).
    static func leave(_ processor: Int32) -> ProcessorPlacement? {
        guard processor >= 0, processor < 1024, sched_getcpu() == processor else { return nil }
        var allowed = [UInt64](repeating: 0, count: 16)
        let size = allowed.count * MemoryLayout<UInt64>.size
        guard allowed.withUnsafeMutableBytes({ sched_getaffinity(0, size, $0.baseAddress) }) == 0 else { return nil }
        var others = allowed
        others[Int(processor) / 64] &= ~(1 << UInt64(processor % 64))
        guard others.contains(where: { $0 != 0 }),
            others.withUnsafeBytes({ sched_setaffinity(0, size, $0.baseAddress) }) == 0
        else { return nil }
        return ProcessorPlacement(allowed: allowed)
    }

    /// Allows the thread on every processor it was allowed before.
    func restore() {
        _ = allowed.withUnsafeBytes { sched_setaffinity(0, $0.count, $0.baseAddress) }
    }
}
