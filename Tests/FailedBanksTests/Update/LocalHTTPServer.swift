import Foundation

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the update tests: each connection
/// gets one reply chosen by `handler` from the request (status, headers, body;
/// a body cut short of its `Content-Length`; or no answer at all), then is closed.
/// It records the requests it received, and stops by itself after ``lifetime`` seconds.
///
///     let server = try LocalHTTPServer { request in .ok(body: bytes, headers: [("ETag", "\"v1\"")]) }
///     defer { server.stop() }
///     let url = server.url("/banklist.csv")
final class LocalHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// Header names lowercased.
        var headers: [String: String]
    }

    enum Reply: Sendable {
        /// A complete response (Content-Length is added).
        case respond(status: Int, reason: String, headers: [(String, String)], body: [UInt8])
        /// Announces `announced` bytes in Content-Length, sends `body` (fewer), then closes.
        case truncated(headers: [(String, String)], body: [UInt8], announced: Int)
        /// A 200 without Content-Length: the body ends when the connection closes.
        case unsized(body: [UInt8])
        /// A 200 with `Transfer-Encoding: chunked`: `body` in chunks of 4 KiB, then — when
        /// `complete` — the last (empty) chunk; without it, the connection closes mid-body.
        case chunked(body: [UInt8], complete: Bool)
        /// Accepts the connection and never answers (until the server stops).
        case silence

        static func ok(body: [UInt8], headers: [(String, String)] = []) -> Reply {
            .respond(status: 200, reason: "OK", headers: headers, body: body)
        }
    }

    let port: UInt16
    /// The listening socket. Closed only by ``stop()``, once the accept loop has ended: a
    /// descriptor number is reused at once by whatever another test opens next.
    let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var received: [Request] = []
    private var heldConnections: [Int32] = []
    private var stopped = false
    private var acceptLoopRunning = true
    /// Signalled when the accept loop ends.
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// How long a server lives at most: it stops by itself then, whatever its test does.
    static let lifetime: Double = 300

    init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw EndToEndError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + LocalHTTPServer.lifetime) { [weak self] in self?.stop() }
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests received so far.
    var requests: [Request] { lock.withLock { received } }

    /// True while the accept loop runs (until ``stop()`` ends it).
    var isAccepting: Bool { lock.withLock { acceptLoopRunning } }

    /// Stops accepting and closes the connections held open by `.silence`. Idempotent:
    /// only the first call closes anything. It returns once the accept loop has ended,
    /// and closes the listener only then, so that no thread of this server touches the
    /// number afterwards (closing it twice closed another test's SQLite `-wal` or socket).
    func stop() {
        let held: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            let held = heldConnections
            heldConnections = []
            return held
        }
        guard let held else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes accept() with an error: the loop ends
        acceptLoopEnded.wait()
        close(listener)
        for fd in held {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    deinit { stop() }

    /// A port on 127.0.0.1 where nothing listens (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let server = try LocalHTTPServer { _ in .silence }
        let port = server.port
        server.stop()
        return port
    }

    private func acceptLoop() {
        defer {
            lock.withLock { acceptLoopRunning = false }
            acceptLoopEnded.signal()
        }
        while !lock.withLock({ stopped }) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            if lock.withLock({ stopped }) {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else {
            close(fd)
            return
        }
        lock.withLock { received.append(request) }
        switch handler(request) {
        case .silence:
            let keep = lock.withLock { () -> Bool in
                if stopped { return false }
                heldConnections.append(fd)
                return true
            }
            if !keep { close(fd) }
            return
        case .respond(let status, let reason, let headers, let body):
            send(fd, head(status: status, reason: reason, headers: headers, length: body.count) + body)
        case .truncated(let headers, let body, let announced):
            send(fd, head(status: 200, reason: "OK", headers: headers, length: announced) + body)
        case .unsized(let body):
            send(fd, head(status: 200, reason: "OK", headers: [], length: nil) + body)
        case .chunked(let body, let complete):
            var bytes = head(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked")], length: nil)
            for start in stride(from: 0, to: body.count, by: 4096) {
                let chunk = body[start..<min(body.count, start + 4096)]
                bytes += Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
            }
            if complete { bytes += Array("0\r\n\r\n".utf8) }
            send(fd, bytes)
        }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func head(status: Int, reason: String, headers: [(String, String)], length: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        while data.count < 65536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            data += buffer[0..<n]
            if let range = data.firstRange(of: end) {
                let text = String(decoding: data[..<range.lowerBound], as: UTF8.self)
                var lines = text.components(separatedBy: "\r\n")
                let first = lines.removeFirst().split(separator: " ")
                guard first.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                        in: .whitespaces
                    )
                }
                return Request(method: String(first[0]), path: String(first[1]), headers: headers)
            }
        }
        return nil
    }
}
