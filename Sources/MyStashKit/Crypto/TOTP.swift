import CLibCrypto
import Foundation

/// Time-based one-time passwords (RFC 6238) from a TOTP secret: base32, or an
/// `otpauth://totp/Label?secret=…&algorithm=SHA1|SHA256|SHA512&digits=6…8&period=N` URI.
///
/// The HMAC is OpenSSL's (libcrypto), not hand-written.
///
/// A secret shorter than 10 bytes, a period outside 1–300 s and a URI
/// parameter given twice are refused.
///
///     let totp = try TOTP(parsing: "JBSWY3DPEHPK3PXP")
///     try totp.code(at: Date())      // e.g. "492039"
///     totp.secondsLeft(at: Date())   // 1…30
package struct TOTP: Hashable, Sendable {
    /// The HMAC hash.
    package enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"
    }

    package var secret: [UInt8]
    package var algorithm: Algorithm
    /// 6 to 8.
    package var digits: Int
    /// Seconds per code (30 unless the URI says otherwise).
    package var period: Int

    /// The shortest secret accepted, in bytes (80 bits: 16 base32 characters). RFC 4226 asks for
    /// 128 bits and recommends 160; a shorter secret can be found from a few codes.
    package static let minimumSecretLength = 10
    /// The periods accepted, in seconds: beyond five minutes a code is no longer one-time
    /// (`period=9223372036854775807` would give the same code forever).
    package static let periods = 1...300

    package init(secret: [UInt8], algorithm: Algorithm = .sha1, digits: Int = 6, period: Int = 30) throws {
        guard !secret.isEmpty else { throw TOTPError.invalidSecret("it is empty") }
        guard secret.count >= TOTP.minimumSecretLength else {
            throw TOTPError.invalidSecret(
                "it is \(secret.count) byte\(secret.count == 1 ? "" : "s") long; at least "
                    + "\(TOTP.minimumSecretLength) (16 base32 characters) are needed"
            )
        }
        guard (6...8).contains(digits) else { throw TOTPError.unsupported("digits=\(digits) (6 to 8 are supported)") }
        guard TOTP.periods.contains(period) else {
            throw TOTPError.unsupported("period=\(period) (1 to 300 seconds are supported)")
        }
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// Parses a base32 secret (spaces, dashes and `=` padding ignored, any
    /// case) or an `otpauth://totp/` URI.
    package init(parsing text: String) throws {
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
        for item in components.queryItems ?? [] {
            let name = item.name.lowercased()
            // Two secrets (or periods…) would leave it to the order which one is used: refuse.
            guard query[name] == nil else { throw TOTPError.invalidURI("\(name)= is given more than once") }
            query[name] = item.value ?? ""
        }
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
    package func with(digits: Int) throws -> TOTP {
        try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// The code for the time step `counter` (RFC 4226's HOTP over the step). Throws
    /// `TOTPError.hmacFailed` when libcrypto gives no digest of the hash's size.
    package func code(counter: UInt64) throws -> String {
        var message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let md: OpaquePointer?
        let expectedLength: Int
        switch algorithm {
        case .sha1: (md, expectedLength) = (EVP_sha1(), 20)
        case .sha256: (md, expectedLength) = (EVP_sha256(), 32)
        case .sha512: (md, expectedLength) = (EVP_sha512(), 64)
        }
        let result = secret.withUnsafeBytes { key in
            HMAC(md, key.baseAddress, Int32(key.count), &message, message.count, &digest, &length)
        }
        // RFC 4226's dynamic truncation reads 4 bytes from an offset up to 15: a digest of the
        // hash's full size (at least 20 bytes) is needed before anything is indexed.
        guard result != nil, md != nil, Int(length) == expectedLength else {
            throw TOTPError.hmacFailed(algorithm: algorithm.rawValue)
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
    package func counter(at date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970)) / UInt64(period)
    }

    /// The code valid at `date`.
    package func code(at date: Date) throws -> String { try code(counter: counter(at: date)) }

    /// Whole seconds until the code of `date` changes (1…period).
    package func secondsLeft(at date: Date) -> Int {
        let seconds = Int(max(0, date.timeIntervalSince1970))
        return period - seconds % period
    }

    /// RFC 4648 base32 (A–Z, 2–7), case-insensitive; spaces, dashes and `=` are ignored.
    package static func base32Decode(_ text: String) throws -> [UInt8] {
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
package enum TOTPError: Error, Equatable, CustomStringConvertible {
    case invalidSecret(String)
    case invalidURI(String)
    case unsupported(String)
    /// libcrypto's HMAC failed or gave a digest of the wrong size.
    case hmacFailed(algorithm: String)

    package var description: String {
        switch self {
        case .hmacFailed(let algorithm): return "cannot compute the TOTP code: HMAC-\(algorithm) failed"
        case .invalidSecret(let why): return "invalid TOTP secret: \(why)"
        case .invalidURI(let why): return "invalid otpauth URI: \(why)"
        case .unsupported(let what): return "unsupported TOTP setting: \(what)"
        }
    }
}
