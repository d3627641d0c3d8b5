import CLibPQ

/// Asks the server to cancel whatever statement a connection is running,
/// from any thread — the one thing that may touch a connection while another
/// thread uses it (libpq's `PQcancel`, which opens a connection of its own).
///
///     let canceller = connection.makeCanceller()
///     DispatchQueue.global().asyncAfter(deadline: .now() + 1) { _ = canceller?.cancel() }
///     _ = try? connection.query("SELECT pg_sleep(60)")   // fails with SQLSTATE 57014
public final class QueryCanceller: @unchecked Sendable {
    private let handle: OpaquePointer

    init?(connection: OpaquePointer) {
        guard let handle = PQgetCancel(connection) else { return nil }
        self.handle = handle
    }

    deinit { PQfreeCancel(handle) }

    /// Sends the cancel request; true when it was delivered (the statement
    /// may have ended meanwhile). Blocks until the server answers — for
    /// ever if it is frozen — so call it off any thread that must stay responsive.
    @discardableResult
    public func cancel() -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        return PQcancel(handle, &buffer, Int32(buffer.count)) == 1
    }
}
