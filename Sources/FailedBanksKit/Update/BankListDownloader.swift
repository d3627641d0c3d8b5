import FetchedResultsScripts
import Foundation

/// Downloads a bank list over HTTP(S) with libcurl: redirects followed (to http and https only), a
/// conditional GET when validators from the last download are given, the whole
/// request bounded by a timeout, the body bounded by a size cap, progress reported.
///
/// The download happens on the calling thread, which ``download(_:progress:)`` blocks until it is
/// complete, failed or timed out. A compressed body is unpacked here as it arrives and only as far
/// as the cap: the cap and the timeout bound the unpacked bytes and the time spent unpacking.
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

    /// Redirects followed at most.
    static let maximumRedirects = 10

    /// Fetches `request.url`; throws ``UpdateError`` for every failure (see its cases).
    package func download(_ request: Request, progress: (@Sendable (Progress) -> Void)? = nil) throws -> Outcome {
        let urlText = request.url.absoluteString
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            request.url.host != nil
        else { throw UpdateError.badURL(urlText) }
        let deadline = DispatchTime.now() + request.timeout
        var redirects = RedirectPolicy(startedWithTLS: scheme == "https")
        var current = request.url
        for _ in 0...Self.maximumRedirects {
            let (head, body) = try exchange(request, at: current, deadline: deadline, progress: progress)
            if RedirectPolicy.isRedirect(head.status), let location = head.value("location") {
                current = try redirects.follow(from: current, location: location, url: urlText)
                continue
            }
            return try outcome(of: head, body: body, at: current, redirected: redirects.followed, url: urlText)
        }
        throw UpdateError.network(url: urlText, reason: "too many redirects")
    }

    /// The header fields sent: the list uncompressed if the server will (a compressed one is unpacked
    /// here, as far as the cap), and the validators of the last download.
    private func headerLines(_ request: Request) -> [String] {
        var lines = [
            "Accept: text/csv, */*;q=0.5",
            "Accept-Encoding: identity",
            "User-Agent: failedbanks/\(FailedBanksCommand.version)",
        ]
        if let etag = request.validators?.etag { lines.append("If-None-Match: \(etag)") }
        if let date = request.validators?.lastModified { lines.append("If-Modified-Since: \(date)") }
        return lines
    }

    /// One GET of `address`: its head and, for a 2xx answer, its body unpacked and capped.
    private func exchange(
        _ request: Request,
        at address: URL,
        deadline: DispatchTime,
        progress: (@Sendable (Progress) -> Void)?
    ) throws -> (CurlTransfer.Head, ResponseBody?) {
        let urlText = request.url.absoluteString
        let transfer = CurlTransfer(url: address.absoluteString, headers: headerLines(request), deadline: deadline)
        var body: ResponseBody?
        var refusal: UpdateError?
        let result = transfer.run { head, bytes in
            guard (200...299).contains(head.status) else { return true }  // an error page or a redirect's: unread
            if body == nil {
                do throws(UpdateError) {
                    body = try ResponseBody(head: head, maximumBytes: request.maximumBytes, url: urlText)
                } catch {
                    refusal = error
                    return false
                }
            }
            do throws(UpdateError) {
                let more = try body!.append(bytes)
                if more, let body { progress?(body.progress) }
                return more
            } catch {
                refusal = error
                return false
            }
        }
        switch result {
        case .completed:
            break
        case .stopped:
            throw refusal ?? UpdateError.network(url: urlText, reason: "the transfer was stopped")
        case .timedOut:
            throw UpdateError.timedOut(url: urlText, seconds: request.timeout)
        case .truncated:
            // Without a Content-Length, the body was chunked: curl saw no last chunk.
            let expected = transfer.head?.value("content-length").flatMap(Int.init)
            throw UpdateError.truncated(url: urlText, received: transfer.receivedBytes, expected: expected)
        case .failed(let code, let message):
            throw CurlTransfer.translate(code: code, message: message, url: urlText)
        }
        guard let head = transfer.head else { throw UpdateError.network(url: urlText, reason: "no HTTP response") }
        if (200...299).contains(head.status) {
            if body == nil { body = try ResponseBody(head: head, maximumBytes: request.maximumBytes, url: urlText) }
            try body?.finish()
        }
        return (head, body)
    }

    /// What a final (not redirecting) answer means.
    private func outcome(
        of head: CurlTransfer.Head,
        body: ResponseBody?,
        at finalURL: URL,
        redirected: Bool,
        url: String
    ) throws -> Outcome {
        switch head.status {
        case 304:
            return .notModified(redirectedTo: redirected ? finalURL : nil)
        case 200...299:
            let validators = HTTPValidators(etag: head.value("etag"), lastModified: head.value("last-modified"))
            return .downloaded(
                .init(
                    data: body?.data ?? Data(),
                    validators: validators,
                    contentType: head.value("content-type"),
                    finalURL: finalURL,
                    wasRedirected: redirected
                )
            )
        default:
            throw UpdateError.httpStatus(
                url: finalURL.absoluteString == url
                    ? url : "\(url) (redirected to \(DisplayText.escapingControls(finalURL.absoluteString)))",
                code: head.status,
                reason: HTTPReasonPhrase.text(for: head.status)
            )
        }
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
