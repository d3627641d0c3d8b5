import FetchedResultsScripts
import Foundation

/// Which redirects a download follows: to http or https only, and once on https to https only
/// (the list could otherwise be read and altered on the way).
///
///     var policy = RedirectPolicy(startedWithTLS: false)
///     let next = try policy.follow(from: current, location: "/new.csv", url: asked)   // or UpdateError.redirectRefused
struct RedirectPolicy {
    /// The address asked for is `https:`, or a redirect led to one.
    private(set) var reachedTLS: Bool
    /// True once a redirect was followed.
    private(set) var followed = false

    init(startedWithTLS: Bool) { reachedTLS = startedWithTLS }

    /// The statuses that redirect (with a `Location`).
    static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

    /// The address `location` (as the server wrote it, relative to `source`) points to, when it may be
    /// followed; throws ``UpdateError/redirectRefused(url:target:reason:)`` (for `url`, the address
    /// asked for) when not.
    mutating func follow(from source: URL, location: String, url: String) throws(UpdateError) -> URL {
        let target = URL(string: location, relativeTo: source)?.absoluteURL
        let scheme = target?.scheme?.lowercased()
        var refusal: String?
        if scheme != "http" && scheme != "https" || target?.host == nil {
            refusal = "not an http or https address"
        } else if (reachedTLS || source.scheme?.lowercased() == "https") && scheme != "https" {
            refusal = "plain http after https: the list could be read and altered on the way"
        }
        guard let target, refusal == nil else {
            let text = target?.absoluteString ?? location
            throw .redirectRefused(
                url: url,
                target: DisplayText.escapingControls(text),
                reason: refusal ?? "not an http or https address"
            )
        }
        followed = true
        if scheme == "https" { reachedTLS = true }
        return target
    }
}
