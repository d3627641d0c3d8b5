import Foundation
import Timekeeping

/// Prints the phases of an import with their wall and CPU times on standard
/// error, when enabled (for tuning; e.g. by an environment variable).
///
///     let trace = ImportTrace(enabled: ProcessInfo.processInfo.environment["TRACE_IMPORT"] == "1")
///     trace("prepared")  //   0.002 s (cpu  0.001 s)  prepared
package final class ImportTrace {
    /// Whether anything is printed.
    package let isEnabled: Bool
    private var lastTrace = MonotonicClock.seconds()
    private var lastCPU = 0.0

    /// A trace that prints only when `enabled`.
    package init(enabled: Bool) { isEnabled = enabled }

    /// Prints `phase` with the time since the previous one.
    package func callAsFunction(_ phase: @autoclosure () -> String) {
        guard isEnabled else { return }
        let now = MonotonicClock.seconds()
        var usage = rusage()
        getrusage(__rusage_who_t(0), &usage)  // RUSAGE_SELF
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let line = String(format: "%7.3f s (cpu %6.3f s)  %@\n", now - lastTrace, cpu - lastCPU, phase())
        FileHandle.standardError.write(line.data(using: .utf8) ?? Data())
        lastTrace = now
        lastCPU = cpu
    }
}
