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
    public static let version = "1.0.0"

    /// Runs the command line `arguments` (without the program name) and
    /// returns the exit status (`sysexits.h`).
    ///
    ///     MyStashCommand.main(["--version"])               // prints "mystash 1.0.0"
    ///     MyStashCommand.main(["list", "notes", "--db", path])
    public static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else { return AppCommand.run([]) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "init": return InitCommand.run(rest)
        case "list": return ListCommand.run(rest)
        case "passwd": return PasswdCommand.run(rest)
        case "show": return ShowCommand.run(rest)
        case "add": return AddCommand.run(rest)
        case "copy": return CopyCommand.run(rest)
        case ClearClipboardCommand.name: return ClearClipboardCommand.run(rest)
        case "import": return ImportCommand.run(rest)
        case "export": return ExportCommand.run(rest)
        case "backup": return BackupCommand.run(rest)
        case "--version", "-V":
            print("\(ProgramName.current) \(version)")
            return ExitStatus.ok
        case "help":
            switch rest.first {
            case "init": return InitCommand.run(["--help"])
            case "list": return ListCommand.run(["--help"])
            case "passwd": return PasswdCommand.run(["--help"])
            case "show": return ShowCommand.run(["--help"])
            case "add": return AddCommand.run(["--help"])
            case "copy": return CopyCommand.run(["--help"])
            case "import": return ImportCommand.run(["--help"])
            case "export": return ExportCommand.run(["--help"])
            case "backup": return BackupCommand.run(["--help"])
            default: return AppCommand.run(["--help"])
            }
        default:
            if !first.hasPrefix("-") {
                writeStandardError(
                    "\(ProgramName.current): unknown command '\(first)' (try '\(ProgramName.current) --help')\n"
                )
                return ExitStatus.usage
            }
            return AppCommand.run(arguments)
        }
    }

    /// The text shared by every `--help` about where the store is.
    static let storeHelp = """
        The store is --db PATH, else $MYSTASH_DB, else $XDG_DATA_HOME/mystash/mystash.sqlite
        (~/.local/share/mystash/mystash.sqlite when XDG_DATA_HOME is unset); it is created
        with mode 0600. Everything but note titles and entry names is encrypted (Argon2id +
        XChaCha20-Poly1305) under the master passphrase, which is never stored.
        """
}
