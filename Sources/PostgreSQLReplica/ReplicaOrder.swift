import PostgreSQLClient

/// How the server orders a column whose values, as the replica keeps them, SQLite would sort
/// otherwise: the replica keeps beside it an *order column* of keys (BLOB, never NULL) whose
/// byte order is the server's `ORDER BY` — NULL as the greatest value, as PostgreSQL sorts it —
/// made on the client from a text the server sends with each row (``sourceSQL``).
///
/// | column | key made from | compared as |
/// |---|---|---|
/// | `numeric` (and its domains) | its text | numbers, exactly; `NaN` above `Infinity` |
/// | `money` | its value as `numeric` | numbers |
/// | an enum | its label's `pg_enum.enumsortorder` | the declared order |
/// | text, `varchar`, `char`, with a collation other than `C`/`POSIX`/`C.UTF-8` | its text | the collation (ICU, or the C library's locale) |
/// | text in a byte-order collation of a database whose encoding does not sort as UTF-8 (`WIN1252`, `LATIN2`…) | its bytes in that encoding | bytes |
///
///     let order = ReplicaOrder(for: ColumnDescription(… "fee", typeName: "numeric" …))
///     order?.sourceSQL   // "fee"
struct ReplicaOrder: Hashable, Sendable {
    /// What a key is made of.
    enum Kind: Hashable, Sendable {
        /// A number's text (`-12.50`, `1e-05`, `NaN`, `Infinity`): ``DecimalKey``.
        case decimal
        /// Text under a collation: its sort key, then (deterministic) its bytes.
        case collation(ColumnCollation, trimsTrailingSpaces: Bool)
        /// `bytea` in hex (`\x4d6f`): the bytes.
        case bytes
    }

    let kind: Kind
    /// The SQL (over the table's columns) whose text the key is made from.
    let sourceSQL: String

    /// The order of `column`, or nil when SQLite sorts its kept values as the server does.
    init?(for column: ColumnDescription) {
        let name = SQLIdentifier.quote(column.name)
        switch column.baseTypeOID {
        case 1700:  // numeric
            kind = .decimal
            sourceSQL = name
        case 790:  // money
            kind = .decimal
            sourceSQL = "\(name)::numeric"
        case 25, 1043, 1042:  // text, varchar, char
            guard let collation = column.collation else { return nil }
            if collation.ordersByBytes {
                // UTF-8's bytes sort by code point, as LATIN1's do; other encodings' bytes do not.
                guard !["UTF8", "SQL_ASCII", "LATIN1"].contains(collation.encoding) else { return nil }
                kind = .bytes
                sourceSQL = "convert_to(\(name)::text, '\(collation.encoding)')"
            } else {
                kind = .collation(collation, trimsTrailingSpaces: column.baseTypeOID == 1042)
                sourceSQL = "\(name)::text"
            }
        default:
            guard column.isEnum else { return nil }
            kind = .decimal
            sourceSQL =
                "(SELECT e.enumsortorder FROM pg_catalog.pg_enum e WHERE e.enumtypid = \(column.baseTypeOID)"
                + " AND e.enumlabel = \(name)::text)"
        }
    }

    /// The key of NULL: above every other.
    static let nullKey: UInt8 = 0xFF
}

/// A number's text as bytes that compare as the numbers do (memcmp, shorter first): `-Infinity`,
/// negatives, zero, positives, `Infinity`, `NaN` — PostgreSQL's order of `numeric` and
/// floating-point values — every key below ``ReplicaOrder/nullKey``. Equal numbers written
/// differently (`2.5`, `2.50`) have equal keys, as they are equal to the server.
enum DecimalKey {
    static let negativeInfinity: UInt8 = 0x01
    static let negative: UInt8 = 0x40
    static let zero: UInt8 = 0x80
    static let positive: UInt8 = 0xC0
    static let infinity: UInt8 = 0xFD
    static let notANumber: UInt8 = 0xFE

    /// Appends the key of `text` (a decimal number with an optional sign, point and exponent,
    /// or `NaN`/`Infinity`/`-Infinity`) to `key`. Text that is no number sorts as NaN.
    static func append(_ text: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: "I") || text[index] == UInt8(ascii: "i") {
            key.append(negative ? negativeInfinity : infinity)
            return
        }
        // The significant digits, and the position of the point relative to the first of them.
        var digits: [UInt8] = []
        digits.reserveCapacity(text.count)
        var exponent = 0
        var seenPoint = false
        var anyDigit = false
        while index < text.count {
            let byte = text[index]
            if byte >= 0x30 && byte <= 0x39 {
                anyDigit = true
                let digit = byte - 0x30
                if digits.isEmpty && digit == 0 {
                    if seenPoint { exponent -= 1 }
                } else {
                    digits.append(digit)
                    if !seenPoint { exponent += 1 }
                }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var power = 0
            while index < text.count, text[index] >= 0x30 && text[index] <= 0x39, power < 1_000_000 {
                power = power * 10 + Int(text[index] - 0x30)
                index += 1
            }
            exponent += exponentNegative ? -power : power
        }
        guard anyDigit, index == text.count else {
            key.append(notANumber)
            return
        }
        while digits.last == 0 { digits.removeLast() }
        guard !digits.isEmpty else {
            key.append(zero)
            return
        }
        let biased = UInt16(clamping: exponent + 0x8000)
        if negative {
            key.append(DecimalKey.negative)
            key.append(~UInt8(biased >> 8))
            key.append(~UInt8(biased & 0xFF))
            for digit in digits { key.append(0xFF - (digit + 1)) }
            key.append(0xFF)
        } else {
            key.append(positive)
            key.append(UInt8(biased >> 8))
            key.append(UInt8(biased & 0xFF))
            for digit in digits { key.append(digit + 1) }
            key.append(0x00)
        }
    }

    /// The key of `text`.
    static func key(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0), to: &key) }
        return key
    }
}
