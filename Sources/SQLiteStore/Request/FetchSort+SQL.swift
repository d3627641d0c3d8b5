extension FetchSort {
    /// The ORDER BY terms of `sorts` (their SQL `expressions`), then `id ASC` (nil: no id term,
    /// the ties left in SQLite's order).
    package static func orderBy(sorts: [FetchSort], expressions: [String], id: String?) -> String {
        var terms: [String] = []
        for (s, e) in zip(sorts, expressions) {
            // A value that sorts last in both directions (the section of the values that are not dates).
            if let last = s.sortsLast { terms.append("(\(e) IS \(DerivedAttribute.sqlLiteral(last))) ASC") }
            let nulls = s.nulls == .greatest ? (s.ascending ? " NULLS LAST" : " NULLS FIRST") : ""
            terms.append("\(e) COLLATE \(s.collation.sqlName) \(s.ascending ? "ASC" : "DESC")\(nulls)")
        }
        if let id { terms.append(id + " ASC") }
        return terms.joined(separator: ", ")
    }

    /// The sort with ``sortsLast`` set from the derived attribute its key path names (if any).
    package func resolvingSortsLast(in model: Model, root: Entity) -> FetchSort {
        var sort = self
        sort.sortsLast = model.derivedAttribute(atKeyPath: keyPath, root: root)?.sortsLast
        return sort
    }

    /// ` LIMIT n OFFSET m` for a request's limit and offset ("" when neither is set).
    package static func limitClause(limit: Int, offset: Int) -> String {
        guard limit > 0 || offset > 0 else { return "" }
        return " LIMIT \(limit > 0 ? limit : -1) OFFSET \(max(0, offset))"
    }
}
