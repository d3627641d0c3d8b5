/// How far an import has come, reported a few times a second.
///
///     try importer.importFile(path) { progress in
///         print(progress.rows, progress.fraction ?? 0)
///     }
public struct BankImportProgress: Sendable {
    /// Rows read so far (good and bad).
    public var rows: Int
    /// Bytes of the file read so far.
    public var bytesRead: Int64
    /// The file's size, when known.
    public var totalBytes: Int64?
    /// Seconds since the import of this file began.
    public var elapsed: Double
    /// True for the last report of a file.
    public var isFinished: Bool

    /// 0…1 by bytes, when the size is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }

    /// Rows per second so far.
    public var rowsPerSecond: Double { elapsed > 0 ? Double(rows) / elapsed : 0 }

    /// Estimated seconds left, when the size is known and some progress was made.
    public var secondsLeft: Double? {
        guard let fraction, fraction > 0.01, elapsed > 0 else { return nil }
        return elapsed * (1 - fraction) / fraction
    }
}
