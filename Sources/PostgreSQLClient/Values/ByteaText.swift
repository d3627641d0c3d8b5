/// `bytea`'s text output: hex (`\x0102ff`, the default since 9.0) or the
/// older escape form (`a\\001b`, when `bytea_output = escape`).
enum ByteaText {
    static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x") {
            return decodeHex(bytes[2...])
        }
        return decodeEscaped(bytes)
    }

    private static func decodeHex(_ digits: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let value = hexValue(digit) else { continue }
            if let first = high {
                result.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return result
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func decodeEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                result.append(byte)
                index += 2
            } else if byte == UInt8(ascii: "\\"), index + 3 < bytes.count + 0,
                let octal = UInt8(String(decoding: bytes[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                result.append(octal)
                index += 4
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }
}
