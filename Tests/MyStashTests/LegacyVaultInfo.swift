import Foundation
import SQLiteStore

@testable import MyStashKit

/// The steps the stashes of older releases (``FirstVersionStash``, ``SecondVersionStash``) begin
/// with, written once: the file prepared and its store opened with that release's model, a vault of
/// that release's format, and its `vault_info` row.
///
///     let legacy = try LegacyVaultInfo.begin(at: path, model: model, passphrase: "pw", parameters: .minimum, format: 2)
///     defer { legacy.vault.close() }
///     legacy.info["sealing"] = .integer(2)
struct LegacyVaultInfo {
    let store: Store
    let context: ObjectContext
    let vault: Vault
    /// The `vault_info` row, inserted (salt, verifier, KDF limits, `changed`).
    let info: ManagedObject
    /// The time stamped on it, for the rows that follow.
    let now: StoreValue

    static func begin(
        at path: String,
        model: Model,
        passphrase: String,
        parameters: KDFParameters,
        format: Int
    ) throws -> LegacyVaultInfo {
        try StashLocation.prepare(path: path)
        let store = try Store(path: path, model: model)
        let context = ObjectContext(store: store)
        let (vault, header) = try Vault.create(
            passphrase: SecureBytes(utf8: passphrase),
            parameters: parameters,
            format: format
        )
        let info = context.insert(into: StashModel.vaultInfo)
        info["salt"] = .blob(header.salt)
        info["verifier"] = .blob(header.verifier)
        info["opsLimit"] = .integer(Int64(header.parameters.opsLimit))
        info["memLimit"] = .integer(Int64(header.parameters.memLimit))
        info["algorithm"] = .integer(Int64(header.parameters.algorithm))
        let now = StoreValue.text(StoreDate.dateTimeText(from: Date()))
        info["changed"] = now
        return LegacyVaultInfo(store: store, context: context, vault: vault, info: info, now: now)
    }

    /// Saves the rows and checkpoints the WAL into the file (as that release left it on quitting).
    func finish() throws {
        try context.save()
        _ = try store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
