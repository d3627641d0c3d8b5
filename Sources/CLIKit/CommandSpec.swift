/// What one command (or subcommand) accepts, and the help text made from it.
///
///     let spec = CommandSpec(
///         name: "failedbanks import", summary: "Import FDIC Failed Bank List CSV files.",
///         usage: "FILE... [--db PATH] [--skip-bad-rows] [--quiet]",
///         options: [OptionSpec("--db", value: "PATH", help: "the store")],
///         minPositionals: 1, maxPositionals: nil)
///     let args = try parseArguments(["a.csv", "--db", "x.sqlite"], spec: spec)
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    public let usage: String
    public let options: [OptionSpec]
    public let minPositionals: Int
    /// `nil`: any number.
    public let maxPositionals: Int?
    /// Extra paragraphs printed after the options (examples, environment).
    public let epilogue: String?

    public init(
        name: String,
        summary: String,
        usage: String,
        options: [OptionSpec],
        minPositionals: Int = 0,
        maxPositionals: Int? = 0,
        epilogue: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.minPositionals = minPositionals
        self.maxPositionals = maxPositionals
        self.epilogue = epilogue
    }

    /// The `--help` text: usage, summary, then one line per option.
    public var helpText: String {
        var lines = ["usage: \(name) \(usage)", "", summary, ""]
        let all = options + [OptionSpec("--help", value: nil, help: "show this help and exit")]
        let labels = all.map { option in option.valueName.map { "\(option.name) \($0)" } ?? option.name }
        let column = (labels.map { $0.count }.max() ?? 0) + 2
        lines.append("options:")
        for (option, label) in zip(all, labels) {
            let padding = String(repeating: " ", count: column - label.count)
            lines.append("  \(label)\(padding)\(option.help)")
        }
        if let epilogue { lines += ["", epilogue] }
        return lines.joined(separator: "\n")
    }
}
