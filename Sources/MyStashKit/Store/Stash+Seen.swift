import SQLiteStore

extension Stash {
    /// The manifest's generation and MAC as the file holds them, checked under `vault`'s key;
    /// nil when they do not verify (then nothing about them is trusted or recorded).
    func verifiedManifestState(vault: Vault) throws -> (generation: Int64, mac: [UInt8])? {
        guard
            let row = try store.database.query(
                "SELECT generation, manifest, manifest_mac FROM vault_info ORDER BY id LIMIT 1"
            ).first,
            let generation = row[0].int64, case .blob(let manifest) = row[1], case .blob(let mac) = row[2],
            try vault.verify(
                mac,
                of: Stash.manifestMessage(generation: generation, manifest: manifest),
                purpose: .manifest
            )
        else { return nil }
        return (generation, mac)
    }

    /// What `seen` says of the stash as it is now (its manifest verified under `vault`): a
    /// rollback, or nil.
    func seenRollback(vault: Vault) throws -> SeenStashes.Rollback? {
        guard let seen, let state = try verifiedManifestState(vault: vault) else { return nil }
        return seen.rollback(salt: vault.header.salt, generation: state.generation, manifestMAC: state.mac)
    }

    /// Records the stash as seen now in `seen` (its verified generation and MAC, its salt and
    /// limits; `formerSalt` joins the same record after a passphrase change). A failure to write
    /// the state file is kept in `seenFailure` for the command line to say.
    func rememberSeen(acceptingRollback: Bool = false, formerSalt: [UInt8]? = nil) {
        guard let seen, let vault, !vault.isClosed else { return }
        do {
            guard let state = try verifiedManifestState(vault: vault) else { return }
            try seen.remember(
                salt: vault.header.salt,
                parameters: vault.header.parameters,
                formerSalt: formerSalt,
                generation: state.generation,
                manifestMAC: state.mac,
                path: path,
                acceptingRollback: acceptingRollback
            )
        } catch {
            seenFailure = "\(error)"
        }
    }

    /// Records every commit of `context` (saves, undos, redos, other programs' writes picked up)
    /// in `seen`: the generation remembered keeps up with the file.
    func observeCommits(of context: ObjectContext) {
        context.addObserver { [weak self] _ in self?.rememberSeen() }
    }
}
