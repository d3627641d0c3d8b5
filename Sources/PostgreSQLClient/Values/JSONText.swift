/// JSON text without whitespace outside strings: `{"a": [1, 2]}` → `{"a":[1,2]}`.
enum JSONText {
    static func compact(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                result.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "\""):
                inString = true
                result.append(byte)
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
