extension QueryResultTable {
    /// Runs `step` (a load of the rows, an update, the index read back); when the key of
    /// `mapping`'s table repeats in the rows (``QueryResultError/duplicateKey(columns:values:)``,
    /// a self-join, `UNION ALL`), drops the mapping, tells the rows apart by their content from
    /// then on (``identifyByContent()``) and runs `again`. A key the user gave that repeats is thrown.
    package func fallingBackToContent<T>(
        for mapping: QuerySourceMapping,
        _ step: () throws -> T,
        again: () throws -> T
    ) throws -> T {
        do {
            return try step()
        } catch QueryResultError.duplicateKey where mapping.fallsBackToContent {
            mapping.drop()
            identifyByContent()
            return try again()
        }
    }

    /// The same, `step` run again after the fall back.
    package func fallingBackToContent<T>(for mapping: QuerySourceMapping, _ step: () throws -> T) throws -> T {
        try fallingBackToContent(for: mapping, step, again: step)
    }

    /// Before a live query's first look: the index of the first run's rows read back from the
    /// table, when its load left it for later (``buildIndex()``), so that the first change costs
    /// no more than the others; the table's key repeats in them: the rows by their content. A
    /// failure is left to the first run, which tries again and says why.
    package func readBackIndex(for mapping: QuerySourceMapping) {
        _ = try? fallingBackToContent(for: mapping) { try buildIndex() }
    }
}
