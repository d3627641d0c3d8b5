import FetchedResultsScripts
import Foundation

/// A 2xx answer's body as it arrives: unpacked (``ContentDecoder``) piece by piece and refused the
/// moment the unpacked bytes pass the cap, so that memory stays about the cap whatever the server
/// sends.
///
///     var body = try ResponseBody(head: head, maximumBytes: 32 << 20, url: asked)
///     let more = try body.append(bytes)   // throws UpdateError.tooLarge past the cap
///     try body.finish()
struct ResponseBody {
    /// The unpacked bytes so far.
    private(set) var data = Data()
    private let maximumBytes: Int
    private let decoder: ContentDecoder
    /// The `Content-Length` of an uncompressed body (its bytes as sent otherwise).
    private let expected: Int?
    private let url: String

    /// Refuses at once a body announced larger than the cap, or compressed in a way not read here.
    init(head: CurlTransfer.Head, maximumBytes: Int, url: String) throws(UpdateError) {
        let length = head.value("content-length").flatMap(Int.init)
        if let length, length > maximumBytes { throw .tooLarge(url: url, limit: maximumBytes) }
        do {
            decoder = try ContentDecoder(contentEncoding: head.value("content-encoding"))
        } catch {
            throw ResponseBody.refusal(error, url: url)
        }
        (self.maximumBytes, self.url) = (maximumBytes, url)
        expected = decoder.isCompressed ? nil : length
    }

    /// The progress to report.
    var progress: BankListDownloader.Progress { .init(received: data.count, expected: expected) }

    /// Unpacks and keeps `bytes`; throws ``UpdateError/tooLarge(url:limit:)`` as soon as the unpacked
    /// body passes the cap (nothing more is unpacked), and a refusal for a damaged compressed body.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(UpdateError) -> Bool {
        var kept = data
        data = Data()
        defer { data = kept }
        let limit = maximumBytes
        let fits: Bool
        do {
            fits = try decoder.decode(bytes) { piece in
                guard kept.count + piece.count <= limit else { return false }
                kept.append(contentsOf: piece)
                return true
            }
        } catch {
            throw ResponseBody.refusal(error, url: url)
        }
        guard fits else {
            kept = Data()
            throw .tooLarge(url: url, limit: maximumBytes)
        }
        return true
    }

    /// Checks that a compressed body was complete.
    func finish() throws(UpdateError) {
        do { try decoder.finish() } catch { throw ResponseBody.refusal(error, url: url) }
    }

    /// A decoding failure in the words of ``UpdateError``.
    static func refusal(_ failure: ContentDecoder.Failure, url: String) -> UpdateError {
        switch failure {
        case .unsupported(let encoding):
            return .notABankList(
                url: url,
                reason: "compressed as “\(DisplayText.escapingControls(encoding))”, which update cannot unpack"
            )
        case .damaged(let message):
            return .notABankList(url: url, reason: "its compressed bytes are damaged (\(message))")
        case .endedEarly:
            return .notABankList(url: url, reason: "its compressed bytes end before the compressed stream does")
        }
    }
}
