import PostgreSQLClient

extension PostgresFixture {
    /// Another session of the fixture's database (`application_name` "lock-holder") that has run
    /// `statements` — a lock it keeps until it ends its transaction or unlocks:
    ///
    ///     let holder = try fixture.lockHolder("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
    ///     try fixture.waitUntilFetchedtableWaitsForALock()
    ///     try holder.execute("COMMIT")
    func lockHolder(_ statements: String) throws -> PostgresConnection {
        let holder = try PostgresConnection(uri, applicationName: "lock-holder", timeZone: "UTC", timeout: 30)
        try holder.execute(statements)
        return holder
    }

    /// How many statements of fetchedtable's connections to this database wait for a lock
    /// (`pg_stat_activity`; other tests' run in databases of their own meanwhile).
    func fetchedtableStatementsWaitingForALock() throws -> Int {
        Int(
            try psql(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE application_name = 'fetchedtable' AND wait_event_type = 'Lock' AND datname = current_database()
                """
            )
        ) ?? -1
    }

    /// How many statements of fetchedtable's connections to this database are on the server, running or waiting.
    func fetchedtableStatementsOnTheServer() throws -> Int {
        Int(
            try psql(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE application_name = 'fetchedtable' AND state = 'active' AND datname = current_database()
                """
            )
        ) ?? -1
    }

    /// Waits until a statement of fetchedtable's waits for a lock (a copy of a table another session holds).
    func waitUntilFetchedtableWaitsForALock() throws {
        try waitUntil("fetchedtable's statement waits for the lock") { try fetchedtableStatementsWaitingForALock() > 0 }
    }
}
