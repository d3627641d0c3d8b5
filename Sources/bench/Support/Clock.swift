#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic wall-clock time in seconds, for timing.
///
/// `CLOCK_MONOTONIC` is immune to clock adjustments; a benchmark compares
/// two readings and never shows one.
///
///     let start = Clock.now()
///     work()
///     let seconds = Clock.now() - start
enum Clock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `body` and returns its wall time in seconds along with its result.
    static func time<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let start = now()
        let result = try body()
        return (now() - start, result)
    }
}
