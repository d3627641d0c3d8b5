import SQLiteStore

/// The failedbanks object model: the shape of the original Core Data tutorial.
///
/// `FailedBankInfo` (name, city, state) has a to-one `details` ↔
/// `FailedBankDetails` (closing date, updated date, cert, acquiring
/// institution, fund); deleting a bank's info deletes its details. The cert
/// number, the FDIC's stable key for a bank, is unique, and so is a details
/// row's `info_id`: one details row per bank (version 2). `closeYear` (the
/// year of the closing date; NULL when the stored value is not a date, so such
/// banks section under "—") is the section key of the browser's date tab.
///
/// In SQLite (readable names, for people with `sqlite3`):
///
///     failed_bank_info    (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, state TEXT NOT NULL)
///     failed_bank_details (id INTEGER PRIMARY KEY, close_date TEXT NOT NULL /* YYYY-MM-DD */,
///                          updated_date TEXT, cert INTEGER NOT NULL, acquiring_institution TEXT, fund INTEGER,
///                          info_id INTEGER REFERENCES failed_bank_info(id) ON DELETE CASCADE)
///     indexes: failed_bank_details(close_date), UNIQUE failed_bank_details(cert), UNIQUE failed_bank_details(info_id)
///
/// Version 1 had a plain index on `info_id`, so a `sqlite3` shell could give a
/// bank a second details row. Opening a version-1 store migrates it: without
/// such rows the plain index becomes the unique one; with them the store still
/// opens, keeps the plain index (`Store.enforcesUniqueKey(["info"], of: details)`
/// is false) and every reader shows the lowest-id details row, in SQL and in
/// Swift alike (``SQLSource``, ``ManagedObject/related(_:)``).
///
/// Usage:
///
///     let store = try Store(path: path, model: FailedBankModel.model)
///     let banks = try ObjectContext(store: store).fetch(FailedBankModel.info, orderBy: "name")
package enum FailedBankModel {
    /// Entity name of a bank's name and place (`failed_bank_info`).
    package static let info = "FailedBankInfo"
    /// Entity name of a bank's closing details (`failed_bank_details`).
    package static let details = "FailedBankDetails"

    /// `application_id` of failedbanks stores: "FBNK".
    package static let applicationID: Int32 = 0x4642_4E4B

    /// The schema version this build reads and writes (2: one details row per bank).
    package static let version = 2

    /// 1 → 2: the unique index on `failed_bank_details(info_id)`, which the store creates
    /// after this step (see ``Migration``). When no bank has two details rows it replaces
    /// the plain index on the column; otherwise the plain index stays and the unique one
    /// is left out, so that the store keeps opening (rows are not deleted for the user).
    static let migrations = [
        Migration(from: 1, to: 2) { db in
            let duplicated = try db.scalar(
                """
                SELECT EXISTS (SELECT 1 FROM failed_bank_details WHERE info_id IS NOT NULL
                               GROUP BY info_id HAVING count(*) > 1)
                """
            )
            if duplicated.int64 == 0 {
                try db.execute("DROP INDEX IF EXISTS failed_bank_details_info_id")
            }
        }
    ]

    /// The model (entities, relationship, derived `closeYear`), as the records declare it.
    package static let model = Model(
        version: version,
        applicationID: applicationID,
        records: [FailedBankInfo.self, FailedBankDetails.self],
        migrations: migrations
    )
}
