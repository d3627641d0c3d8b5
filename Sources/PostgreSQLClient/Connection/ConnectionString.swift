import CLibPQ

/// Reading a libpq connection string — a URI (`postgres://…`,
/// `postgresql://…`) or `key=value` pairs — for what must never be shown:
/// its password.
///
/// A password in a URI is visible to every user of the machine in `ps`;
/// a tool warns once and points to `~/.pgpass` or `PGPASSWORD`:
///
///     if ConnectionString.containsPassword(uri) {
///         warn("the password in the URI is visible in ps; use ~/.pgpass or PGPASSWORD")
///     }
///     title = ConnectionString.removingPassword(from: uri)
public enum ConnectionString {
    /// Whether `connectionString` carries a password (in a URI's user
    /// information, a `password=` parameter, or a `password=` pair).
    public static func containsPassword(_ connectionString: String) -> Bool {
        !(passwords(in: connectionString).isEmpty)
    }

    /// Whether `text` is a libpq keyword/value connection string (`host=db dbname=shop`,
    /// `service=main`): it has an `=`, and libpq's own parser reads it as parameters it knows.
    /// A URI is not (see ``isURI(_:)``); nor is a file name, which has no `keyword=`.
    ///
    ///     ConnectionString.isKeywordValue("host=db password=secret dbname=shop")   // true
    ///     ConnectionString.isKeywordValue("data=2024.csv")                         // false: no such keyword
    package static func isKeywordValue(_ text: String) -> Bool {
        guard text.contains("="), !isURI(text) else { return false }
        var error: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(text, &error)
        if let error { PQfreemem(error) }
        guard let options else { return false }
        PQconninfoFree(options)
        return true
    }

    /// Whether `text` is a connection URI: `postgres://…` or `postgresql://…` (any case).
    package static func isURI(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// `connectionString` without its password, for a title or a message:
    /// `postgres://alice:secret@host/db?password=x&sslmode=require` becomes
    /// `postgres://alice@host/db?sslmode=require`.
    public static func removingPassword(from connectionString: String) -> String {
        removingPasswords(from: connectionString, connectionString: connectionString)
    }

    /// `message` with every password of `connectionString` (and any
    /// `password=` pair or URI user information) removed.
    public static func removingPasswords(from message: String, connectionString: String?) -> String {
        var text = removingURIPasswords(from: message)
        text = removingPasswordPairs(from: text)
        for password in connectionString.map(passwords(in:)) ?? [] where !password.isEmpty {
            text = text.replacing(password, with: "***")
            if let encoded = password.addingPercentEncodingForURI(), encoded != password {
                text = text.replacing(encoded, with: "***")
            }
        }
        return text
    }

    /// The passwords libpq would read from `connectionString`, decoded
    /// (libpq's own parser), plus the raw text of a URI's password.
    static func passwords(in connectionString: String) -> [String] {
        var found: [String] = []
        var error: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(connectionString, &error) {
            defer { PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "password", let value = option.pointee.val, value.pointee != 0 {
                    found.append(String(cString: value))
                }
                option += 1
            }
        }
        if let error { PQfreemem(error) }
        return found
    }

    /// `scheme://user:password@` → `scheme://user@`, wherever it appears.
    private static func removingURIPasswords(from text: String) -> String {
        text.replacing(#/(postgres(?:ql)?:\/\/[^:@\/\s]*):[^@\s]*@/#, with: { "\($0.output.1)@" })
    }

    /// `password=…` as a URI parameter (`?password=x&`, `&password=x`) or a
    /// `key=value` pair (`password=x`, `password='x y'`), removed.
    private static func removingPasswordPairs(from text: String) -> String {
        var result = text.replacing(#/([?&])password=[^&\s]*&?/#, with: { $0.output.1 == "?" ? "?" : "&" })
        result = result.replacing(#/[?&]$/#, with: "")
        result = result.replacing(#/\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S*)\s?/#, with: "")
        return result
    }
}

extension String {
    fileprivate func addingPercentEncodingForURI() -> String? {
        var encoded = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                    || "-._~".contains(Character(scalar))
            {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
