import Foundation

/// The delegate queue of a download's `URLSession`: it runs each delegate call at once, on the
/// thread that queues it (URLSession's own), instead of later on a queue of its own.
///
/// FoundationNetworking queues every decoded chunk for the delegate and reads on without waiting:
/// libcurl unpacks a compressed body (a 2 MB gzip body is 2 GB of zeros) far faster than a delegate
/// queue drains, so the chunks pile up in memory and the size cap and the timeout are checked long
/// after the fact. Run inline, the delegate sees each chunk as it is decoded, and its cancel takes
/// effect after the current read: the memory held stays about the cap.
///
///     let session = URLSession(configuration: .ephemeral, delegate: receiver, delegateQueue: InlineDelegateQueue())
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @Sendable @escaping () -> Void) {
        block()
    }

    override func addOperation(_ operation: Operation) {
        operation.start()
    }
}
