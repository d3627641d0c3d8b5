import CLIKit

/// The `mystash` command: dispatches to a subcommand, or opens the app.
///
/// The executable is a one-liner around this type, so every path of the
/// command line is testable in-process:
///
///     ProgramName.current = "mystash"
///     exit(MyStashCommand.main(Array(CommandLine.arguments.dropFirst())))
///
/// `mystash [--db PATH]` opens the full-screen app (after asking for the
/// master passphrase); `mystash init` makes a new stash without it;
/// `mystash list notes|passwords` prints titles or names
/// for scripts (never secrets, no passphrase needed); `mystash passwd`
/// changes the master passphrase.
public enum MyStashCommand {
    /// The version printed by `--version`.
    package static let version = "1.0.0"

    /// Runs the command line `arguments` (without the program name) and
    /// returns the exit status (`sysexits.h`).
    ///
    ///     MyStashCommand.main(["--version"])               // prints "mystash 1.0.0"
    ///     MyStashCommand.main(["list", "notes", "--db", path])
    public static func main(_ arguments: [String]) -> Int32 {
        program.main(arguments)
    }

    /// The subcommands, in the order `--help` lists them; the app's usage line names each (``synopsis``).
    static let subcommands: [Subcommand] = [
        Subcommand(
            InitCommand.spec,
            brief: "create a new stash and set its master passphrase",
            run: InitCommand.run
        ),
        Subcommand(
            ListCommand.spec,
            brief: "print titles or names, one per line (never secrets; no passphrase)",
            run: ListCommand.run
        ),
        Subcommand(ShowCommand.spec, brief: "print one field of an entry", run: ShowCommand.run),
        Subcommand(
            CopyCommand.spec,
            brief: "copy one field to the clipboard, cleared after --clip-seconds",
            run: CopyCommand.run
        ),
        Subcommand(
            AddCommand.spec,
            brief: "add a password entry (password from stdin, the terminal or --generate)",
            run: AddCommand.run
        ),
        Subcommand(
            ImportCommand.spec,
            brief: "import a Bitwarden, KeePassXC, Chrome or Firefox CSV export",
            run: ImportCommand.run
        ),
        Subcommand(
            ExportCommand.spec,
            brief: "write everything in plaintext to a new CSV file (--format csv)",
            run: ExportCommand.run
        ),
        Subcommand(
            BackupCommand.spec,
            brief: "write an encrypted copy of the stash to a new file",
            run: BackupCommand.run
        ),
        Subcommand(PasswdCommand.spec, brief: "change the master passphrase", run: PasswdCommand.run),
        Subcommand(
            ClearClipboardCommand.spec,
            brief: "clear the clipboard later (for copy)",
            hidden: true,
            run: ClearClipboardCommand.run
        ),
    ]

    /// `init | list notes|passwords | show NAME | …`: every command that `--help` lists, from the table.
    static var synopsis: String {
        subcommands.filter { !$0.isHidden }.map(\.synopsis).joined(separator: " | ")
    }

    /// The program: its subcommands (in the order `--help` lists them), and what its man page says.
    /// Completion never offers an entry's name: they are readable without the passphrase,
    /// but Tab should not list them on a shared screen.
    package static let program = ProgramSpec(
        command: AppCommand.spec,
        run: AppCommand.run,
        subcommands: subcommands,
        environment: [
            ManualEntry("MYSTASH_DB", "The store when --db is not given."),
            ManualEntry(
                "XDG_DATA_HOME",
                "The folder of the default store, $XDG_DATA_HOME/mystash/mystash.sqlite (~/.local/share when unset)."
            ),
            ManualEntry("WAYLAND_DISPLAY, DISPLAY", "copy uses wl-copy or xclip/xsel when set and installed."),
            ManualEntry("NO_COLOR", "No colours."),
        ],
        files: [
            ManualEntry(
                "~/.local/share/mystash/mystash.sqlite",
                "The default store (SQLite, mode 0600); everything but note titles and entry names is encrypted."
            )
        ],
        examples: [
            ManualEntry("mystash", "Open the app (the first run chooses the master passphrase)."),
            ManualEntry("mystash list passwords", "The names of the password entries, one per line; no passphrase."),
            ManualEntry("mystash show Bank --field user", "The user ID of the entry Bank (asks for the passphrase)."),
            ManualEntry("mystash add Mail --generate 24", "A new entry with a generated 24-character password."),
            ManualEntry("mystash backup ~/stash-backup.sqlite", "An encrypted copy of the stash."),
        ],
        seeAlso: ["failedbanks", "fetchedtable"]
    )

    /// The text shared by every `--help` about where the store is.
    static let storeHelp = """
        The store is --db PATH, else $MYSTASH_DB, else $XDG_DATA_HOME/mystash/mystash.sqlite
        (~/.local/share/mystash/mystash.sqlite when XDG_DATA_HOME is unset); it is created
        with mode 0600. Everything but note titles and entry names is encrypted (Argon2id +
        XChaCha20-Poly1305) under the master passphrase, which is never stored.
        """
}
