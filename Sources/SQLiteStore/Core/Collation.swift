import Foundation

/// The text orderings SQLite offers that the store uses.
///
/// `.binary` is SQLite's default (`memcmp` of the UTF-8 bytes); `.nocase` is
/// SQLite's built-in NOCASE: only ASCII `A`–`Z` fold to lower case, everything
/// else (`É`, `ß`, CJK) compares by its bytes. Swift code that must agree with
/// an `ORDER BY name COLLATE NOCASE` uses ``StoreValue/compare(_:_:collation:)``.
///
///     StoreValue.compare("apple", "Banana", collation: .nocase) // -1
public enum Collation: Sendable, Hashable {
    /// Byte order of the UTF-8 text (SQLite's default `BINARY`).
    case binary
    /// SQLite's `NOCASE`: ASCII `A`–`Z` fold to lower case, nothing else.
    case nocase

    /// The SQL name, for `COLLATE <name>`.
    package var sqlName: String {
        switch self {
        case .binary: return "BINARY"
        case .nocase: return "NOCASE"
        }
    }
}

extension StoreValue {
    /// Orders two values exactly as SQLite's `ORDER BY` does.
    ///
    /// NULL sorts first, then numbers (integers and reals compared by value,
    /// exactly, as SQLite does), then text by the collation, then blobs by
    /// `memcmp` and length. Returns -1, 0 or 1.
    ///
    ///     StoreValue.compare(.integer(2), .real(2.5))    // -1
    ///     StoreValue.compare(.text("a"), .integer(9))     //  1
    public static func compare(_ a: StoreValue, _ b: StoreValue, collation: Collation = .binary) -> Int {
        let ra = a.storageRank
        let rb = b.storageRank
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.null, .null): return 0
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.integer(let x), .real(let y)): return compareInt(x, y)
        case (.real(let x), .integer(let y)): return -compareInt(y, x)
        case (.text(let x), .text(let y)): return compareText(x, y, collation: collation)
        case (.blob(let x), .blob(let y)): return compareBytes(x, y)
        default: return 0
        }
    }

    /// SQLite's storage-class rank: NULL 0, numeric 1, text 2, blob 3. A NaN real counts as NULL (SQLite stores NaN as NULL).
    @usableFromInline var storageRank: Int {
        switch self {
        case .null: return 0
        case .integer: return 1
        case .real(let d): return d.isNaN ? 0 : 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// SQLite's sqlite3IntFloatCompare: exact comparison of an integer with a double.
    static func compareInt(_ i: Int64, _ r: Double) -> Int {
        if r < -9223372036854775808.0 { return 1 }
        if r >= 9223372036854775808.0 { return -1 }
        let y = Int64(r.rounded(.towardZero))
        if i < y { return -1 }
        if i > y { return 1 }
        let s = Double(i)
        if s < r { return -1 }
        if s > r { return 1 }
        return 0
    }

    /// Compares two strings by their UTF-8 bytes, folding ASCII upper case to lower case for NOCASE.
    package static func compareText(_ a: String, _ b: String, collation: Collation) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                compareUTF8(UnsafeRawBufferPointer(pa), UnsafeRawBufferPointer(pb), collation: collation)
            }
        }
    }

    /// Compares two UTF-8 byte buffers as SQLite's BINARY or NOCASE collation does.
    package static func compareUTF8(
        _ a: UnsafeRawBufferPointer,
        _ b: UnsafeRawBufferPointer,
        collation: Collation
    ) -> Int {
        let n = Swift.min(a.count, b.count)
        switch collation {
        case .binary:
            if n > 0 {
                let r = memcmp(a.baseAddress!, b.baseAddress!, n)
                if r != 0 { return r < 0 ? -1 : 1 }
            }
        case .nocase:
            var i = 0
            while i < n {
                var x = a[i]
                var y = b[i]
                if x >= 0x41 && x <= 0x5A { x |= 0x20 }
                if y >= 0x41 && y <= 0x5A { y |= 0x20 }
                if x != y { return x < y ? -1 : 1 }
                i += 1
            }
        }
        return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
    }

    static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in compareUTF8(pa, pb, collation: .binary) } }
    }
}
