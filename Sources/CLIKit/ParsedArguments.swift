/// The result of parsing a command line against a `CommandSpec`.
///
///     let args = try parseArguments(["list", "--sort", "name"], spec: spec)
///     args.value("--sort")   // "name"
///     args.flag("--json")    // false
package struct ParsedArguments: Sendable, Equatable {
    package var positionals: [String] = []
    var optionValues: [String: [String]] = [:]
    var flags: Set<String> = []

    package init() {}

    /// The last value given for an option, if any.
    package func value(_ name: String) -> String? { optionValues[name]?.last }
    /// Every value given for a repeatable option, in order.
    package func values(_ name: String) -> [String] { optionValues[name] ?? [] }
    /// Whether a flag was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }
}
