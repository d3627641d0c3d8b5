import Foundation

/// A value computed on a thread of its own, waited for where it is needed.
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Value?

    /// Starts computing `make` at once.
    init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = make()
            done.signal()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Waits until the value is computed and returns it.
    func value() -> Value {
        done.wait()
        done.signal()
        return result!
    }
}
