import CLIKit
import Testing

@testable import FetchedTableKit

/// What each command's `--help` says matches what its parser accepts: the usage line names
/// every option of the command's table, and the list of options holds each of them.
@Suite struct TableUsageTests {
    /// The browser and every subcommand of `fetchedtable`, hidden ones too.
    static let specs = [FetchedTableCommand.program.command] + FetchedTableCommand.program.subcommands.map(\.spec)

    /// Whether `text` names `option` whole (`--type` is not in `--types`).
    static func names(_ text: String, _ option: String) -> Bool {
        text.split { !($0.isLetter || $0 == "-") }.contains { $0 == option }
    }

    @Test(arguments: specs.map(\.name))
    func theUsageLineOfHelpNamesEveryOptionTheCommandAccepts(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let lines = spec.helpText.components(separatedBy: "\n")
        let usage = try #require(lines.first)
        let listed = lines.drop { $0 != "options:" }.dropFirst().prefix { $0.hasPrefix("  ") }
        for option in spec.options {
            #expect(Self.names(usage, option.name), "\(command)'s usage line does not name \(option.name): \(usage)")
            #expect(
                listed.contains { $0.hasPrefix("  \(option.name) ") },
                "\(command) --help does not list \(option.name)"
            )
        }
    }

    @Test func aQuerysTimeoutIsInTheUsageOfEveryCommandThatTakesAQuery() {
        let withQuery = Self.specs.filter { spec in spec.options.contains { $0.name == "--query" } }
        #expect(withQuery.map(\.name) == ["fetchedtable", "fetchedtable list", "fetchedtable watch"])
        for spec in withQuery {
            #expect(spec.usage.contains("[--statement-timeout SECONDS]"), "\(spec.name): \(spec.usage)")
        }
    }
}
