import SQLiteStore

/// The transaction of the upsert path: an ordinary one (the history triggers
/// record each change, so a running browser animates them) or, for large
/// files, a `Store.bulkWrite(_:)`.
///
/// Another writer (a second import) may hold the store for longer than one
/// busy timeout: while `body` has not started yet, the transaction waits for
/// it `extraBusyWaits` more times before the busy error is thrown.
///
///     try UpsertTransaction.run(store: store, bulk: false) { db in
///         try db.run("UPDATE student SET subject = ? WHERE number = ?", [.text("Physics"), .integer(7)])
///     }
package enum UpsertTransaction {
    /// How many more busy timeouts an import waits for another writer before giving up.
    package static let extraBusyWaits = 2

    /// Runs `body` in one transaction of `store`'s connection; see the type's summary.
    package static func run(
        store: Store,
        bulk: Bool,
        extraBusyWaits: Int = UpsertTransaction.extraBusyWaits,
        _ body: (Database) throws -> Void
    ) throws {
        var waits = 0
        while true {
            var started = false
            do {
                if bulk {
                    try store.bulkWrite { db in
                        started = true
                        try body(db)
                    }
                } else {
                    try store.database.transaction {
                        started = true
                        try body(store.database)
                    }
                }
                return
            } catch let error as SQLiteError where error.isBusy && !started && waits < extraBusyWaits {
                waits += 1
            }
        }
    }
}
