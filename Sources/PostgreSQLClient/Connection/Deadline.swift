import Foundation

/// A point in time to wait until, on the monotonic clock; no deadline when
/// made from nil.
struct Deadline {
    private let end: UInt64?

    init(seconds: Double?) {
        end = seconds.map { DispatchTime.now().uptimeNanoseconds + UInt64(max($0, 0) * 1e9) }
    }

    /// Seconds left (0 once passed), or nil for no deadline.
    var remaining: Double? {
        guard let end else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= end ? 0 : Double(end - now) / 1e9
    }
}
