/// One option a command accepts: a flag (`--quiet`) or an option with a value (`--db PATH`).
///
/// The same table drives parsing, `--help`, the man page and the shell completions, so none of
/// them can drift from what is accepted.
///
///     OptionSpec("--db", value: "PATH", help: "the store to use")
///     OptionSpec("--quiet", value: nil, help: "print nothing but errors")
///     OptionSpec("--sort", value: "ORDER", help: "date, name or state", completion: .values(["date", "name", "state"]))
package struct OptionSpec: Sendable, Equatable {
    package let name: String
    /// The placeholder shown in help (`PATH`); `nil` for a flag.
    package let valueName: String?
    package let help: String
    /// Whether the option may be given more than once (values accumulate).
    package let isRepeatable: Bool
    /// What Tab offers for the value (by default what ``valueName`` implies: `PATH` is a file).
    package let completion: ValueCompletion
    /// Whether the flag takes the place of the command's first argument (`--pg` for a FILE):
    /// the completions then pass it to an ``ValueCompletion/argumentQuery(subcommand:)`` as they
    /// pass a first argument (`PROGRAM complete-tables --pg`).
    package let standsForArgument: Bool

    /// An option; `completion` defaults to what the placeholder implies (``ValueCompletion/implied(by:)``);
    /// `standsForArgument` marks a flag given in place of the first argument.
    package init(
        _ name: String,
        value: String?,
        help: String,
        repeatable: Bool = false,
        completion: ValueCompletion? = nil,
        standsForArgument: Bool = false
    ) {
        self.standsForArgument = standsForArgument
        self.name = name
        self.valueName = value
        self.help = help
        self.isRepeatable = repeatable
        self.completion = completion ?? ValueCompletion.implied(by: value)
    }

    package var isFlag: Bool { valueName == nil }

    /// `--help` and `--version`, which every command accepts.
    static let builtIn = [
        OptionSpec("--help", value: nil, help: "show this help and exit"),
        OptionSpec("--version", value: nil, help: "print the version and the commit it was built from, and exit"),
    ]
}
