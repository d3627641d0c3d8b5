import Testing

@testable import CLIKit

private let importSpec = CommandSpec(
    name: "failedbanks import",
    summary: "Import CSV files.",
    usage: "FILE... [--db PATH]",
    options: [
        OptionSpec("--db", value: "PATH", help: "the store"),
        OptionSpec("--skip-bad-rows", value: nil, help: "import the good rows"),
        OptionSpec("--where", value: "PREDICATE", help: "filter", repeatable: true),
    ],
    minPositionals: 1,
    maxPositionals: nil
)

@Test func optionsFlagsAndPositionalsMayComeInAnyOrder() throws {
    let args = try parseArguments(["a.csv", "--db", "x.sqlite", "b.csv", "--skip-bad-rows"], spec: importSpec)
    #expect(args.positionals == ["a.csv", "b.csv"])
    #expect(args.value("--db") == "x.sqlite")
    #expect(args.flag("--skip-bad-rows"))
}

@Test func equalsFormGivesTheValueInline() throws {
    let args = try parseArguments(["--db=/tmp/s.sqlite", "a.csv"], spec: importSpec)
    #expect(args.value("--db") == "/tmp/s.sqlite")
}

@Test func doubleDashEndsOptions() throws {
    let args = try parseArguments(["--", "--db"], spec: importSpec)
    #expect(args.positionals == ["--db"])
}

@Test func repeatableOptionsAccumulate() throws {
    let args = try parseArguments(["a", "--where", "x", "--where", "y"], spec: importSpec)
    #expect(args.values("--where") == ["x", "y"])
}

@Test func unknownOptionIsAUsageErrorNamingIt() {
    #expect(
        throws: CommandLineError.usage("failedbanks import: unknown option '--nope' (try 'failedbanks import --help')")
    ) {
        try parseArguments(["a.csv", "--nope"], spec: importSpec)
    }
}

@Test func missingValueAndMissingPositionalAreUsageErrors() {
    #expect(throws: CommandLineError.self) { try parseArguments(["a.csv", "--db"], spec: importSpec) }
    #expect(throws: CommandLineError.self) { try parseArguments([], spec: importSpec) }
    #expect(throws: CommandLineError.self) { try parseArguments(["a", "--db", "1", "--db", "2"], spec: importSpec) }
}

@Test func helpIsMadeFromTheSameTable() throws {
    do {
        _ = try parseArguments(["--help"], spec: importSpec)
        Issue.record("--help should throw helpRequested")
    } catch CommandLineError.helpRequested(let text) {
        #expect(text.hasPrefix("usage: failedbanks import FILE... [--db PATH]"))
        for option in importSpec.options { #expect(text.contains(option.name)) }
        #expect(text.contains("--help"))
    }
}

@Test func runCommandMapsUsageErrorsTo64AndHelpTo0() {
    #expect(runCommand(spec: importSpec, arguments: ["--bogus"]) { _ in 0 } == ExitStatus.usage)
    #expect(runCommand(spec: importSpec, arguments: ["--help"]) { _ in 99 } == ExitStatus.ok)
    #expect(runCommand(spec: importSpec, arguments: ["f"]) { _ in 7 } == 7)
}
