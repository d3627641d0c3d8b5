import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a bank list over HTTP(S) with `URLSession`: redirects followed, a
/// conditional GET when validators from the last download are given, the whole
/// request bounded by a timeout, the body bounded by a size cap, progress reported.
///
/// The download happens on URLSession's threads; ``download(_:progress:)``
/// blocks the calling thread until it is complete, failed or timed out.
///
///     let request = BankListDownloader.Request(url: URL(string: "https://www.fdic.gov/bank-failures/download-data.csv")!,
///                                              validators: nil, timeout: 30)
///     switch try BankListDownloader().download(request) {
///     case .notModified: print("current")
///     case .downloaded(let body): print(body.data.count, body.validators.etag ?? "")
///     }
package struct BankListDownloader: Sendable {
    /// What to fetch.
    package struct Request: Sendable {
        package var url: URL
        /// Sent as `If-None-Match` / `If-Modified-Since` (a 304 then means nothing changed).
        package var validators: HTTPValidators?
        /// Seconds for the whole request.
        package var timeout: Double
        /// Bodies larger than this are refused (the FDIC's list is about 50 KB).
        package var maximumBytes: Int
        package init(url: URL, validators: HTTPValidators?, timeout: Double, maximumBytes: Int = 32 << 20) {
            (self.url, self.validators, self.timeout, self.maximumBytes) = (url, validators, timeout, maximumBytes)
        }
    }

    /// A complete body.
    package struct Body: Sendable {
        package var data: Data
        /// The response's `ETag` and `Last-Modified`, for the next conditional GET.
        package var validators: HTTPValidators
        /// The `Content-Type`, if any.
        package var contentType: String?
        /// The URL answered after redirects.
        package var finalURL: URL
        /// True when the server redirected the request (then ``finalURL`` is the address that answered).
        package var wasRedirected: Bool
    }

    /// What the server said.
    package enum Outcome: Sendable {
        /// 304: the list has not changed since the validators were issued (`redirectedTo`: the address
        /// that answered, when the server redirected there).
        case notModified(redirectedTo: URL?)
        /// 200: the body.
        case downloaded(Body)
    }

    /// Bytes received so far, and the total when the server announced it.
    package struct Progress: Sendable, Equatable {
        package var received: Int
        package var expected: Int?
    }

    package init() {}

    /// Fetches `request.url`; throws ``UpdateError`` for every failure (see its cases).
    package func download(_ request: Request, progress: (@Sendable (Progress) -> Void)? = nil) throws -> Outcome {
        let urlText = request.url.absoluteString
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            request.url.host != nil
        else { throw UpdateError.badURL(urlText) }

        var urlRequest = URLRequest(
            url: request.url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: request.timeout
        )
        urlRequest.setValue("text/csv, */*;q=0.5", forHTTPHeaderField: "Accept")
        // The list uncompressed: a compressed body is unpacked by libcurl faster than it can be refused.
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        urlRequest.setValue("failedbanks/\(FailedBanksCommand.version)", forHTTPHeaderField: "User-Agent")
        if let etag = request.validators?.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = request.validators?.lastModified {
            urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since")
        }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = request.timeout
        configuration.timeoutIntervalForResource = request.timeout
        let receiver = DownloadReceiver(
            maximumBytes: request.maximumBytes,
            deadline: .now() + request.timeout,
            startedWithTLS: scheme == "https",
            progress: progress
        )
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: InlineDelegateQueue())
        // Ended on another thread: URLSession's may still be decoding what it read (dropped, see
        // DownloadReceiver), and the toolchain's cancel waits for it.
        nonisolated(unsafe) let ending = session
        defer { DispatchQueue.global().async { ending.invalidateAndCancel() } }
        let task = session.dataTask(with: urlRequest)
        task.resume()

        // The whole request, decoding included, whatever URLSession's own timers do.
        if receiver.finished.wait(timeout: .now() + request.timeout) == .timedOut {
            receiver.markTimedOut(cancelling: task)
            throw UpdateError.timedOut(url: urlText, seconds: request.timeout)
        }
        return try receiver.outcome(url: urlText, timeout: request.timeout)
    }
}

/// `ETag` and `Last-Modified` of a response, kept for the next conditional GET.
package struct HTTPValidators: Sendable, Equatable {
    package var etag: String?
    package var lastModified: String?
    package init(etag: String?, lastModified: String?) { (self.etag, self.lastModified) = (etag, lastModified) }
    /// True when neither is set.
    package var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// URLSession's delegate for one download: collects the response and the body as they arrive
/// (on URLSession's thread, see ``InlineDelegateQueue``), cancels beyond the size cap or the
/// deadline, refuses redirects it must not follow, signals completion.
final class DownloadReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let maximumBytes: Int
    private let deadline: DispatchTime
    /// The address asked for is `https:`, or a redirect led to one (redirects must then stay on https).
    private var reachedTLS: Bool
    private let progress: (@Sendable (BankListDownloader.Progress) -> Void)?
    // Guarded by `lock`.
    private var response: HTTPURLResponse?
    private var data = Data()
    private var error: Error?
    private var exceededCap = false
    private var timedOut = false
    private var cancelled = false
    private var redirected = false
    private var refusedRedirect: (target: String, reason: String)?

    init(
        maximumBytes: Int,
        deadline: DispatchTime,
        startedWithTLS: Bool,
        progress: (@Sendable (BankListDownloader.Progress) -> Void)?
    ) {
        self.maximumBytes = maximumBytes
        self.deadline = deadline
        self.reachedTLS = startedWithTLS
        self.progress = progress
    }

    /// The caller's deadline passed: the task is cancelled (in the background) and the outcome is a timeout.
    func markTimedOut(cancelling task: URLSessionTask) {
        lock.withLock { timedOut = true }
        cancelOnce(task)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let announcedTooLarge = response.expectedContentLength > Int64(maximumBytes)
        lock.withLock {
            self.response = response as? HTTPURLResponse
            if announcedTooLarge { exceededCap = true }
        }
        // A Content-Length beyond the cap: refuse before reading the body (FoundationNetworking
        // ignores the disposition, hence the cancel).
        completionHandler(announcedTooLarge ? .cancel : .allow)
        if announcedTooLarge { cancelOnce(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive chunk: Data) {
        var report: BankListDownloader.Progress?
        var cancel = false
        let late = DispatchTime.now() > deadline
        lock.withLock {
            guard !exceededCap, !timedOut else { return }
            if late {
                timedOut = true
                cancel = true
                finished.signal()
                return
            }
            if data.count + chunk.count > maximumBytes {
                // Refused now: the caller is told at once, whatever is still being decoded.
                exceededCap = true
                cancel = true
                data = Data()
                finished.signal()
                return
            }
            data.append(chunk)
            let expected = response.map { $0.expectedContentLength }.flatMap { $0 > 0 ? Int($0) : nil }
            report = .init(received: data.count, expected: expected)
        }
        if cancel { cancelOnce(dataTask) }
        if let report { progress?(report) }
    }

    /// Cancels the task the first time only (the chunks already decoded keep arriving until the cancel
    /// takes effect; they are dropped). From another thread: this one is URLSession's, and the
    /// toolchain's `cancel()` waits for it (`sync`), which from here would never return.
    private func cancelOnce(_ task: URLSessionTask) {
        let first = lock.withLock { () -> Bool in
            defer { cancelled = true }
            return !cancelled
        }
        nonisolated(unsafe) let task = task
        if first { DispatchQueue.global().async { task.cancel() } }
    }

    /// Follows a redirect to http or https only, and once on https to https only; a refusal is kept for
    /// ``outcome(url:timeout:)`` (the redirect's own answer then ends the task).
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The Location as the server wrote it: FoundationNetworking turns `file:///etc/passwd` into
        // `http://this-host/etc/passwd` in `request`.
        let location = response.value(forHTTPHeaderField: "Location")
        let target = location.flatMap { URL(string: $0, relativeTo: response.url)?.absoluteURL } ?? request.url
        let targetText = target?.absoluteString ?? location ?? "an address that cannot be read"
        let scheme = target?.scheme?.lowercased()
        let refusal = lock.withLock { () -> String? in
            var refusal: String?
            if scheme != "http" && scheme != "https" {
                refusal = "not an http or https address"
            } else if (reachedTLS || response.url?.scheme?.lowercased() == "https") && scheme != "https" {
                refusal = "plain http after https: the list could be read and altered on the way"
            }
            if let refusal {
                refusedRedirect = (DisplayText.escapingControls(targetText), refusal)
            } else {
                redirected = true
                if scheme == "https" { reachedTLS = true }
            }
            return refusal
        }
        completionHandler(refusal == nil ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock { self.error = error }
        finished.signal()
    }

    /// The result, once `finished` was signalled.
    func outcome(url: String, timeout: Double) throws -> BankListDownloader.Outcome {
        try lock.withLock {
            if let refusedRedirect {
                throw UpdateError.redirectRefused(
                    url: url,
                    target: refusedRedirect.target,
                    reason: refusedRedirect.reason
                )
            }
            if exceededCap { throw UpdateError.tooLarge(url: url, limit: maximumBytes) }
            if timedOut { throw UpdateError.timedOut(url: url, seconds: timeout) }
            let expected = response.flatMap { $0.expectedContentLength > 0 ? Int($0.expectedContentLength) : nil }
            let encoded =
                response?.value(forHTTPHeaderField: "Content-Encoding").map { !$0.isEmpty && $0 != "identity" } ?? false
            if let error {
                if let expected, !encoded, response != nil, data.count < expected {
                    throw UpdateError.truncated(url: url, received: data.count, expected: expected)
                }
                throw DownloadReceiver.translate(error, url: url, timeout: timeout)
            }
            guard let response else { throw UpdateError.network(url: url, reason: "no HTTP response") }
            let finalURL = response.url ?? URL(string: url)!
            switch response.statusCode {
            case 304:
                return .notModified(redirectedTo: redirected ? finalURL : nil)
            case 200...299:
                if let expected, !encoded, data.count < expected {
                    throw UpdateError.truncated(url: url, received: data.count, expected: expected)
                }
                let validators = HTTPValidators(
                    etag: response.value(forHTTPHeaderField: "ETag"),
                    lastModified: response.value(forHTTPHeaderField: "Last-Modified")
                )
                return .downloaded(
                    .init(
                        data: data,
                        validators: validators,
                        contentType: response.value(forHTTPHeaderField: "Content-Type"),
                        finalURL: finalURL,
                        wasRedirected: redirected
                    )
                )
            default:
                throw UpdateError.httpStatus(
                    url: finalURL.absoluteString == url
                        ? url : "\(url) (redirected to \(DisplayText.escapingControls(finalURL.absoluteString)))",
                    code: response.statusCode,
                    reason: HTTPURLResponse.localizedString(forStatusCode: response.statusCode).capitalizedReason
                )
            }
        }
    }

    /// URLSession's errors in the words of ``UpdateError``.
    static func translate(_ error: Error, url: String, timeout: Double) -> UpdateError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return .network(url: url, reason: nsError.localizedDescription)
        }
        switch nsError.code {
        case NSURLErrorTimedOut:
            return .timedOut(url: url, seconds: timeout)
        case NSURLErrorCannotConnectToHost:
            return .cannotConnect(url: url, reason: "nothing is listening there (connection refused)")
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .cannotConnect(url: url, reason: "no such host")
        case NSURLErrorNotConnectedToInternet:
            return .cannotConnect(url: url, reason: "no network connection")
        case NSURLErrorNetworkConnectionLost:
            return .network(url: url, reason: "the connection was lost")
        case NSURLErrorHTTPTooManyRedirects:
            return .network(url: url, reason: "too many redirects")
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
            NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid:
            return .network(url: url, reason: "the secure connection failed (\(nsError.localizedDescription))")
        default:
            return .network(url: url, reason: "\(nsError.localizedDescription) (URL error \(nsError.code))")
        }
    }
}

extension String {
    /// "not found" → "Not Found": Foundation's reason phrases are lowercase on Linux.
    var capitalizedReason: String {
        split(separator: " ").map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined(separator: " ")
    }
}
