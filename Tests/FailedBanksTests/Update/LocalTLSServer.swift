import Foundation
import TestSupport

/// An HTTPS server on 127.0.0.1 for one request, with a certificate of its own CA: `openssl s_server`
/// under `timeout` (it stops by itself after one connection, or after `lifetime` seconds), answering
/// with the bytes given. The CA and the certificate are made with `openssl` in a scratch directory;
/// only a process started through ``trusting(_:_:)`` trusts the CA.
///
///     let tls = try LocalTLSServer(scratch: scratch, reply: "HTTP/1.1 302 Found\r\nLocation: http://…\r\n\r\n")
///     defer { tls.stop() }
///     let (program, arguments) = try tls.trusting(binary, ["update", "--url", tls.url("/banklist.csv")])
final class LocalTLSServer {
    /// `openssl` and `timeout`, when both are installed (else the tests that need them are skipped).
    static let tools: (openssl: String, timeout: String)? = {
        guard let openssl = ProcessRunner.which("openssl"), let timeout = ProcessRunner.which("timeout") else {
            return nil
        }
        return (openssl, timeout)
    }()

    let port: UInt16
    /// The CA's certificate (PEM).
    let caPath: String
    private let process: Process

    /// Makes the CA and a certificate for 127.0.0.1 in `scratch`, and starts the server.
    init(scratch: TemporaryDirectory, reply: String, lifetime: Int = 60) throws {
        guard let tools = LocalTLSServer.tools else { throw EndToEndError("openssl or timeout is not installed") }
        let ca = scratch.path("ca.pem")
        let caKey = scratch.path("ca.key")
        let key = scratch.path("server.key")
        let request = scratch.path("server.csr")
        let certificate = scratch.path("server.pem")
        let extensions = scratch.path("server.ext")
        try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            toFile: extensions,
            atomically: true,
            encoding: .utf8
        )
        for arguments in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2",
                "-subj", "/CN=failedbanks test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign",
            ],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", certificate,
                "-days", "2", "-extfile", extensions,
            ],
        ] {
            let result = try ProcessRunner.run(tools.openssl, arguments)
            guard result.status == 0 else { throw EndToEndError("openssl \(arguments[0]): \(result.standardError)") }
        }
        caPath = ca

        process = Process()
        process.executableURL = URL(fileURLWithPath: tools.timeout)
        process.arguments = [
            String(lifetime), tools.openssl, "s_server", "-accept", "127.0.0.1:0", "-naccept", "1",
            "-cert", certificate, "-key", key,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // s_server sends what it reads on its standard input once a client is connected.
        input.fileHandleForWriting.write(Data(reply.utf8))
        // "ACCEPT 127.0.0.1:PORT" once it listens.
        var seen = ""
        var found: UInt16?
        while found == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let line = seen.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                let colon = line.lastIndex(of: ":")
            {
                found = UInt16(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        guard let found else {
            process.terminate()
            throw EndToEndError("openssl s_server did not start: \(seen)")
        }
        port = found
        // Keep reading (the request is echoed there), so that the server never blocks on a full pipe.
        let reader = output.fileHandleForReading
        Thread { _ = reader.readDataToEndOfFile() }.start()
        // Held open until the server stops: an end of input would end the connection early.
        keptInput = input
    }

    private var keptInput: Pipe?

    /// `https://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// The system's CA bundle, which FoundationNetworking gives libcurl on Linux (it reads no
    /// environment variable for it, and libcurl's own CAINFO then makes OpenSSL's `SSL_CERT_FILE` moot).
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// `unshare`, when it can make a mount namespace here (root or CAP_SYS_ADMIN) and the system bundle
    /// exists: the way to trust the test CA in one child process only.
    static let unshare: String? = {
        guard let unshare = ProcessRunner.which("unshare"), FileManager.default.fileExists(atPath: systemBundle),
            let probe = try? ProcessRunner.run(unshare, ["--mount", "true"]), probe.status == 0
        else { return nil }
        return unshare
    }()

    /// The program and arguments that run `executable arguments` trusting this server's CA, and only it:
    /// in a mount namespace of its own where the CA is bind-mounted over the system bundle (nothing
    /// outside that one process sees it).
    func trusting(_ executable: String, _ arguments: [String]) throws -> (String, [String]) {
        guard let unshare = LocalTLSServer.unshare else { throw EndToEndError("unshare --mount is not available") }
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\""
        return (
            unshare, ["--mount", "sh", "-c", script, "sh", caPath, LocalTLSServer.systemBundle, executable] + arguments
        )
    }

    /// Stops the server (if it has not stopped by itself) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? keptInput?.fileHandleForWriting.close()
        keptInput = nil
    }

    deinit { stop() }
}
