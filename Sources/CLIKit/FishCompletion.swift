/// A program's fish completions, made from its ``ProgramSpec``: one `complete` line per
/// subcommand and per option of each command, with known values, files where a file is
/// expected, and the lines of an ``ValueCompletion/argumentQuery(subcommand:)``.
///
///     print(FishCompletion(program: BooksCommand.program).text, terminator: "")
package struct FishCompletion: Sendable {
    /// The program completed.
    package let program: ProgramSpec

    /// The completions for `program`.
    package init(program: ProgramSpec) { self.program = program }

    var function: String { "__" + program.name.replacing("-", with: "_") + "_query" }

    /// The file installed as `PROGRAM.fish` in a `vendor_completions.d` folder.
    package var text: String {
        let name = program.name
        let words = program.visibleSubcommands.map(\.name)
        var lines = [
            "# fish completion for \(name); generated from its command specifications, do not edit.",
            "",
            "function \(function)",
            "    for word in (commandline -opc)[2..-1]",
            "        switch $word",
        ]
        if !program.argumentStandIns.isEmpty {
            // The first matching case runs: a stand-in's is empty, so it reaches the query below.
            lines.append("            case \(program.argumentStandIns.map(Self.quoted).joined(separator: " "))")
        }
        lines += [
            "            case '-*' \(words.map(Self.quoted).joined(separator: " "))",
            "                continue",
            "        end",
            "        \(name) $argv[1] $word 2>/dev/null",
            "        return",
            "    end",
            "end",
            "",
            "complete -c \(name) -f",
        ]
        let noSubcommand =
            words.isEmpty ? "" : "-n " + Self.quoted("not __fish_seen_subcommand_from \(words.joined(separator: " "))")
        for subcommand in program.visibleSubcommands {
            lines.append(
                "complete -c \(name) \(noSubcommand) -a \(Self.quoted(subcommand.name)) -d \(Self.quoted(subcommand.brief))"
            )
        }
        lines += completions(program.command, condition: noSubcommand)
        for subcommand in program.visibleSubcommands {
            let condition = "-n " + Self.quoted("__fish_seen_subcommand_from \(subcommand.name)")
            lines += completions(subcommand.spec, condition: condition)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines for one command's options and arguments under `condition`.
    func completions(_ spec: CommandSpec, condition: String) -> [String] {
        let prefix = "complete -c \(program.name) \(condition)"
        var lines = spec.allOptions.map { option in
            let long = "-l \(option.name.drop { $0 == "-" })"
            let value = option.isFlag ? "" : " " + arguments(option.completion)
            return "\(prefix) \(long)\(value) -d \(Self.quoted(option.help))"
        }
        if spec.maxPositionals != 0, spec.arguments != .none {
            lines.append("\(prefix) \(arguments(spec.arguments))")
        }
        return lines
    }

    /// `complete`'s flags for a value.
    func arguments(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return "-x"
        case .file: return "-r -F"
        case .directory: return "-x -a '(__fish_complete_directories)'"
        case .values(let words): return "-x -a " + Self.quoted(words.joined(separator: " "))
        case .argumentQuery(let subcommand): return "-x -a " + Self.quoted("(\(function) \(subcommand))")
        }
    }

    /// `text` in fish's single quotes.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
