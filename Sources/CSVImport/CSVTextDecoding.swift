/// Turns the bytes of a CSV field into text: UTF-8 when the bytes are valid
/// UTF-8, otherwise Windows-1252.
///
/// Real files come in both encodings (one lists the same names in UTF-8 one year,
/// in Windows-1252 the next), where the en dash of "First–Citizens" is the single byte
/// 0x96. Deciding per field keeps reading streaming (no pass over the whole
/// file first); a field that is valid UTF-8 is, for every real file we have,
/// meant as UTF-8.
///
///     let bytes: [UInt8] = Array("First".utf8) + [0x96] + Array("Citizens".utf8)
///     bytes.withUnsafeBytes { CSVTextDecoding.string(from: $0) } // "First–Citizens"
public enum CSVTextDecoding {
    /// Decodes `bytes` as UTF-8 when valid, else as Windows-1252.
    public static func string(from bytes: UnsafeRawBufferPointer) -> String {
        if isASCII(bytes) || isValidUTF8(bytes) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return windows1252(bytes)
    }

    /// True when every byte is below 0x80.
    @inlinable
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = bytes.count
        // Eight bytes at a time.
        while i + 8 <= n {
            if bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n {
            if bytes[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// True when `bytes` is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
    package static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard i + length <= n else { return false }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { return false }
            var k = 2
            while k < length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }

    /// Decodes Windows-1252 (code page 1252). The five undefined bytes
    /// (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD.
    package static func windows1252(_ bytes: UnsafeRawBufferPointer) -> String {
        var scalars = String.UnicodeScalarView()
        for b in bytes {
            scalars.append(windows1252Scalar(b))
        }
        return String(scalars)
    }

    /// The Unicode scalar for one Windows-1252 byte.
    package static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        if byte < 0x80 || byte >= 0xA0 { return Unicode.Scalar(byte) }
        return Unicode.Scalar(cp1252High[Int(byte - 0x80)])!
    }

    /// 0x80–0x9F of code page 1252; 0xFFFD where the code page defines nothing.
    private static let cp1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 80–87
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,  // 88–8F
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 90–97
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,  // 98–9F
    ]
}
