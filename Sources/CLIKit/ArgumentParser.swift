/// Why a command line was not accepted.
///
/// `helpRequested` carries the help text and `versionRequested` the version line (print
/// either to stdout, exit 0); `usage` carries a sentence for stderr (exit 64, `ExitStatus.usage`).
package enum CommandLineError: Error, Equatable, CustomStringConvertible {
    case helpRequested(String)
    case versionRequested(String)
    case usage(String)

    package var description: String {
        switch self {
        case .helpRequested(let text): return text
        case .versionRequested(let line): return line
        case .usage(let message): return message
        }
    }
}

/// Parses `arguments` (without the program and subcommand names) by `spec`.
///
/// Accepts `--name value`, `--name=value`, flags, `--` to end options, and
/// positionals anywhere. `--help`/`-h` throws `.helpRequested`, `--version` `.versionRequested`
/// (``BuildInfo/versionLine(program:)`` of the spec's first word).
///
///     do {
///         let args = try parseArguments(CommandLine.arguments.dropFirst(2).map { $0 }, spec: spec)
///     } catch CommandLineError.helpRequested(let text) {
///         print(text)
///     }
package func parseArguments(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
    var result = ParsedArguments()
    var index = 0
    var optionsEnded = false
    func option(named name: String) throws -> OptionSpec {
        if let found = spec.options.first(where: { $0.name == name }) { return found }
        throw CommandLineError.usage("\(spec.name): unknown option '\(name)' (try '\(spec.name) --help')")
    }
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
            result.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        if argument == "--help" || argument == "-h" { throw CommandLineError.helpRequested(spec.helpText) }
        if argument == "--version" {
            let program = spec.name.split(separator: " ").first.map(String.init) ?? spec.name
            throw CommandLineError.versionRequested(BuildInfo.versionLine(program: program))
        }
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        let spec0 = try option(named: name)
        if spec0.isFlag {
            if inlineValue != nil {
                throw CommandLineError.usage("\(spec.name): option '\(name)' takes no value")
            }
            result.flags.insert(name)
            continue
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard index < arguments.count else {
                throw CommandLineError.usage(
                    "\(spec.name): option '\(name)' needs a value (\(spec0.valueName ?? "VALUE"))"
                )
            }
            value = arguments[index]
            index += 1
        }
        if !spec0.isRepeatable, result.optionValues[name] != nil {
            throw CommandLineError.usage("\(spec.name): option '\(name)' given more than once")
        }
        result.optionValues[name, default: []].append(value)
    }
    if result.positionals.count < spec.minPositionals {
        throw CommandLineError.usage("\(spec.name): missing argument (usage: \(spec.name) \(spec.usage))")
    }
    if let maximum = spec.maxPositionals, result.positionals.count > maximum {
        let extra = result.positionals[maximum]
        throw CommandLineError.usage("\(spec.name): unexpected argument '\(extra)' (usage: \(spec.name) \(spec.usage))")
    }
    return result
}
