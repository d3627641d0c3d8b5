import CCurl
import Foundation

/// One HTTP GET through libcurl: redirects not followed (the downloader decides on each), nothing
/// unpacked by libcurl (content decoding off, so a compressed body arrives as sent), the response's
/// header fields and then its body's bytes handed over as they arrive, to a handler that can stop
/// the transfer, and the deadline bounding all of it.
///
///     let transfer = CurlTransfer(url: "https://example.org/list.csv", headers: ["Accept: text/csv"],
///                                 deadline: .now() + 30)
///     let result = transfer.run { head, bytes in body.append(bytes); return true }
///     print(transfer.head?.status ?? 0, result)
final class CurlTransfer {
    /// A response's status and header fields (names lowercased, in the order sent).
    struct Head: Equatable {
        var status: Int
        var fields: [(name: String, value: String)]
        /// The last field of that name (any case).
        func value(_ name: String) -> String? {
            let wanted = name.lowercased()
            return fields.last { $0.name == wanted }?.value
        }
        static func == (a: Head, b: Head) -> Bool {
            a.status == b.status && a.fields.map(\.name) == b.fields.map(\.name)
                && a.fields.map(\.value) == b.fields.map(\.value)
        }
    }

    /// How a transfer ended.
    enum Result: Equatable {
        /// The whole answer arrived.
        case completed
        /// The body handler said stop.
        case stopped
        /// The deadline passed.
        case timedOut
        /// The body ended before the `Content-Length` announced.
        case truncated
        /// libcurl failed: its code and its words.
        case failed(code: Int, message: String)
    }

    private let url: String
    private let headers: [String]
    private let deadline: DispatchTime
    /// The header fields of the response being read (reset on each status line, for 1xx answers).
    private(set) var head: Head?
    /// Bytes of body received, as sent (before any unpacking).
    private(set) var receivedBytes = 0
    private var onBody: ((Head, UnsafeRawBufferPointer) -> Bool)?
    private var stoppedByHandler = false
    private var stoppedByDeadline = false

    init(url: String, headers: [String], deadline: DispatchTime) {
        (self.url, self.headers, self.deadline) = (url, headers, deadline)
    }

    /// libcurl, loaded and set up once, at the first transfer (nil when it cannot be loaded): a
    /// program that does not download does not load it (see `ccurl_load`).
    nonisolated(unsafe) private static let curl: ccurl_api? = {
        var loaded: Int32 = 0
        let api = ccurl_load(&loaded)
        guard loaded == 1 else { return nil }
        _ = api.global_init(Int(CURL_GLOBAL_DEFAULT))
        return api
    }()

    /// Performs the GET on this thread; `onBody` gets each piece of the body as it arrives, and
    /// stops the transfer by returning false.
    func run(onBody: @escaping (Head, UnsafeRawBufferPointer) -> Bool) -> Result {
        guard var curl = Self.curl else {
            return .failed(code: -1, message: "libcurl (libcurl.so.4) could not be loaded")
        }
        guard let handle = curl.easy_init() else { return .failed(code: -1, message: "libcurl could not start") }
        defer { curl.easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl.slist_append(list, header) }
        defer { curl.slist_free_all(list) }
        self.onBody = onBody
        defer { self.onBody = nil }

        let remaining =
            Int(deadline.uptimeNanoseconds / 1_000_000) - Int(DispatchTime.now().uptimeNanoseconds / 1_000_000)
        guard remaining > 0 else { return .timedOut }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var detail = ""
        let code = errorText.withUnsafeMutableBufferPointer { errorBuffer -> CURLcode in
            _ = ccurl_set_string(&curl, handle, CURLOPT_URL, url)
            _ = ccurl_set_long(&curl, handle, CURLOPT_HTTPGET, 1)
            _ = ccurl_set_long(&curl, handle, CURLOPT_NOSIGNAL, 1)
            _ = ccurl_set_long(&curl, handle, CURLOPT_FOLLOWLOCATION, 0)
            _ = ccurl_set_string(&curl, handle, CURLOPT_PROTOCOLS_STR, "http,https")
            // The body as sent: unpacked here, as far as the cap, not by libcurl as far as it goes.
            _ = ccurl_set_long(&curl, handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
            _ = ccurl_set_long(&curl, handle, CURLOPT_TIMEOUT_MS, remaining)
            _ = ccurl_set_long(&curl, handle, CURLOPT_CONNECTTIMEOUT_MS, remaining)
            _ = ccurl_set_headers(&curl, handle, list)
            _ = ccurl_set_pointer(&curl, handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
            _ = ccurl_set_header_function(&curl, handle, CurlTransfer.headerCallback)
            _ = ccurl_set_pointer(&curl, handle, CURLOPT_HEADERDATA, context)
            _ = ccurl_set_write_function(&curl, handle, CurlTransfer.bodyCallback)
            _ = ccurl_set_pointer(&curl, handle, CURLOPT_WRITEDATA, context)
            _ = ccurl_set_long(&curl, handle, CURLOPT_NOPROGRESS, 0)
            _ = ccurl_set_progress_function(&curl, handle, CurlTransfer.progressCallback)
            _ = ccurl_set_pointer(&curl, handle, CURLOPT_XFERINFODATA, context)
            let code = curl.easy_perform(handle)
            detail = String(cString: errorBuffer.baseAddress!)
            return code
        }
        if code == CURLE_OK { return .completed }
        if stoppedByDeadline || code == CURLE_OPERATION_TIMEDOUT { return .timedOut }
        if stoppedByHandler { return .stopped }
        if code == CURLE_PARTIAL_FILE { return .truncated }
        let message = detail.isEmpty ? String(cString: curl.easy_strerror(code)) : detail
        return .failed(code: Int(code.rawValue), message: message)
    }

    private var isPastDeadline: Bool { DispatchTime.now() > deadline }

    /// One header line: a status line starts a new head, a field line adds to it.
    private func receiveHeaderLine(_ line: String) {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            head = Head(status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0, fields: [])
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            head?.fields.append((name, value))
        }
    }

    /// One piece of body: to the handler, unless the deadline passed or it says stop.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isPastDeadline {
            stoppedByDeadline = true
            return false
        }
        receivedBytes += bytes.count
        guard let onBody, onBody(head ?? Head(status: 0, fields: []), bytes) else {
            stoppedByHandler = true
            return false
        }
        return true
    }

    private static let headerCallback: ccurl_write_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        if let data {
            let bytes = UnsafeRawBufferPointer(start: data, count: length)
            transfer.receiveHeaderLine(String(decoding: bytes, as: UTF8.self))
        }
        return length
    }

    private static let bodyCallback: ccurl_write_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        // A short count (0) makes libcurl end the transfer with CURLE_WRITE_ERROR.
        return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    private static let progressCallback: ccurl_progress_callback = { context, _, _, _, _ in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        guard transfer.isPastDeadline else { return 0 }
        transfer.stoppedByDeadline = true
        return 1
    }
}
