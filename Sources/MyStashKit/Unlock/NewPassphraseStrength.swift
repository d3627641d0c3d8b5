import CLIKit
import Glibc

/// What a new master passphrase's strength calls for, on every path that sets one (`init` from a
/// terminal or `--passphrase-fd`, the app's first run, `passwd`): a warning on stderr when
/// zxcvbn scores it below 3 ("strong"), and for `init`, a refusal below 2 unless `--allow-weak`.
/// A stash file faces offline guessing, at whatever speed the attacker's hardware allows.
///
/// The estimate is made from the guarded buffer (`PasswordStrength(estimating: SecureBytes)`):
/// no `String` copy of the passphrase is made.
///
///     let verdict = NewPassphraseStrength(passphrase, allowsWeak: parsed.flag("--allow-weak"))
///     verdict.warn(prompt: nil)
///     if verdict.isRefused { printError(verdict.refusal(source: "on descriptor 3")); return ExitStatus.dataError }
struct NewPassphraseStrength {
    /// The lowest score `init` takes without `--allow-weak`.
    static let lowestAccepted = 2
    /// The lowest score that is not warned about.
    static let lowestUnwarned = 3

    let strength: PasswordStrength
    /// Whether a refusal was waived (`--allow-weak`), or the path never refuses.
    let allowsWeak: Bool

    init(_ passphrase: SecureBytes, allowsWeak: Bool) {
        strength = PasswordStrength(estimating: passphrase)
        self.allowsWeak = allowsWeak
    }

    /// Below 2 without `--allow-weak`.
    var isRefused: Bool { !allowsWeak && strength.score < NewPassphraseStrength.lowestAccepted }

    /// The warning's sentence, nil for a strong passphrase.
    var warning: String? {
        guard strength.score < NewPassphraseStrength.lowestUnwarned else { return nil }
        return "this passphrase is \(strength.summary); anyone who copies the stash file can try guesses offline."
            + " A longer one (several unrelated words) is safer."
    }

    /// Says the warning on stderr; also in the prompt's dialogue (`prompt`, a terminal's
    /// `/dev/tty`) unless both are terminals — then it is the same screen, told once.
    func warn(prompt: PassphrasePrompt?) {
        guard let warning else { return }
        printError("warning: " + warning)
        if let prompt, prompt.output != STDERR_FILENO, !(isatty(prompt.output) == 1 && isatty(STDERR_FILENO) == 1) {
            prompt.write("Warning: \(warning)\n")
        }
    }

    /// Why `init` refuses it: the passphrase `source` ("on descriptor 3", "typed") is too weak.
    func refusal(source: String) -> String {
        "the passphrase \(source) is \(strength.summary): choose a stronger one (several unrelated words),"
            + " or add --allow-weak to use it anyway; no stash was created"
    }
}
