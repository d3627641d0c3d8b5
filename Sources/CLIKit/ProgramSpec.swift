import Glibc

/// A whole program: its own command line, its subcommands, and what its man page says besides
/// (environment, files, examples, exit statuses).
///
/// One table drives dispatch, `--help`, `--version`, the man page (``ManPage``) and the shell
/// completions (``BashCompletion``, ``ZshCompletion``, ``FishCompletion``): a subcommand that is
/// not in ``subcommands`` cannot be run, so it cannot be missing from any of them.
///
///     static let program = ProgramSpec(
///         command: BrowserCommand.spec, run: BrowserCommand.run,
///         subcommands: [Subcommand(ListCommand.spec, brief: "print the books", run: ListCommand.run)],
///         environment: [ManualEntry("BOOKS_DB", "the store when --db is not given")])
///     exit(program.main(Array(CommandLine.arguments.dropFirst())))
package struct ProgramSpec: Sendable {
    /// The program's own command line (no subcommand), with the visible subcommands in its help.
    package let command: CommandSpec
    /// Runs ``command`` with the arguments.
    package let run: @Sendable ([String]) -> Int32
    /// The subcommands, in the order help and the man page list them (hidden ones last or anywhere).
    package let subcommands: [Subcommand]
    /// Environment variables the program reads.
    package let environment: [ManualEntry]
    /// Files the program reads or writes.
    package let files: [ManualEntry]
    /// Command lines (``ManualEntry/term``) and what they do.
    package let examples: [ManualEntry]
    /// The exit statuses and their meaning, for the man page's EXIT STATUS.
    package let exitStatuses: [ManualEntry]
    /// Related programs, for the man page's SEE ALSO (none: no such section).
    package let seeAlso: [String]

    /// A program; ``command`` is `command` with the visible subcommands added to its help.
    package init(
        command: CommandSpec,
        run: @escaping @Sendable ([String]) -> Int32,
        subcommands: [Subcommand],
        environment: [ManualEntry] = [],
        files: [ManualEntry] = [],
        examples: [ManualEntry] = [],
        exitStatuses: [ManualEntry] = ManualEntry.standardExitStatuses,
        seeAlso: [String] = []
    ) {
        var command = command
        command.commands = subcommands.filter { !$0.isHidden }.map { CommandSummary(name: $0.name, brief: $0.brief) }
        self.command = command
        self.run = run
        self.subcommands = subcommands
        self.environment = environment
        self.files = files
        self.examples = examples
        self.exitStatuses = exitStatuses
        self.seeAlso = seeAlso
    }

    /// The program's name (`books`).
    package var name: String { command.name }

    /// The subcommands help, the man page and the completions show.
    package var visibleSubcommands: [Subcommand] { subcommands.filter { !$0.isHidden } }

    /// The flags given in place of a first argument (``OptionSpec/standsForArgument``), each once.
    var argumentStandIns: [String] {
        var names: [String] = []
        for spec in [command] + visibleSubcommands.map(\.spec) {
            for option in spec.allOptions where option.standsForArgument && !names.contains(option.name) {
                names.append(option.name)
            }
        }
        return names
    }

    /// Runs a command line (without the program name) and returns the exit status.
    ///
    /// `SUBCOMMAND args…` runs it; `help [SUBCOMMAND]` its help; `--version`/`-V` the version;
    /// `--generate man|bash|zsh|fish` prints the man page or a completion script; a word that
    /// is no subcommand is a usage error unless the program itself takes arguments; anything
    /// else (options, no arguments) goes to ``run``.
    package func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else { return run([]) }
        let rest = Array(arguments.dropFirst())
        if let subcommand = subcommands.first(where: { $0.name == first }) { return subcommand.run(rest) }
        switch first {
        case "--version", "-V":
            print(BuildInfo.versionLine(program: name))
            return ExitStatus.ok
        case "--generate":
            return generate(rest)
        case "help":
            if let topic = rest.first, let subcommand = visibleSubcommands.first(where: { $0.name == topic }) {
                return subcommand.run(["--help"])
            }
            return run(["--help"])
        default:
            if !first.hasPrefix("-"), command.maxPositionals == 0 {
                writeStandardError("\(name): unknown command '\(first)' (try '\(name) --help')\n")
                return ExitStatus.usage
            }
            return run(arguments)
        }
    }

    /// `--generate KIND`: the man page or a completion script on stdout.
    func generate(_ arguments: [String]) -> Int32 {
        let text: String
        switch arguments.first {
        case "man": text = ManPage(program: self).text
        case "bash": text = BashCompletion(program: self).text
        case "zsh": text = ZshCompletion(program: self).text
        case "fish": text = FishCompletion(program: self).text
        default:
            writeStandardError("\(name): --generate takes man, bash, zsh or fish\n")
            return ExitStatus.usage
        }
        print(text, terminator: "")
        return ExitStatus.ok
    }
}

/// One subcommand of a ``ProgramSpec``: its spec, a line for the program's help, how to run it.
///
///     Subcommand(ListCommand.spec, brief: "print the books by section", run: ListCommand.run)
package struct Subcommand: Sendable {
    /// What it accepts (its `name` is `program word`).
    package let spec: CommandSpec
    /// A few words for the program's `--help`.
    package let brief: String
    /// Not in help, the man page or completions (a helper the program runs itself).
    package let isHidden: Bool
    /// Runs it with the arguments after its word.
    package let run: @Sendable ([String]) -> Int32

    /// A subcommand: `spec` parses it, `brief` lists it in the help (unless `hidden`), `run` does it.
    package init(
        _ spec: CommandSpec,
        brief: String,
        hidden: Bool = false,
        run: @escaping @Sendable ([String]) -> Int32
    ) {
        self.spec = spec
        self.brief = brief
        self.isHidden = hidden
        self.run = run
    }

    /// The word after the program's name (`list` in `books list`).
    package var name: String { spec.name.split(separator: " ").last.map(String.init) ?? spec.name }

    /// Its word and the positionals its usage starts with, options left out (`list notes|passwords`,
    /// `show NAME`), for a program's one-line usage of every command.
    ///
    ///     program.subcommands.filter { !$0.isHidden }.map(\.synopsis).joined(separator: " | ")
    package var synopsis: String {
        let positionals = spec.usage.split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("-") }
        return ([name] + positionals.map(String.init)).joined(separator: " ")
    }
}

/// A term and its description: an environment variable, a file, an example, an exit status.
///
///     ManualEntry("BOOKS_DB", "the store when --db is not given")
///     ManualEntry("books list --sort author --format csv", "every book as CSV, by author")
package struct ManualEntry: Sendable, Equatable {
    /// The variable, path, command line or status.
    package let term: String
    /// What it is or does, one or more sentences.
    package let text: String

    /// An entry defining `term` as `text`.
    package init(_ term: String, _ text: String) {
        self.term = term
        self.text = text
    }

    /// The statuses every program here uses (`sysexits.h`).
    package static let standardExitStatuses = [
        ManualEntry("0", "success"),
        ManualEntry("64", "usage error: an unknown option or command, a missing or bad argument"),
        ManualEntry("65", "bad data: a file that is not what it should be, or is damaged"),
        ManualEntry("66", "missing input: no such file or store"),
        ManualEntry("74", "input/output error: a file that cannot be read or written"),
    ]
}
