/// One option a command accepts: a flag (`--quiet`) or an option with a value (`--db PATH`).
///
/// The same table drives parsing and `--help`, so the help can never drift
/// from what is accepted.
///
///     OptionSpec("--db", value: "PATH", help: "the store to use")
///     OptionSpec("--quiet", value: nil, help: "print nothing but errors")
public struct OptionSpec: Sendable, Equatable {
    public let name: String
    /// The placeholder shown in help (`PATH`); `nil` for a flag.
    public let valueName: String?
    public let help: String
    /// Whether the option may be given more than once (values accumulate).
    public let isRepeatable: Bool

    public init(_ name: String, value: String?, help: String, repeatable: Bool = false) {
        self.name = name
        self.valueName = value
        self.help = help
        self.isRepeatable = repeatable
    }

    public var isFlag: Bool { valueName == nil }
}
