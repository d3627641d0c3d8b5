import BulkImport

/// One bad row of a bank list: the generic ``ImportIssue`` of `BulkImport`, under its failedbanks name.
///
///     let issue = BankImportIssue(path: "b.csv", line: 42, reason: "not a valid date", column: "Closing Date", value: "31-Foo-24")
package typealias BankImportIssue = ImportIssue

/// How far a bank list's import has come: the generic ``ImportProgress`` of `BulkImport`.
///
///     _ = try importer.importFile(path) { (progress: BankImportProgress) in print(progress.rows) }
package typealias BankImportProgress = ImportProgress

/// What one bank list's import did (banks added, updated, unchanged): the generic ``ImportSummary`` of `BulkImport`.
///
///     let summary = try importer.importFile("banklist.csv")
///     print(summary.summaryLine)
package typealias BankImportSummary = ImportSummary
