// `TimeSource`, `MonotonicClock` and `TestClock` for code that imports the run loop
// (see the Timekeeping module, which the import layer shares).
@_exported import Timekeeping
