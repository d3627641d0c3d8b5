/// A program's zsh completion function (`#compdef`), made from its ``ProgramSpec`` with
/// `_arguments`: subcommands with their briefs, each command's options with their help, known
/// values, files, and the lines of an ``ValueCompletion/argumentQuery(subcommand:)``.
///
///     print(ZshCompletion(program: MyStashCommand.program).text, terminator: "")
package struct ZshCompletion: Sendable {
    /// The program completed.
    package let program: ProgramSpec

    /// The function for `program`.
    package init(program: ProgramSpec) { self.program = program }

    var function: String { "_" + program.name.replacing("-", with: "_") }

    /// The file installed as `_PROGRAM` in a folder of `$fpath`.
    package var text: String {
        var lines = [
            "#compdef \(program.name)",
            "# zsh completion for \(program.name); generated from its command specifications, do not edit.",
            "",
            "\(function)_query() {",
            "    local word i",
            "    for ((i = 1; i < CURRENT; i++)); do",
            "        word=${words[i]}",
            "        [[ $word == -*\(program.argumentStandIns.map { " && $word != \($0)" }.joined()) ]] && continue",
            "        case $word in",
            "        \(([program.name] + program.visibleSubcommands.map(\.name)).map(BashCompletion.quoted).joined(separator: " | "))) continue ;;",
            "        esac",
            "        local -a items",
            "        items=(${(f)\"$(\(program.name) $1 ${~word} 2>/dev/null)\"})",
            "        compadd -a items",
            "        return",
            "    done",
            "    return 1",
            "}",
            "",
            "\(function)() {",
            "    local curcontext=$curcontext state state_descr line ret=1",
            "    typeset -A opt_args",
            "    local -a commands",
            "    commands=(",
        ]
        for subcommand in program.visibleSubcommands {
            lines.append("        \(BashCompletion.quoted("\(subcommand.name):\(subcommand.brief)"))")
        }
        lines += ["    )"]
        let root = program.command
        var rootSpecs = optionSpecs(root)
        if program.visibleSubcommands.isEmpty {
            rootSpecs += argumentSpecs(root)
        } else {
            rootSpecs += ["'1: :->first'", "'*:: :->rest'"]
        }
        lines.append("    _arguments -C -s \\")
        lines += rootSpecs.map { "        \($0) \\" }
        lines += ["        && ret=0", "    case $state in", "    first)"]
        lines.append("        _describe -t commands command commands && ret=0")
        if root.maxPositionals != 0, let command = command(root.arguments) {
            lines.append("        \(command) && ret=0")
        }
        lines += ["        ;;", "    rest)", "        case ${words[1]} in"]
        for subcommand in program.visibleSubcommands {
            let specs = optionSpecs(subcommand.spec) + argumentSpecs(subcommand.spec)
            lines.append("        \(BashCompletion.quoted(subcommand.name)))")
            lines.append("            _arguments -s \\")
            lines += specs.map { "                \($0) \\" }
            lines += ["                && ret=0", "            ;;"]
        }
        lines += ["        *)"]
        lines.append("            _arguments -s \\")
        lines += (optionSpecs(root) + argumentSpecs(root, from: 1)).map { "                \($0) \\" }
        lines += [
            "                && ret=0", "            ;;", "        esac", "        ;;", "    esac", "    return ret",
            "}", "",
        ]
        lines += ["\(function) \"$@\"", ""]
        return lines.joined(separator: "\n")
    }

    /// `_arguments` specs of a command's options: `--db=[the store]:PATH:_files`.
    func optionSpecs(_ spec: CommandSpec) -> [String] {
        spec.allOptions.map { option in
            let help = "[\(Self.escaped(option.help))]"
            guard let valueName = option.valueName else { return BashCompletion.quoted(option.name + help) }
            let message = valueName.filter { $0.isLetter || $0.isNumber }.lowercased()
            return BashCompletion.quoted(
                "\(option.name)=\(help):\(message.isEmpty ? "value" : message):\(action(option.completion))"
            )
        }
    }

    /// `_arguments` specs of a command's positionals (after `skipping` words already taken).
    func argumentSpecs(_ spec: CommandSpec, from skipping: Int = 0) -> [String] {
        guard spec.maxPositionals != 0 else { return [] }
        let action = action(spec.arguments)
        return skipping > 0 || spec.maxPositionals != 1
            ? [BashCompletion.quoted("*:argument:\(action)")] : [BashCompletion.quoted("1:argument:\(action)")]
    }

    /// The action that completes one value.
    func action(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return " "
        case .file: return "_files"
        case .directory: return "_files -/"
        case .values(let words): return "(\(words.joined(separator: " ")))"
        case .argumentQuery(let subcommand): return "{\(function)_query \(subcommand)}"
        }
    }

    /// A command line that completes one value, or nil for nothing.
    func command(_ completion: ValueCompletion) -> String? {
        switch completion {
        case .none: return nil
        case .file: return "_files"
        case .directory: return "_files -/"
        case .values(let words): return "compadd -- \(words.map(BashCompletion.quoted).joined(separator: " "))"
        case .argumentQuery(let subcommand): return "\(function)_query \(subcommand)"
        }
    }

    /// Help text safe inside `[…]` of an `_arguments` spec.
    static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
            .replacing(":", with: "\\:")
    }
}
