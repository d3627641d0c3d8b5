import Testing

@testable import CLIKit

private let listSpec = CommandSpec(
    name: "demo list",
    summary: "List things.",
    usage: "notes|passwords [--db PATH] [--sort ORDER]",
    options: [
        OptionSpec("--db", value: "PATH", help: "the store"),
        OptionSpec("--sort", value: "ORDER", help: "a-z or z-a", completion: .values(["a-z", "z-a"])),
    ],
    minPositionals: 1,
    maxPositionals: 1
)

private let demo = ProgramSpec(
    command: CommandSpec(
        name: "demo",
        summary: "Show a demo.",
        usage: "[--fast]",
        options: [
            OptionSpec("--fast", value: nil, help: "go fast")
        ]
    ),
    run: { _ in 0 },
    subcommands: [
        Subcommand(listSpec, brief: "list things", run: { _ in 0 }),
        Subcommand(CommandSpec(name: "demo _helper", summary: "", usage: "", options: []), brief: "", hidden: true) {
            _ in 0
        },
    ],
    environment: [ManualEntry("DEMO_DB", "the store")],
    examples: [ManualEntry("demo list notes", "the notes")]
)

@Test func versionIsAcceptedByEveryCommandAndNamesTheProgramAndCommit() {
    #expect(throws: CommandLineError.versionRequested("demo \(BuildInfo.version) (commit \(BuildInfo.commit))")) {
        try parseArguments(["notes", "--version"], spec: listSpec)
    }
    #expect(listSpec.helpText.contains("  --version"))
}

@Test func programHelpListsTheVisibleSubcommandsOnly() {
    #expect(demo.command.helpText.contains("commands:\n  list  list things\n"))
    #expect(!demo.command.helpText.contains("_helper"))
}

@Test func aSubcommandsSynopsisIsItsWordAndLeadingPositionals() {
    #expect(demo.subcommands[0].synopsis == "list notes|passwords")
    let bare = Subcommand(CommandSpec(name: "demo passwd", summary: "", usage: "[--db PATH]", options: []), brief: "") {
        _ in 0
    }
    #expect(bare.synopsis == "passwd")
}

@Test func placeholdersImplyFilesAndWordSets() {
    #expect(OptionSpec("--db", value: "PATH", help: "").completion == .file)
    #expect(OptionSpec("--url", value: "URL", help: "").completion == ValueCompletion.none)
    #expect(listSpec.arguments == .values(["notes", "passwords"]))
    #expect(
        CommandSpec(name: "x", summary: "", usage: "FILE... [--db PATH]", options: [], maxPositionals: nil).arguments
            == .file
    )
    #expect(
        CommandSpec(name: "x", summary: "", usage: "NAME [--db PATH]", options: [], maxPositionals: 1).arguments
            == .none
    )
}

@Test func manPageHasASectionPerSubcommandAndEscapesRoff() {
    let page = ManPage(program: demo).text
    #expect(page.contains(".TH DEMO 1"))
    #expect(page.contains(".SH NAME\ndemo \\- show a demo\n"))
    #expect(page.contains(".SS \"demo list\""))
    #expect(page.contains("\\fB\\-\\-sort\\fR \\fIORDER\\fR\na\\-z or z\\-a"))
    #expect(page.contains(".SH ENVIRONMENT\n.TP\nDEMO_DB\nthe store"))
    #expect(page.contains(".SH EXAMPLES\n.TP\n\\fBdemo list notes\\fR"))
    #expect(!page.contains("_helper"))
    #expect(ManPage.escaped(".hidden \\ text") == "\\&.hidden \\e text")
}

@Test func manPageSeeAlsoNamesTheProgramsTheAppGivesAndNoneWhenItGivesNone() {
    #expect(!ManPage(program: demo).text.contains("SEE ALSO"))
    let related = ProgramSpec(command: demo.command, run: demo.run, subcommands: demo.subcommands, seeAlso: ["books"])
    #expect(ManPage(program: related).text.contains(".SH SEE ALSO\n\\fBbooks\\fR(1)"))
}

@Test func completionsOfferKnownValuesAndNothingForAHiddenSubcommand() {
    let bash = BashCompletion(program: demo).text
    #expect(bash.contains("compgen -W 'a-z z-a'"))
    #expect(bash.contains("complete -F _demo demo"))
    #expect(!bash.contains("_helper"))
    let fish = FishCompletion(program: demo).text
    #expect(fish.contains("-l sort -x -a 'a-z z-a'"))
    let zsh = ZshCompletion(program: demo).text
    #expect(zsh.hasPrefix("#compdef demo\n"))
    #expect(zsh.contains("'--sort=[a-z or z-a]:order:(a-z z-a)'"))
}

@Test func aFlagThatStandsForTheFirstArgumentIsPassedToTheArgumentQueryByEveryShell() {
    let program = ProgramSpec(
        command: CommandSpec(
            name: "browse",
            summary: "Browse.",
            usage: "FILE|--server [--table NAME]",
            options: [
                OptionSpec("--server", value: nil, help: "the server", standsForArgument: true),
                OptionSpec("--table", value: "NAME", help: "a table", completion: .argumentQuery(subcommand: "tables")),
            ],
            maxPositionals: 1
        ),
        run: { _ in 0 },
        subcommands: []
    )
    #expect(program.argumentStandIns == ["--server"])
    #expect(BashCompletion(program: program).text.contains("case $word in '--server') [[ -z $first ]] && first=$word"))
    #expect(ZshCompletion(program: program).text.contains("[[ $word == -* && $word != --server ]] && continue"))
    #expect(FishCompletion(program: program).text.contains("            case '--server'\n            case '-*'"))
    // Without one, the scripts are as they were.
    #expect(!BashCompletion(program: demo).text.contains("first=$word; continue"))
    #expect(ZshCompletion(program: demo).text.contains("[[ $word == -* ]] && continue"))
}
