/// A column an importer expects: its documented name, the header spellings
/// that mean it, and whether a file must have it.
///
///     let isbn = CSVColumn("ISBN", aliases: ["ISBN #", "ISBN Number"])
///     let edition = CSVColumn("Edition", required: false)
public struct CSVColumn: Sendable, Hashable {
    /// The name used in messages (`column "Published On"`).
    public let name: String
    /// Other header spellings (compared after ``CSVHeaderMap/normalize(_:)``).
    public let aliases: [String]
    /// Whether a file without this column is refused.
    public let isRequired: Bool

    /// A column known as `name` (and `aliases`); `required: false` for columns some years lack.
    public init(_ name: String, aliases: [String] = [], required: Bool = true) {
        self.name = name
        self.aliases = aliases
        self.isRequired = required
    }

    /// The normalized spellings that match this column.
    var normalizedNames: [String] { ([name] + aliases).map(CSVHeaderMap.normalize) }
}
