/// PostgreSQL's array text form: `{1,2,NULL}`, `{"a b","c\"d"}`,
/// `{{1,2},{3,4}}` (and a leading `[1:2]=` dimension decoration).
enum ArrayLiteral {
    /// Parses an array's text output whose elements have type `element`;
    /// nil for text that is not an array literal.
    static func parse(_ text: String, element: UInt32) -> PostgresValue? {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "["), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            bytes = bytes[(equals + 1)...]
        }
        var parser = Parser(bytes: bytes, element: element)
        guard let value = parser.parseArray(), parser.isAtEnd else { return nil }
        return value
    }

    /// Renders elements in braces, quoting what PostgreSQL would quote.
    static func render(_ elements: [PostgresValue], parameter: Bool = false) -> String {
        let parts = elements.map { element -> String in
            switch element {
            case .null: return "NULL"
            case .array(let inner): return render(inner, parameter: parameter)
            default:
                let text = (parameter ? element.parameterText : element.displayText) ?? ""
                return needsQuotes(text) ? quoted(text) : text
            }
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    private static func needsQuotes(_ text: String) -> Bool {
        text.isEmpty || text.uppercased() == "NULL"
            || text.contains { "{},\"\\".contains($0) || $0.isWhitespace }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    private struct Parser {
        var bytes: ArraySlice<UInt8>
        let element: UInt32

        var isAtEnd: Bool { bytes.isEmpty }

        mutating func parseArray() -> PostgresValue? {
            guard bytes.popFirst() == UInt8(ascii: "{") else { return nil }
            var elements: [PostgresValue] = []
            if bytes.first == UInt8(ascii: "}") {
                bytes.removeFirst()
                return .array(elements)
            }
            while true {
                guard let value = parseElement() else { return nil }
                elements.append(value)
                switch bytes.popFirst() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .array(elements)
                default: return nil
                }
            }
        }

        mutating func parseElement() -> PostgresValue? {
            switch bytes.first {
            case UInt8(ascii: "{"): return parseArray()
            case UInt8(ascii: "\""):
                bytes.removeFirst()
                var text: [UInt8] = []
                while let byte = bytes.popFirst() {
                    if byte == UInt8(ascii: "\\") {
                        guard let next = bytes.popFirst() else { return nil }
                        text.append(next)
                    } else if byte == UInt8(ascii: "\"") {
                        return PostgresValue.decode(text: String(decoding: text, as: UTF8.self), type: element)
                    } else {
                        text.append(byte)
                    }
                }
                return nil
            default:
                var text: [UInt8] = []
                while let byte = bytes.first, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}") {
                    text.append(byte)
                    bytes.removeFirst()
                }
                let word = String(decoding: text, as: UTF8.self)
                if word.uppercased() == "NULL" { return .null }
                return PostgresValue.decode(text: word, type: element)
            }
        }
    }
}
