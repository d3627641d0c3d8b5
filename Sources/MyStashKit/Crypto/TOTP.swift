import CLibCrypto
import Foundation

/// Time-based one-time passwords (RFC 6238) from a TOTP secret: base32, or an
/// `otpauth://totp/Label?secret=…&algorithm=SHA1|SHA256|SHA512&digits=6…8&period=N` URI.
///
/// The HMAC is OpenSSL's (libcrypto), not hand-written.
///
///     let totp = try TOTP(parsing: "JBSWY3DPEHPK3PXP")
///     totp.code(at: Date())          // e.g. "492039"
///     totp.secondsLeft(at: Date())   // 1…30
public struct TOTP: Hashable, Sendable {
    /// The HMAC hash.
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"
    }

    public var secret: [UInt8]
    public var algorithm: Algorithm
    /// 6 to 8.
    public var digits: Int
    /// Seconds per code (30 unless the URI says otherwise).
    public var period: Int

    public init(secret: [UInt8], algorithm: Algorithm = .sha1, digits: Int = 6, period: Int = 30) throws {
        guard !secret.isEmpty else { throw TOTPError.invalidSecret("it is empty") }
        guard (6...8).contains(digits) else { throw TOTPError.unsupported("digits=\(digits) (6 to 8 are supported)") }
        guard period > 0 else { throw TOTPError.unsupported("period=\(period)") }
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// Parses a base32 secret (spaces, dashes and `=` padding ignored, any
    /// case) or an `otpauth://totp/` URI.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.lowercased().hasPrefix("otpauth:") else {
            try self.init(secret: try TOTP.base32Decode(trimmed))
            return
        }
        guard let components = URLComponents(string: trimmed), components.scheme?.lowercased() == "otpauth" else {
            throw TOTPError.invalidURI("not an otpauth:// URI")
        }
        guard components.host?.lowercased() == "totp" else {
            throw TOTPError.unsupported("otpauth type '\(components.host ?? "")' (only totp is supported)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name.lowercased()] = item.value ?? "" }
        guard let secret = query["secret"], !secret.isEmpty else { throw TOTPError.invalidURI("no secret= parameter") }
        var algorithm = Algorithm.sha1
        if let name = query["algorithm"] {
            guard let chosen = Algorithm(rawValue: name.uppercased()) else {
                throw TOTPError.unsupported("algorithm=\(name)")
            }
            algorithm = chosen
        }
        let digits =
            try query["digits"].map { value in
                guard let n = Int(value) else { throw TOTPError.invalidURI("digits=\(value)") }
                return n
            } ?? 6
        let period =
            try query["period"].map { value in
                guard let n = Int(value) else { throw TOTPError.invalidURI("period=\(value)") }
                return n
            } ?? 30
        try self.init(secret: try TOTP.base32Decode(secret), algorithm: algorithm, digits: digits, period: period)
    }

    /// The same secret with another number of digits.
    public func with(digits: Int) throws -> TOTP {
        try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// The code for the time step `counter` (RFC 4226's HOTP over the step).
    public func code(counter: UInt64) -> String {
        var message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let md: OpaquePointer?
        switch algorithm {
        case .sha1: md = EVP_sha1()
        case .sha256: md = EVP_sha256()
        case .sha512: md = EVP_sha512()
        }
        _ = secret.withUnsafeBytes { key in
            HMAC(md, key.baseAddress, Int32(key.count), &message, message.count, &digest, &length)
        }
        let offset = Int(digest[Int(length) - 1] & 0x0f)
        let binary =
            (UInt32(digest[offset] & 0x7f) << 24) | (UInt32(digest[offset + 1]) << 16)
            | (UInt32(digest[offset + 2]) << 8) | UInt32(digest[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The time step of `date`.
    public func counter(at date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970)) / UInt64(period)
    }

    /// The code valid at `date`.
    public func code(at date: Date) -> String { code(counter: counter(at: date)) }

    /// Whole seconds until the code of `date` changes (1…period).
    public func secondsLeft(at date: Date) -> Int {
        let seconds = Int(max(0, date.timeIntervalSince1970))
        return period - seconds % period
    }

    /// RFC 4648 base32 (A–Z, 2–7), case-insensitive; spaces, dashes and `=` are ignored.
    public static func base32Decode(_ text: String) throws -> [UInt8] {
        var bits: UInt64 = 0
        var count = 0
        var output: [UInt8] = []
        for scalar in text.unicodeScalars {
            let value: UInt64
            switch scalar {
            case "A"..."Z": value = UInt64(scalar.value - 65)
            case "a"..."z": value = UInt64(scalar.value - 97)
            case "2"..."7": value = UInt64(scalar.value - 50 + 26)
            case " ", "-", "=": continue
            default: throw TOTPError.invalidSecret("'\(scalar)' is not a base32 character")
            }
            bits = (bits << 5) | value
            count += 5
            if count >= 8 {
                count -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> UInt64(count)))
                bits &= (1 << UInt64(count)) - 1
            }
        }
        guard !output.isEmpty else { throw TOTPError.invalidSecret("it is empty") }
        return output
    }
}

/// Why a TOTP secret cannot be used.
///
///     catch TOTPError.unsupported(let what) { print("unsupported: \(what)") }
public enum TOTPError: Error, Equatable, CustomStringConvertible {
    case invalidSecret(String)
    case invalidURI(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .invalidSecret(let why): return "invalid TOTP secret: \(why)"
        case .invalidURI(let why): return "invalid otpauth URI: \(why)"
        case .unsupported(let what): return "unsupported TOTP setting: \(what)"
        }
    }
}
