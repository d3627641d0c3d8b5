import Foundation
import TestSupport
import Testing

/// `--help` and the man page of each built program name the same options and subcommands:
/// both are printed by the program from its one command table.
@Suite(.enabled(if: Artifacts.debugBinDirectory != nil, "needs the debug programs ('swift build' first)"))
struct HelpAndManPageTests {
    /// The options a `--help` text lists under `options:`.
    static func helpOptions(_ help: String) -> Set<String> {
        var names = Set<String>()
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "options:" {
                inOptions = true
                continue
            }
            guard inOptions else { continue }
            guard line.hasPrefix("  --") else { break }
            names.insert(String(line.dropFirst(2).prefix { $0 != " " }))
        }
        return names
    }

    /// The subcommands a program's `--help` lists under `commands:`.
    static func helpCommands(_ help: String) -> [String] {
        var names: [String] = []
        var inCommands = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "commands:" {
                inCommands = true
                continue
            }
            guard inCommands else { continue }
            guard line.hasPrefix("  ") else { break }
            names.append(String(line.dropFirst(2).prefix { $0 != " " }))
        }
        return names
    }

    /// The man page cut into its program part (before COMMANDS) and one part per `.SS` subsection.
    static func manSections(_ page: String) -> (program: String, commands: [(name: String, text: String)]) {
        let parts = page.components(separatedBy: "\n.SS \"")
        let programPart = parts[0].components(separatedBy: "\n.SH COMMANDS")[0]
        let commands = parts.dropFirst().map { part -> (String, String) in
            let title = part.prefix { $0 != "\"" }.replacingOccurrences(of: "\\-", with: "-")
            let body = part.components(separatedBy: "\n.SH ")[0]
            return (String(title), body)
        }
        return (programPart, commands)
    }

    /// The options a part of a man page lists as `.TP` items (`\fB--db\fR \fIPATH\fR`).
    static func manOptions(_ text: String) -> Set<String> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var names = Set<String>()
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            let label = lines[index + 1].replacingOccurrences(of: "\\-", with: "-")
            guard label.hasPrefix("\\fB--") else { continue }
            names.insert(String(label.dropFirst(3).prefix { $0 != "\\" && $0 != " " }))
        }
        return names
    }

    /// The standard output of a debug program run with `arguments` (which must succeed).
    func output(_ program: String, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run("\(Artifacts.debugBinDirectory!)/\(program)", arguments)
        #expect(result.status == 0, "\(program) \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    @Test(arguments: Artifacts.programs)
    func everyOptionAndSubcommandOfHelpIsInTheManPageAndBack(program: String) throws {
        let page = try output(program, ["--generate", "man"])
        let (programPart, manCommands) = Self.manSections(page)
        let rootHelp = try output(program, ["--help"])

        #expect(!Self.helpOptions(rootHelp).isEmpty)
        #expect(Self.helpOptions(rootHelp) == Self.manOptions(programPart), "\(program): options of --help and man")
        let subcommands = Self.helpCommands(rootHelp)
        #expect(!subcommands.isEmpty)
        #expect(subcommands.map { "\(program) \($0)" } == manCommands.map(\.name), "\(program): subcommands")

        for subcommand in subcommands {
            let help = try output(program, [subcommand, "--help"])
            let text = manCommands.first { $0.name == "\(program) \(subcommand)" }?.text ?? ""
            #expect(
                Self.helpOptions(help) == Self.manOptions(text),
                "\(program) \(subcommand): options of --help and man"
            )
            #expect(Self.helpOptions(help).contains("--version"))
        }
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES",
        ] {
            #expect(page.contains("\n.SH \(section)\n"), "\(program): man page without \(section)")
        }
    }

    @Test(arguments: Artifacts.programs)
    func versionIsPrintedByTheProgramAndEverySubcommand(program: String) throws {
        let line = try output(program, ["--version"])
        #expect(line.hasPrefix("\(program) "))
        #expect(line.contains("(commit "))
        for subcommand in Self.helpCommands(try output(program, ["--help"])) {
            #expect(try output(program, [subcommand, "--version"]) == line, "\(program) \(subcommand) --version")
        }
    }
}
