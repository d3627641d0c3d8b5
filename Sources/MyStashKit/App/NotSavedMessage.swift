import CLIKit
import SQLiteStore

/// What a form says when its save failed: the store's reason in words ("the disk is full",
/// "the file could not be written (…)"), never a SQLite error with its SQL; the system's
/// sentence for a Foundation error; the stash's own errors as they describe themselves.
///
///     catch { form.errorMessage = notSavedMessage(error) }   // "Not saved: the disk is full"
func notSavedMessage(_ error: any Error) -> String {
    let reason =
        error is SQLiteError || error is StoreError ? StoreFailure.reason(of: error) : ErrorReason.text(of: error)
    return "Not saved: \(reason)"
}
