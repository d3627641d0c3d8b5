extension FetchSort {
    /// A sort by a record's column (a Codable record's coding key names its attribute).
    ///
    ///     FetchSort(Student.Columns.number, ascending: false)
    public init(
        _ column: some CodingKey,
        ascending: Bool = true,
        comparison: Comparison = .binary,
        nulls: NullOrder = .least
    ) {
        self.init(column.stringValue, ascending: ascending, comparison: comparison, nulls: nulls)
    }
}
