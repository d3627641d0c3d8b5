extension PostgresValue {
    /// Decodes the text form of a value of type `type` (a type OID) as the
    /// server sends it.
    static func decode(text: String, type: UInt32) -> PostgresValue {
        switch type {
        case TypeOID.bool: return .boolean(text == "t")
        case TypeOID.int2, TypeOID.int4, TypeOID.int8, TypeOID.oid:
            return Int64(text).map(PostgresValue.integer) ?? .numeric(text)
        case TypeOID.float4, TypeOID.float8: return Double(text).map(PostgresValue.real) ?? .numeric(text)
        case TypeOID.numeric: return .numeric(text)
        case TypeOID.date: return .date(text)
        case TypeOID.timestamp: return .timestamp(text)
        case TypeOID.timestamptz: return .timestampWithTimeZone(text)
        case TypeOID.uuid: return .uuid(text)
        case TypeOID.json, TypeOID.jsonb: return .json(JSONText.compact(text))
        case TypeOID.bytea: return .bytes(ByteaText.decode(text))
        default:
            if let element = TypeOID.arrayElements[type] {
                return ArrayLiteral.parse(text, element: element) ?? .text(text)
            }
            return .text(text)
        }
    }
}

extension PostgresValue {
    /// The value of type `type` (a type OID) whose text form the server sent:
    /// a query's text result, or a field of `COPY … TO STDOUT` once unescaped.
    ///
    ///     PostgresValue(serverText: "{\"a\": 1}", type: 3802).displayText   // {"a":1}
    public init(serverText text: String, type: UInt32) {
        self = .decode(text: text, type: type)
    }
}
