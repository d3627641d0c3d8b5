import Glibc

/// Where the run loop, the views and the importers get "now" from, in seconds:
/// the project's one clock type.
///
/// Animations and transient messages are functions of time; making time a
/// parameter lets tests step through frames exactly. (Named so that it does not
/// shadow the standard library's `Clock` protocol, to which it is unrelated.)
///
///     let clock: any TimeSource = MonotonicClock()
///     let started = clock.now
///     …
///     let elapsed = clock.now - started
public protocol TimeSource: AnyObject {
    /// Seconds since an arbitrary, fixed origin; never goes backwards.
    var now: Double { get }
}

/// `CLOCK_MONOTONIC` in seconds: immune to wall-clock changes.
///
///     let loop = TerminalRunLoop(backend: screen, clock: MonotonicClock())
///     let (seconds, rows) = MonotonicClock.measure { try importer.run() }
public final class MonotonicClock: TimeSource {
    /// The system's monotonic clock.
    public init() {}

    /// Seconds since boot (CLOCK_MONOTONIC).
    public var now: Double { MonotonicClock.seconds() }

    /// Seconds since boot (CLOCK_MONOTONIC), without an instance: for durations.
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    /// Runs `body` and returns how long it took, in seconds, with its result.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let start = seconds()
        let result = try body()
        return (seconds() - start, result)
    }
}

/// A clock that moves only when told to; tests drive animations and timeouts with it.
///
///     let clock = TestClock()
///     statusLine.showMessage("Saved", at: clock.now)
///     clock.advance(by: 5)
///     // the message has expired at clock.now
public final class TestClock: TimeSource {
    /// The current time; set it or `advance` it.
    public var now: Double

    /// A clock standing at `now`.
    public init(now: Double = 0) { self.now = now }

    /// Moves time forward.
    public func advance(by seconds: Double) { now += seconds }
}
