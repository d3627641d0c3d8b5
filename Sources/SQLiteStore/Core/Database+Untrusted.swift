import CSQLite

extension Database {
    /// Treats the file's schema as untrusted: `PRAGMA trusted_schema = OFF` and defensive mode, for a
    /// database another program wrote (see ``openReadOnly(path:)``).
    func distrustSchema() throws {
        var result: Int32 = 0
        let rc = csqlite_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &result)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, code: rc, sql: nil) }
        try execute("PRAGMA trusted_schema = OFF")
    }

    /// True when the connection is in defensive mode (`SQLITE_DBCONFIG_DEFENSIVE`).
    package var isDefensive: Bool {
        var result: Int32 = 0
        _ = csqlite_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, -1, &result)
        return result == 1
    }
}
