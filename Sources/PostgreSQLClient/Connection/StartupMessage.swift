/// libpq's message for a failed connection, read in verbose form
/// (`FATAL:  28P01: password authentication failed…` and a `LOCATION:` line).
enum StartupMessage {
    /// Whether the server refused the credentials: SQLSTATE class 28
    /// (`28P01` wrong password, `28000` no such role or no `pg_hba.conf`
    /// entry), or libpq's own refusal to go on without a password.
    static func isAuthenticationRefusal(_ verbose: String) -> Bool {
        verbose.contains(#/(FATAL|ERROR):\s+28(P01|000):/#) || verbose.contains("no password supplied")
            || verbose.contains("password authentication failed")
    }

    /// The message in libpq's default form: no SQLSTATE, no `LOCATION:` lines.
    static func plain(_ verbose: String) -> String {
        verbose.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("LOCATION:") }
            .joined(separator: "\n")
            .replacing(#/(FATAL|ERROR|PANIC):(\s+)[0-9A-Z]{5}: /#, with: { "\($0.output.1):\($0.output.2)" })
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
