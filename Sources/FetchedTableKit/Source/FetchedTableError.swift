import CLIKit

/// Why `fetchedtable` cannot go on: the sentence the user reads (after
/// `fetchedtable: `) and the `sysexits.h` status it exits with.
///
///     throw FetchedTableError.usage("--table: no table \"x\" in school.sqlite; its tables: student, subject")
package struct FetchedTableError: Error, Equatable, CustomStringConvertible {
    /// The sentence, without the program name.
    package var message: String
    /// The exit status: 64 usage, 65 data, 66 no input, 74 I/O.
    package var status: Int32

    /// An error saying `message`, exiting with `status`.
    package init(_ message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    /// Bad usage (64): an unknown option, table or column.
    package static func usage(_ message: String) -> FetchedTableError { .init(message, status: ExitStatus.usage) }
    /// Bad data (65): a file that is neither a database nor a CSV file, or a damaged one.
    package static func data(_ message: String) -> FetchedTableError { .init(message, status: ExitStatus.dataError) }
    /// No input (66): the file is missing or cannot be opened.
    package static func noInput(_ message: String) -> FetchedTableError { .init(message, status: ExitStatus.noInput) }

    package var description: String { message }

    /// The reason `error` gives, never a Foundation error's dump (``ErrorReason``).
    static func reason(_ error: Error) -> String { ErrorReason.text(of: error) }
}
