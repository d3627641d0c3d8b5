/// A program's man page (section 1, roff), made from its ``ProgramSpec``: the same options,
/// subcommands and texts as `--help`, so the two cannot disagree.
///
/// NAME, SYNOPSIS (a line per command), DESCRIPTION, OPTIONS, COMMANDS (a subsection per
/// visible subcommand: usage, summary, options, notes), EXIT STATUS, ENVIRONMENT, FILES,
/// EXAMPLES, SEE ALSO.
///
///     print(ManPage(program: BooksCommand.program).text, terminator: "")   // what man books shows
package struct ManPage: Sendable {
    /// The program described.
    package let program: ProgramSpec
    /// A man page for `program`.
    package init(program: ProgramSpec) { self.program = program }

    /// The page, roff source.
    package var text: String {
        var lines = header() + synopsis() + description() + commands()
        lines += section("EXIT STATUS", program.exitStatuses)
        lines += section("ENVIRONMENT", program.environment)
        lines += section("FILES", program.files)
        lines += section("EXAMPLES", program.examples, termsAreCode: true)
        lines += seeAlso()
        return lines.joined(separator: "\n") + "\n"
    }

    func header() -> [String] {
        let summary =
            program.command.summary.hasSuffix(".")
            ? String(program.command.summary.dropLast()) : program.command.summary
        return [
            ".\\\" Generated from the program's command specifications (CLIKit); do not edit.",
            ".TH \(program.name.uppercased()) 1 \"\" \"fetchedtable-tools \(BuildInfo.version)\" \"User Commands\"",
            ".SH NAME",
            "\(program.name) \\- \(Self.escaped(Self.lowercasingFirst(summary)))",
        ]
    }

    func synopsis() -> [String] {
        var lines = [".SH SYNOPSIS"]
        for spec in [program.command] + program.visibleSubcommands.map(\.spec) {
            lines += [".B \(Self.escaped(spec.name))", Self.escaped(spec.usage), ".br"]
        }
        lines.removeLast()
        return lines
    }

    func description() -> [String] {
        var lines = [".SH DESCRIPTION", Self.escaped(program.command.summary)]
        lines += paragraphs(program.command.epilogue)
        lines += [".SH OPTIONS"] + options(program.command.allOptions)
        return lines
    }

    func commands() -> [String] {
        guard !program.visibleSubcommands.isEmpty else { return [] }
        var lines = [".SH COMMANDS"]
        for subcommand in program.visibleSubcommands {
            let spec = subcommand.spec
            lines += [".SS \"\(Self.escaped(spec.name))\"", ".B \(Self.escaped(spec.name))", Self.escaped(spec.usage)]
            lines += [".PP", Self.escaped(spec.summary)]
            lines += options(spec.allOptions)
            lines += paragraphs(spec.epilogue)
        }
        return lines
    }

    func options(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option in
            let label =
                option.valueName.map { "\\fB\(Self.escaped(option.name))\\fR \\fI\(Self.escaped($0))\\fR" }
                ?? "\\fB\(Self.escaped(option.name))\\fR"
            return [".TP", label, Self.escaped(option.help)]
        }
    }

    /// Text laid out for a terminal, kept as it is (`.nf`): its lists and columns survive.
    func paragraphs(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return [".PP", ".nf"]
            + text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : Self.escaped(String($0))
            } + [".fi"]
    }

    func section(_ title: String, _ entries: [ManualEntry], termsAreCode: Bool = false) -> [String] {
        guard !entries.isEmpty else { return [] }
        return [".SH \(title)"]
            + entries.flatMap { entry in
                [
                    ".TP", termsAreCode ? "\\fB\(Self.escaped(entry.term))\\fR" : Self.escaped(entry.term),
                    Self.escaped(entry.text),
                ]
            }
    }

    func seeAlso() -> [String] {
        guard !program.seeAlso.isEmpty else { return [] }
        let others = program.seeAlso.map { "\\fB\($0)\\fR(1)" }
        return [".SH SEE ALSO", others.joined(separator: ", ")]
    }

    /// `text` safe as roff input: backslashes and minus signs escaped, no line starting a request.
    static func escaped(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
