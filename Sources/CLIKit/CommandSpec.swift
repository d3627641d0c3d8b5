/// What one command (or subcommand) accepts, and the help text made from it.
///
///     let spec = CommandSpec(
///         name: "books import", summary: "Import book list CSV files.",
///         usage: "FILE... [--db PATH] [--skip-bad-rows] [--quiet]",
///         options: [OptionSpec("--db", value: "PATH", help: "the store")],
///         minPositionals: 1, maxPositionals: nil)
///     let args = try parseArguments(["a.csv", "--db", "x.sqlite"], spec: spec)
package struct CommandSpec: Sendable {
    package let name: String
    package let summary: String
    package let usage: String
    package let options: [OptionSpec]
    package let minPositionals: Int
    /// `nil`: any number.
    package let maxPositionals: Int?
    /// Extra paragraphs printed after the options (examples, environment).
    package let epilogue: String?
    /// What Tab offers for the positional arguments (by default what the usage's first argument
    /// implies: `FILE` is a file, `notes|passwords` those two words, `NAME` nothing).
    package let arguments: ValueCompletion
    /// The subcommands a program's own spec lists in its help (filled by ``ProgramSpec``).
    package internal(set) var commands: [CommandSummary] = []

    package init(
        name: String,
        summary: String,
        usage: String,
        options: [OptionSpec],
        minPositionals: Int = 0,
        maxPositionals: Int? = 0,
        epilogue: String? = nil,
        arguments: ValueCompletion? = nil
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.minPositionals = minPositionals
        self.maxPositionals = maxPositionals
        self.epilogue = epilogue
        self.arguments = arguments ?? CommandSpec.argumentCompletion(usage: usage, maxPositionals: maxPositionals)
    }

    /// The options as `--help` lists them: the spec's own, then `--help` and `--version`.
    package var allOptions: [OptionSpec] {
        options + OptionSpec.builtIn.filter { builtIn in !options.contains { $0.name == builtIn.name } }
    }

    /// The `--help` text: usage, summary, one line per option, the commands (a program's), the epilogue.
    package var helpText: String {
        var lines = ["usage: \(name) \(usage)", "", summary, ""]
        let labels = allOptions.map { option in option.valueName.map { "\(option.name) \($0)" } ?? option.name }
        let column = (labels.map { $0.count }.max() ?? 0) + 2
        lines.append("options:")
        for (option, label) in zip(allOptions, labels) {
            let padding = String(repeating: " ", count: column - label.count)
            lines.append("  \(label)\(padding)\(option.help)")
        }
        if !commands.isEmpty {
            let width = (commands.map { $0.name.count }.max() ?? 0) + 2
            lines += ["", "commands:"]
            for command in commands {
                lines.append(
                    "  \(command.name)\(String(repeating: " ", count: width - command.name.count))\(command.brief)"
                )
            }
            lines.append("Run '\(name) COMMAND --help' for a command's options.")
        }
        if let epilogue { lines += ["", epilogue] }
        return lines.joined(separator: "\n")
    }

    /// The usage's first argument outside brackets (`FILE...`, `notes|passwords`), as a completion.
    static func argumentCompletion(usage: String, maxPositionals: Int?) -> ValueCompletion {
        guard maxPositionals != 0 else { return .none }
        var depth = 0
        for token in usage.split(separator: " ") {
            let opening = token.filter { $0 == "[" }.count
            let closing = token.filter { $0 == "]" }.count
            defer { depth += opening - closing }
            guard depth == 0, opening == 0, !token.hasPrefix("-"), token != "|" else { continue }
            return ValueCompletion.implied(by: String(token))
        }
        return .none
    }
}

/// A subcommand's name and one-line description, as a program's `--help` lists it.
package struct CommandSummary: Sendable, Equatable {
    /// The word after the program's name (`list`).
    package let name: String
    /// A few words on what it does.
    package let brief: String
}
