/// A table's or view's name with its schema.
///
///     let events = TableName(schema: "public", name: "events")
///     events.quoted   // "public"."events"
public struct TableName: Hashable, Sendable, CustomStringConvertible {
    /// The schema (`public`…), as stored in the catalog.
    public let schema: String
    /// The name, as stored in the catalog (case kept).
    public let name: String

    /// Names a table.
    public init(schema: String, name: String) {
        self.schema = schema
        self.name = name
    }

    /// The name for SQL, both parts quoted: `"public"."events"`.
    public var quoted: String { SQLIdentifier.quote(schema: schema, name: name) }

    /// `schema.name`, unquoted, for messages.
    public var description: String { "\(schema).\(name)" }
}
