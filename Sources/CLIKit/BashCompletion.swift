/// A program's bash completion script, made from its ``ProgramSpec``: subcommands, each
/// command's options, known option values, files where a file is expected, and the lines of
/// an ``ValueCompletion/argumentQuery(subcommand:)`` (the tables of the file typed).
///
///     print(BashCompletion(program: FetchedTableCommand.program).text, terminator: "")
package struct BashCompletion: Sendable {
    /// The program completed.
    package let program: ProgramSpec

    /// The script for `program`.
    package init(program: ProgramSpec) { self.program = program }

    /// The script: one function, `complete -F` for the program.
    package var text: String {
        let function = "_" + program.name.replacing("-", with: "_")
        var lines = [
            "# bash completion for \(program.name); generated from its command specifications, do not edit.",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local command='' first='' word skip=0 i",
            // bash splits `postgres://host/db` at each `:` (COMP_WORDBREAKS): the pieces are joined again.
            "    local -a typed=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        if ((${#typed[@]})) && [[ ${COMP_WORDS[i]} == : || ${COMP_WORDS[i-1]} == : ]]; then",
            "            typed[${#typed[@]}-1]+=${COMP_WORDS[i]}",
            "        else",
            "            typed+=(\"${COMP_WORDS[i]}\")",
            "        fi",
            "    done",
            "    for word in \"${typed[@]}\"; do",
            "        if ((skip)); then skip=0; continue; fi",
            "        case \"$command:$word\" in",
        ]
        let valueOptions = commands.flatMap { key, spec in
            spec.allOptions.filter { !$0.isFlag }.map { "\(key):\($0.name)" }
        }
        if !valueOptions.isEmpty {
            lines.append("        \(valueOptions.map(Self.quoted).joined(separator: " | "))) skip=1; continue ;;")
        }
        lines.append("        esac")
        if !program.argumentStandIns.isEmpty {
            let names = program.argumentStandIns.map(Self.quoted).joined(separator: " | ")
            lines.append("        case $word in \(names)) [[ -z $first ]] && first=$word; continue ;; esac")
        }
        lines += [
            "        [[ $word == -* ]] && continue",
            "        if [[ -z $command && -z $first ]]; then",
            "            case $word in",
        ]
        if !program.visibleSubcommands.isEmpty {
            lines.append(
                "            \(program.visibleSubcommands.map { Self.quoted($0.name) }.joined(separator: " | "))) command=$word; continue ;;"
            )
        }
        lines += [
            "            esac",
            "        fi",
            "        [[ -z $first ]] && first=$word",
            "    done",
            "    local IFS=$'\\n'",
            "    case \"$command:$prev\" in",
        ]
        for (key, spec) in commands {
            for option in spec.allOptions where !option.isFlag {
                lines.append("    \(Self.quoted("\(key):\(option.name)")))")
                lines.append("        \(reply(option.completion))")
                lines.append("        return ;;")
            }
        }
        lines += ["    esac", "    if [[ $cur == -* ]]; then", "        case $command in"]
        for (key, spec) in commands {
            let names = spec.allOptions.map(\.name).joined(separator: " ")
            lines.append(
                "        \(Self.quoted(key))) COMPREPLY=($(IFS=' ' compgen -W \(Self.quoted(names)) -- \"$cur\")) ;;"
            )
        }
        lines += ["        esac", "        return", "    fi", "    case $command in"]
        for (key, spec) in commands {
            var actions: [String] = []
            if key.isEmpty, !program.visibleSubcommands.isEmpty {
                let words = program.visibleSubcommands.map(\.name).joined(separator: " ")
                actions.append(
                    "[[ -z $first ]] && COMPREPLY+=($(IFS=' ' compgen -W \(Self.quoted(words)) -- \"$cur\"))"
                )
            }
            if spec.maxPositionals != 0 { actions.append(reply(spec.arguments, appending: true)) }
            lines.append("    \(Self.quoted(key))) COMPREPLY=(); \(actions.joined(separator: "; ")) ;;")
        }
        lines += ["    esac", "}", "complete -F \(function) \(program.name)", ""]
        return lines.joined(separator: "\n")
    }

    /// The program's own command under the key `""`, then each visible subcommand under its word.
    var commands: [(key: String, spec: CommandSpec)] {
        [("", program.command)] + program.visibleSubcommands.map { ($0.name, $0.spec) }
    }

    /// The line that fills `COMPREPLY` for one completion.
    func reply(_ completion: ValueCompletion, appending: Bool = false) -> String {
        let assign = appending ? "COMPREPLY+=" : "COMPREPLY="
        switch completion {
        case .none: return appending ? ":" : "COMPREPLY=()"
        case .file: return "compopt -o filenames 2>/dev/null; \(assign)($(compgen -f -- \"$cur\"))"
        case .directory: return "compopt -o filenames 2>/dev/null; \(assign)($(compgen -d -- \"$cur\"))"
        case .values(let words):
            return "\(assign)($(IFS=' ' compgen -W \(Self.quoted(words.joined(separator: " "))) -- \"$cur\"))"
        case .argumentQuery(let subcommand):
            return
                "[[ -n $first ]] && \(assign)($(compgen -W \"$(\(program.name) \(subcommand) \"${first/#\\~/$HOME}\" 2>/dev/null)\" -- \"$cur\"))"
        }
    }

    /// `text` in single quotes for bash.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
