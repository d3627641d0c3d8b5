import Testing

@testable import CSVImport

@Suite struct CSVTextDecodingTests {
    func decode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { CSVTextDecoding.string(from: $0) } }

    @Test func windows1252EnDashBecomesUnicode() {
        #expect(decode(Array("First".utf8) + [0x96] + Array("Citizens".utf8)) == "First–Citizens")
    }

    @Test func theWholeHighHalfOfCodePage1252Maps() {
        #expect(decode([0x80, 0x85, 0x91, 0x92, 0x93, 0x94, 0x97, 0x99, 0x9F]) == "€…‘’“”—™Ÿ")
        #expect(decode([0xA0, 0xE9, 0xF1, 0xFF]) == "\u{a0}éñÿ")
        #expect(decode([0x81, 0x8D, 0x8F, 0x90, 0x9D]) == String(repeating: "\u{fffd}", count: 5))
    }

    @Test func validUTF8IsKeptAsUTF8() {
        #expect(decode(Array("Banco Español – Sainte-Thérèse 🏦".utf8)) == "Banco Español – Sainte-Thérèse 🏦")
    }

    @Test func invalidUTF8IsReadAsWindows1252() {
        // Overlong, surrogate, truncated and lone-continuation sequences are not UTF-8.
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x80], [0x80], [0xF5, 0x80, 0x80, 0x80]] {
            #expect(!bytes.withUnsafeBytes(CSVTextDecoding.isValidUTF8), "\(bytes)")
        }
        #expect(decode([0x43, 0x61, 0x66, 0xE9]) == "Café")
    }

    @Test func asciiDetectionLooksAtEveryByte() {
        for length in 0..<20 {
            var bytes = [UInt8](repeating: 0x41, count: length)
            #expect(bytes.withUnsafeBytes(CSVTextDecoding.isASCII))
            if length > 0 {
                bytes[length - 1] = 0xC3
                #expect(!bytes.withUnsafeBytes(CSVTextDecoding.isASCII))
            }
        }
    }
}
