/// How far an import has come, reported a few times a second.
///
///     let progress = ImportProgress(rows: 500, bytesRead: 50, totalBytes: 100, elapsed: 2, isFinished: false)
///     print(progress.fraction ?? 0, progress.rowsPerSecond)  // 0.5 250.0
public struct ImportProgress: Sendable {
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

    /// A report of `rows` rows read, `bytesRead` of `totalBytes`, after `elapsed` seconds.
    public init(rows: Int, bytesRead: Int64, totalBytes: Int64?, elapsed: Double, isFinished: Bool) {
        self.rows = rows
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.elapsed = elapsed
        self.isFinished = isFinished
    }

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
