extension ObjectContext {
    /// Runs the store's ``SaveHook/willWrite`` for `write` (inside the write's transaction, before its rows).
    func runWillWriteHook(_ write: SaveHook.Write) throws {
        try store.saveHook?.willWrite(database, write)
    }

    /// Runs the store's ``SaveHook/didWrite`` for `write` (inside the write's transaction, after its rows).
    func runDidWriteHook(_ write: SaveHook.Write) throws {
        try store.saveHook?.didWrite(database, write)
    }
}
