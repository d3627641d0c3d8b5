import BulkImport
import CLIKit

/// Why `failedbanks update` changed nothing. Each case names what happened, in
/// words a person can act on; the store is left as it was whenever one is thrown.
///
///     do { _ = try updater.run() }
///     catch let error as UpdateError {
///         printError(error.message)   // "https://…: HTTP 404 Not Found; nothing was changed …"
///         return error.exitStatus     // 69
///     }
package enum UpdateError: Error, Equatable, CustomStringConvertible {
    /// The address is not an `http:` or `https:` URL.
    case badURL(String)
    /// No complete answer within the time allowed (the whole request: connecting, waiting, reading).
    case timedOut(url: String, seconds: Double)
    /// Nothing answered at that address (connection refused, no such host, no network).
    case cannotConnect(url: String, reason: String)
    /// The connection failed some other way.
    case network(url: String, reason: String)
    /// The server redirected to an address that is not followed: not http or https (`file:`), or
    /// plain http after https. `target` is where it pointed.
    case redirectRefused(url: String, target: String, reason: String)
    /// The server answered with an HTTP error status.
    case httpStatus(url: String, code: Int, reason: String)
    /// The body ended before it was complete: before the `Content-Length` the server
    /// announced (`expected`), or — nil — before the last chunk of a chunked body.
    case truncated(url: String, received: Int, expected: Int?)
    /// The body is larger than the cap.
    case tooLarge(url: String, limit: Int)
    /// The body is not a failed bank list (an HTML page, no FDIC header, no banks).
    case notABankList(url: String, reason: String)
    /// The body is a bank list with bad rows (listed as `URL:LINE: reason`, the first ones and how many in all).
    case badRows(url: String, issues: [ImportIssue], total: Int)

    /// The `sysexits.h` status: 69 for the network and HTTP, 65 for a body that is not a complete list.
    package var exitStatus: Int32 {
        switch self {
        case .badURL: return ExitStatus.usage
        case .timedOut, .cannotConnect, .network, .httpStatus, .redirectRefused: return ExitStatus.unavailable
        case .truncated, .tooLarge, .notABankList, .badRows: return ExitStatus.dataError
        }
    }

    /// The URL concerned.
    package var url: String {
        switch self {
        case .badURL(let url): return url
        case .timedOut(let url, _), .cannotConnect(let url, _), .network(let url, _), .httpStatus(let url, _, _),
            .truncated(let url, _, _), .tooLarge(let url, _), .notABankList(let url, _), .badRows(let url, _, _),
            .redirectRefused(let url, _, _):
            return url
        }
    }

    /// What happened, without the advice.
    package var reason: String {
        switch self {
        case .badURL(let url):
            return "\(url): not an http or https URL"
        case .timedOut(let url, let seconds):
            return
                "\(url): timed out: no complete answer within \(UpdateError.seconds(seconds)) (--timeout SECONDS allows longer)"
        case .cannotConnect(let url, let reason):
            return "\(url): cannot connect: \(reason)"
        case .network(let url, let reason):
            return "\(url): network error: \(reason)"
        case .redirectRefused(let url, let target, let reason):
            return "\(url): redirected to \(target), not followed (\(reason))"
        case .httpStatus(let url, let code, let reason):
            return "\(url): HTTP \(code)\(reason.isEmpty ? "" : " \(reason)")"
        case .truncated(let url, let received, let expected?):
            return
                "\(url): truncated: the body ended after \(received) of the \(expected) bytes announced (Content-Length)"
        case .truncated(let url, let received, nil):
            return
                "\(url): truncated: the connection closed after \(received) bytes of a chunked body, before its last chunk"
        case .tooLarge(let url, let limit):
            return "\(url): the answer is larger than \(DownloadProgressBar.size(limit)), so not a failed bank list"
        case .notABankList(let url, let reason):
            return "\(url): not a failed bank list (\(reason))"
        case .badRows(let url, _, let total):
            return "\(url): \(total) bad row\(total == 1 ? "" : "s") in the list"
        }
    }

    /// The sentence shown: what happened, that nothing changed, and how to use another address
    /// (the FDIC has moved its download before).
    package var message: String {
        if case .badURL = self { return reason }
        if case .badRows(_, let issues, let total) = self {
            var lines = issues.map(\.escapedDescription)
            if total > issues.count { lines.append("… and \(total - issues.count) more") }
            lines.append(
                "\(reason); nothing was changed (another address can be given with --url URL or $FAILEDBANKS_URL)"
            )
            return lines.joined(separator: "\n")
        }
        return "\(reason); nothing was changed (another address can be given with --url URL or $FAILEDBANKS_URL)"
    }

    package var description: String { message }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
