import SQLiteStore

extension ViewExport {
    /// The export's rows read a batch at a time, in order, each with its section's name (when the
    /// export keeps the sections as a column).
    struct RowStream {
        let export: ViewExport
        let reader: ObjectValuesReader
        let database: Database
        let progress: (Int) -> Void
        let isCancelled: () -> Bool

        /// Calls `body` with each row's section (nil: sections dropped) and values; returns how many
        /// rows there were (those deleted since the snapshot left out).
        ///
        /// - Throws: ``ViewExportError/cancelled`` once `isCancelled` says so; the read's error; `body`'s.
        func readEach(_ body: (_ section: String?, _ values: [StoreValue]) throws -> Void) throws -> Int {
            let ids = export.rowIDs
            let keepsSections = export.sectionColumn != nil
            var section = 0
            var sectionEnd = export.sections.first?.count ?? ids.count
            var written = 0
            var start = 0
            while start < ids.count {
                if isCancelled() { throw ViewExportError.cancelled }
                let end = min(ids.count, start + export.batchSize)
                let rows = try reader.read(Array(ids[start..<end]), on: database)
                var next = 0
                for position in start..<end {
                    while position >= sectionEnd && section + 1 < export.sections.count {
                        section += 1
                        sectionEnd += export.sections[section].count
                    }
                    guard next < rows.count, rows[next].id == ids[position] else { continue }
                    let name = keepsSections && section < export.sections.count ? export.sections[section].name : nil
                    try body(keepsSections ? name ?? "" : nil, rows[next].values)
                    next += 1
                    written += 1
                }
                progress(written)
                start = end
            }
            if isCancelled() { throw ViewExportError.cancelled }
            return written
        }
    }
}
