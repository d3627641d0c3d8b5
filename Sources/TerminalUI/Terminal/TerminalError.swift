/// Why the terminal could not be taken over (or given back).
///
/// Thrown by `CursesBackend.init` before curses touches the terminal, so the
/// shell is left exactly as it was. `description` is the sentence a person
/// reads; the command-line layer prefixes the program name:
///
///     do {
///         let backend = try CursesBackend()
///         …
///     } catch let error as TerminalError {
///         print(error.description)   // "TERM is not set" …
///         exit(1)
///     }
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output (`stream` names it) is a pipe or file, not a terminal.
    case notATerminal(stream: String)
    /// The `TERM` environment variable is unset or empty.
    case terminalTypeNotSet
    /// `TERM` names a type the terminfo database does not know.
    case unknownTerminalType(String)
    /// No terminfo database could be found at all.
    case noTerminfoDatabase(terminalType: String)
    /// The terminal cannot move the cursor (`cup`), e.g. `dumb`.
    case cannotAddressCursor(terminalType: String)
    /// `newterm` refused the terminal for another reason.
    case initializationFailed(terminalType: String)
    /// A CursesBackend is already active in this process (curses has one terminal).
    case alreadyActive

    /// The sentence for a person, without the program name.
    public var description: String {
        switch self {
        case .notATerminal(let stream):
            return "\(stream) is not a terminal"
        case .terminalTypeNotSet:
            return "TERM is not set"
        case .unknownTerminalType(let type):
            return "unknown terminal type '\(type)'"
        case .noTerminfoDatabase(let type):
            return "no terminfo database found for terminal type '\(type)'"
        case .cannotAddressCursor(let type):
            return "terminal '\(type)' cannot address the cursor"
        case .initializationFailed(let type):
            return "could not initialise terminal '\(type)'"
        case .alreadyActive:
            return "the terminal is already in use by another screen"
        }
    }
}
