import Foundation
import PostgreSQLClient

/// The PostgreSQL server a command line names: a `postgres://` or `postgresql://` URL
/// (its parameters go to libpq unchanged), or `--pg` (libpq's environment alone:
/// `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE`… and `~/.pgpass`).
///
/// What is shown of it — titles, messages, `list` and `watch` output — is ``label``,
/// which never carries a password.
///
///     let target = PostgresTarget(connectionString: "postgres://alice:secret@db/shop")
///     target.label             // "postgres://alice@db/shop"
///     target.passwordWarning   // "warning: the password in the connection string is visible to every user …"
package struct PostgresTarget: Equatable, Sendable {
    /// The URL as given, password and all (nil: `--pg`). Never shown.
    package let connectionString: String?

    /// A target; nil connects through libpq's environment alone.
    package init(connectionString: String?) {
        self.connectionString = connectionString
    }

    /// Whether a positional argument names a server rather than a file: a URL, or libpq's
    /// keyword/value pairs (`'host=db dbname=shop'`) that are not the name of a file there is.
    package static func isURL(_ argument: String) -> Bool {
        if ConnectionString.isURI(argument) { return true }
        return ConnectionString.isKeywordValue(argument) && !FileManager.default.fileExists(atPath: argument)
    }

    /// The URL without its password, or `--pg`.
    package var label: String {
        connectionString.map(ConnectionString.removingPassword(from:)) ?? "--pg"
    }

    /// The one-line warning for a URL that carries a password (nil: it does not).
    package var passwordWarning: String? {
        guard let connectionString, ConnectionString.containsPassword(connectionString) else { return nil }
        return "warning: the password in the connection string is visible to every user of this machine (ps); "
            + "put it in ~/.pgpass or PGPASSWORD instead"
    }

    /// `text` with every password of the URL removed.
    func redacted(_ text: String) -> String {
        ConnectionString.removingPasswords(from: text, connectionString: connectionString)
    }
}
