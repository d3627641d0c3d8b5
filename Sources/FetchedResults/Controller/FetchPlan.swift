import SQLiteStore

/// A fetch request compiled against a model: the SQL the controller runs and
/// what it needs to place changed objects in Swift.
///
/// Rule 1 of <doc:ChangeBatches> lives here: at least one sort descriptor, and with a section key
/// path the first sort must order by the section key. Accepted:
/// - the first sort's key path *is* the section key path, with a binary
///   comparison (a case-insensitive sort would interleave "Apple" and "apple"
///   and split their sections);
/// - the section key is a derived attribute computed from the first sort's
///   attribute (section `details.closeYear` = `substr(close_date, 1, 4)`,
///   first sort `details.closeDate`). The controller then orders by the
///   section key first (binary, in the first sort's direction) and by the
///   sorts after it, which is the same order when the derivation preserves
///   order, and keeps sections contiguous when it does not (`#` for every
///   name that starts with a non-letter).
/// Anything else throws ``FetchedResultsError/sectionKeyNotOrdered(sectionKeyPath:firstSort:reason:)``.
struct FetchPlan {
    let request: FetchRequest
    let entity: Entity
    let source: SQLSource
    /// The sorts the SQL orders by (a prepended section sort, then the request's), before `t0.id`.
    let sorts: [FetchSort]
    let sortExpressions: [String]
    let sectionKeyPath: String?
    let sectionExpression: String?
    /// The direction in which section values run.
    let sectionAscending: Bool
    let predicateSQL: SQLFragment?
    let encoder: SortKeyEncoder
    /// Encodes the request's own sorts, leaving out a prepended section sort. Set when the
    /// section key is derived from the first sort's attribute alone, so that equal sort
    /// values mean equal sections and, while the data keeps the derivation monotonic, the
    /// shorter prefix orders rows as the full one does (the controller verifies both).
    let shortEncoder: SortKeyEncoder?
    /// Key paths read for changed objects: sorts, then section, then predicate (distinct).
    let valueKeyPaths: [String]
    let valueIndex: [String: Int]
    /// The type affinity of each of `valueKeyPaths` (nil: none), by which the predicate compares in Swift as in SQL.
    let valueAffinities: [String: TypeAffinity?]
    /// Indexes into `valueKeyPaths` of each sort and of the section key.
    let sortValueIndexes: [Int]
    let sectionValueIndex: Int?
    /// Changed keys that can move an object or change its membership.
    let relevantKeys: Set<String>
    /// The main query: `SELECT t0.id[, section] FROM … WHERE … ORDER BY …, t0.id`.
    let fetchSQL: String
    /// When the section sort was prepended: the same query ordered by the request's sorts only.
    /// It gives the same order whenever the section values come out monotonic, which
    /// ``FetchedResultsController/runFetch(_:)`` checks as it reads (and falls back to `fetchSQL`).
    let fetchSQLWithoutSectionSort: String?
    /// Set when ``fetchSQLWithoutSectionSort`` selects the first sort's value instead of the
    /// section's: the section key is derived from that attribute alone with a
    /// ``DerivedAttribute/decidingBytes`` promise, so the fetch computes a section in Swift only
    /// where a row's text differs from the last computed one in its deciding bytes, and SQLite
    /// does not evaluate the section's SQL for every row.
    let sectionFromSortValue: SectionFromSortValue?
    /// Set with ``sectionFromSortValue``: the values query leaves the section key's column NULL
    /// and the reader computes it from the first sort's value, as the fetch does (SQLite's
    /// expression for a derived date part — `typeof`, three `substr`, two `GLOB` — took a third of
    /// the query's instructions for a changed row).
    let sectionValueFromSortValue: ComputedValue?
    /// Reads every row's sort values, unordered, to build the prefixes: `SELECT t0.id, sorts… FROM …`.
    let keysSQL: String
    /// `SELECT t0.id[, section] FROM …`: the fetch queries before their `WHERE` (for the preview queries).
    let fetchSelectFrom: String
    let fetchArguments: [StoreValue]
    /// Describes the request for the cache fingerprint.
    let descriptor: String
    /// ``valuesSQL(single:)``'s two queries, made once: a change set reads values many times
    /// (each probe of a move), and resolving the key paths' SQL each time cost milliseconds.
    private let valuesSQLMany: String
    private let valuesSQLSingle: String

    init(request: FetchRequest, model: Model, sectionNameKeyPath: String?) throws {
        guard let entity = model.entity(named: request.entityName) else {
            throw FetchedResultsError.unknownEntity(request.entityName)
        }
        guard let first = request.sortDescriptors.first else {
            throw FetchedResultsError.noSortDescriptors(entity: request.entityName)
        }
        self.request = request
        self.entity = entity

        var sorts = request.sortDescriptors
        var derivedFromFirstSortAlone = false
        if let section = sectionNameKeyPath {
            if section == first.keyPath {
                guard first.comparison == .binary else {
                    throw FetchedResultsError.sectionKeyNotOrdered(
                        sectionKeyPath: section,
                        firstSort: first.description,
                        reason:
                            "the first sort is case-insensitive, so names differing only in case would interleave; sort it binary or section by a derived key"
                    )
                }
            } else if let reads = try FetchPlan.derivedReads(section, from: first.keyPath, model: model, root: entity) {
                sorts.insert(
                    FetchSort(section, ascending: first.ascending, comparison: .binary, nulls: first.nulls),
                    at: 0
                )
                derivedFromFirstSortAlone = reads == .onlyTheSortAttribute
            } else {
                throw FetchedResultsError.sectionKeyNotOrdered(
                    sectionKeyPath: section,
                    firstSort: first.description,
                    reason:
                        "the first sort descriptor must order by the section key path (or by the attribute a derived section key is computed from)"
                )
            }
        }
        sorts = sorts.map { $0.resolvingSortsLast(in: model, root: entity) }
        self.sorts = sorts
        self.sectionKeyPath = sectionNameKeyPath
        self.sectionAscending = sectionNameKeyPath == nil ? true : sorts[0].ascending

        var keyPaths: [String] = []
        var index: [String: Int] = [:]
        func note(_ k: String) -> Int {
            if let i = index[k] { return i }
            index[k] = keyPaths.count
            keyPaths.append(k)
            return keyPaths.count - 1
        }
        sortValueIndexes = sorts.map { note($0.keyPath) }
        sectionValueIndex = sectionNameKeyPath.map { note($0) }
        for k in request.predicate?.keyPaths ?? [] { _ = note(k) }
        valueKeyPaths = keyPaths
        valueIndex = index

        let source = try model.sqlSource(root: entity.name, keyPaths: keyPaths)
        self.source = source
        var affinities: [String: TypeAffinity?] = [:]
        for k in keyPaths { affinities[k] = try source.affinity(forKeyPath: k) }
        valueAffinities = affinities
        sortExpressions = try sorts.map { try source.expression(forKeyPath: $0.keyPath) }
        sectionExpression = try sectionNameKeyPath.map { try source.expression(forKeyPath: $0) }
        let types = try sorts.map { try source.type(forKeyPath: $0.keyPath) }
        encoder = SortKeyEncoder(sorts: sorts, types: types)
        shortEncoder =
            derivedFromFirstSortAlone
            ? SortKeyEncoder(sorts: Array(sorts.dropFirst()), types: Array(types.dropFirst())) : nil
        predicateSQL = try request.predicate.map { try $0.sql(in: source) }

        var relevant = Set<String>()
        for k in keyPaths {
            for p in try FetchPlan.dependencies(of: k, model: model, root: entity) { relevant.insert(p) }
        }
        relevantKeys = relevant

        var fromSortValue: SectionFromSortValue?
        if derivedFromFirstSortAlone, let section = sectionNameKeyPath,
            let derived = model.derivedAttribute(atKeyPath: section, root: entity),
            let bytes = derived.decidingBytes, bytes > 0,
            model.derivedAttribute(atKeyPath: first.keyPath, root: entity) == nil
        {
            // One binary sort and no limit: rows with the same value may come in any order, and the
            // fetch puts them in id order itself (a limit would cut that run at SQLite's order).
            let tiesByID =
                request.sortDescriptors.count == 1 && first.comparison == .binary && request.fetchLimit == 0
                && request.fetchOffset == 0
            fromSortValue = SectionFromSortValue(
                compute: derived.compute,
                decidingBytes: bytes,
                ordersTiesByID: tiesByID
            )
        }
        sectionFromSortValue = fromSortValue
        var computed: ComputedValue?
        if let fromSortValue, let section = sectionValueIndex, section == sortValueIndexes[0] {
            computed = ComputedValue(index: section, source: sortValueIndexes[1], derive: fromSortValue)
        }
        sectionValueFromSortValue = computed
        var select = "SELECT " + source.idExpression
        if let s = sectionExpression { select += ", " + s }
        fetchSelectFrom = select + " FROM " + source.from
        var base = fetchSelectFrom
        if let p = predicateSQL { base += " WHERE " + p.sql }
        let limit = FetchSort.limitClause(limit: request.fetchLimit, offset: request.fetchOffset)
        let id = source.idExpression
        fetchSQL = base + " ORDER BY " + FetchSort.orderBy(sorts: sorts, expressions: sortExpressions, id: id) + limit
        if sorts.count > request.sortDescriptors.count {
            var cheaperBase = base
            if fromSortValue != nil {
                // The value with its ORDER BY term's collation (which does not change the value): SQLite
                // then reads it back from the sorter's key instead of storing it a second time in every
                // sorted record (plain `t1.close_date` beside `t1.close_date COLLATE BINARY DESC` is not
                // the same expression to it, and a million sorted records spill to its temporary files).
                let collated = sortExpressions[1] + " COLLATE " + sorts[1].collation.sqlName
                cheaperBase = "SELECT " + id + ", " + collated + " FROM " + source.from
                if let p = predicateSQL { cheaperBase += " WHERE " + p.sql }
            }
            fetchSQLWithoutSectionSort =
                cheaperBase + " ORDER BY "
                + FetchSort.orderBy(
                    sorts: Array(sorts.dropFirst()),
                    expressions: Array(sortExpressions.dropFirst()),
                    id: fromSortValue?.ordersTiesByID == true ? nil : id
                ) + limit
        } else {
            fetchSQLWithoutSectionSort = nil
        }
        keysSQL = "SELECT \(id), " + sortExpressions.joined(separator: ", ") + " FROM " + source.from
        fetchArguments = predicateSQL?.arguments ?? []

        var d = "entity=\(entity.name);section=\(sectionNameKeyPath ?? "-");sorts="
        d += sorts.map(\.description).joined(separator: ",")
        d += ";where=\(predicateSQL?.sql ?? "-");args=\(fetchArguments.map(\.description).joined(separator: ","))"
        d += ";limit=\(request.fetchLimit);offset=\(request.fetchOffset)"
        descriptor = d
        let computedIndex = computed?.index
        let valueExpressions = try keyPaths.indices.map { i in
            i == computedIndex ? "NULL" : try source.expression(forKeyPath: keyPaths[i])
        }
        let values = ([id] + valueExpressions).joined(separator: ", ")
        valuesSQLMany = "SELECT \(values) FROM \(source.from) WHERE \(id) IN (SELECT value FROM json_each(?))"
        valuesSQLSingle = "SELECT \(values) FROM \(source.from) WHERE \(id) = ?"
    }

    enum DerivedReads { case onlyTheSortAttribute, theSortAttributeAndOthers }

    /// A value of ``valueKeyPaths`` that the values query leaves NULL, computed in Swift from
    /// another value of the row (see ``sectionValueFromSortValue``).
    struct ComputedValue {
        let index: Int
        let source: Int
        let derive: SectionFromSortValue

        /// Sets the value in a row read by the values query.
        func fill(_ values: inout [StoreValue]) { values[index] = derive.section(of: values[source]) }
    }

    /// How the cheaper query's rows give their section (see ``sectionFromSortValue``).
    struct SectionFromSortValue {
        /// The section key's Swift computation, given the sort attribute's value.
        let compute: @Sendable (_ attribute: (String) -> StoreValue) -> StoreValue
        /// Texts agreeing on this many leading bytes are in the same section.
        let decidingBytes: Int
        /// The cheaper query orders by the sort value alone, without the `t0.id` term, and the fetch
        /// puts each run of rows with the same value in id order itself (``SortValueRun``). An index
        /// on the sorted column then gives the whole order: SQLite cannot read an index backwards
        /// for the value and forwards for the id, so `ORDER BY ts DESC, id` sorts every run of
        /// equal timestamps through its sorter, and `ORDER BY ts DESC` sorts nothing. Set for a
        /// request with one binary sort (equal then means the same bytes) and no limit or offset.
        let ordersTiesByID: Bool

        /// The section of a row whose sort attribute holds `value`.
        func section(of value: StoreValue) -> StoreValue { compute { _ in value } }
    }

    /// Whether `section` names a derived attribute whose SQL reads the attribute `sortKeyPath`
    /// names (nil when it does not), and whether it reads nothing else.
    static func derivedReads(
        _ section: String,
        from sortKeyPath: String,
        model: Model,
        root: Entity
    ) throws -> DerivedReads? {
        let (sectionPrefix, sectionName) = Model.split(section, root: root)
        let (sortPrefix, sortName) = Model.split(sortKeyPath, root: root)
        guard sectionPrefix == sortPrefix, let owner = model.entity(at: sectionPrefix, root: root),
            let derived = owner.derivedAttribute(named: sectionName)
        else { return nil }
        let columns = columns(of: derived)
        let keys = columns.map { owner.key(forColumn: $0) }
        guard keys.contains(sortName) else { return nil }
        return keys.allSatisfy { $0 == sortName } ? .onlyTheSortAttribute : .theSortAttributeAndOthers
    }

    /// The changed keys (as change sets name them) that can alter the value of `keyPath`.
    static func dependencies(of keyPath: String, model: Model, root: Entity) throws -> [String] {
        var out = [keyPath]
        let parts = keyPath.split(separator: ".").map(String.init)
        // A changed link on the way changes everything behind it.
        for i in 1..<max(1, parts.count) { out.append(parts[0..<i].joined(separator: ".")) }
        let (prefix, name) = Model.split(keyPath, root: root)
        if let owner = model.entity(at: prefix, root: root),
            let derived = owner.derivedAttribute(named: name)
        {
            let keys = columns(of: derived).compactMap { owner.key(forColumn: $0) }
            for k in keys { out.append(prefix.isEmpty ? k : prefix + "." + k) }
        }
        return out
    }

    /// Column names a derived attribute's SQL template reads (`$.close_date` → `close_date`,
    /// `$."Close Date"` → `Close Date`).
    static func columns(of derived: DerivedAttribute) -> [String] {
        var out: [String] = []
        let u = Array(derived.sql.utf8)
        var i = 0
        while i + 1 < u.count {
            if u[i] == UInt8(ascii: "$") && u[i + 1] == UInt8(ascii: "."), i + 2 < u.count,
                u[i + 2] == UInt8(ascii: "\"")
            {
                var j = i + 3
                var name: [UInt8] = []
                while j < u.count {
                    if u[j] == UInt8(ascii: "\"") {
                        if j + 1 < u.count && u[j + 1] == UInt8(ascii: "\"") {
                            name.append(u[j])
                            j += 2
                            continue
                        }
                        j += 1
                        break
                    }
                    name.append(u[j])
                    j += 1
                }
                out.append(String(decoding: name, as: UTF8.self))
                i = j
            } else if u[i] == UInt8(ascii: "$") && u[i + 1] == UInt8(ascii: ".") {
                var j = i + 2
                var name: [UInt8] = []
                while j < u.count,
                    (u[j] >= 0x61 && u[j] <= 0x7A) || (u[j] >= 0x41 && u[j] <= 0x5A) || (u[j] >= 0x30 && u[j] <= 0x39)
                        || u[j] == 0x5F
                {
                    name.append(u[j])
                    j += 1
                }
                out.append(String(decoding: name, as: UTF8.self))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// SELECT of the values of `valueKeyPaths` for some ids (bound as a JSON array in `?`).
    func valuesSQL(single: Bool) -> String {
        single ? valuesSQLSingle : valuesSQLMany
    }

    /// SELECT of the id and the values of the key paths at `indexes` of `valueKeyPaths` only,
    /// for some ids (bound as a JSON array in `?`): joined to what those key paths need alone.
    func valuesSQL(of indexes: [Int], model: Model) throws -> String {
        let keyPaths = indexes.map { valueKeyPaths[$0] }
        let source = try model.sqlSource(root: entity.name, keyPaths: keyPaths)
        let id = source.idExpression
        let values = try [id] + keyPaths.map { try source.expression(forKeyPath: $0) }
        return "SELECT \(values.joined(separator: ", ")) FROM \(source.from) "
            + "WHERE \(id) IN (SELECT value FROM json_each(?))"
    }

    /// Compares two section values as `StoreValue.compare` does, except that the section sort's
    /// `FetchSort.sortsLast` value (the section of the values that are not dates) is above every
    /// other when sections ascend and below every other when they descend: in the direction
    /// sections run (``sectionOrder(_:_:)``), it is last either way.
    func compareSectionValues(_ a: StoreValue, _ b: StoreValue) -> Int {
        if let last = sectionSortsLast {
            let aIsLast = a == last
            if aIsLast != (b == last) { return aIsLast == sectionAscending ? 1 : -1 }
        }
        return FetchSort.compare(a, b, collation: .binary, nulls: sectionKeyPath == nil ? .least : sorts[0].nulls)
    }

    /// The order of two section values in the direction sections run: -1, 0, 1.
    func sectionOrder(_ a: StoreValue, _ b: StoreValue) -> Int {
        let c = compareSectionValues(a, b)
        return sectionAscending ? c : -c
    }

    /// The section value that sorts last in both directions (nil: none, or no sections).
    var sectionSortsLast: StoreValue? {
        guard sectionKeyPath != nil else { return Optional.none }  // StoreValue reads `nil` as `.null`
        return sorts[0].sortsLast
    }

    /// Compares two rows by the sorts then by id: -1, 0, 1.
    func compareRows(_ a: [StoreValue], _ aID: Int64, _ b: [StoreValue], _ bID: Int64) -> Int {
        for (k, s) in sorts.enumerated() {
            let c = s.compare(a[sortValueIndexes[k]], b[sortValueIndexes[k]])
            if c != 0 { return c }
        }
        return aID < bID ? -1 : (aID > bID ? 1 : 0)
    }

    /// The sort prefix of a row given its values (in `valueKeyPaths` order).
    func prefix(of values: [StoreValue], short: Bool = false) -> SortPrefix {
        // The closures capture the indexes alone: capturing `self` copied the whole plan for every row.
        let indexes = sortValueIndexes
        if short, let shortEncoder { return shortEncoder.encode { values[indexes[$0 + 1]] } }
        return encoder.encode { values[indexes[$0]] }
    }

    /// Whether the row with these values is fetched.
    func matches(_ values: [StoreValue]) -> Bool {
        guard let p = request.predicate else { return true }
        return p.matches({ k in valueIndex[k].map { values[$0] } ?? .null }, affinity: { valueAffinities[$0] ?? nil })
    }

    /// Whether a change of `keys` (as a change set reports them) can move the object or change its membership.
    func isRelevant(_ keys: Set<String>) -> Bool {
        if keys.isEmpty { return true }
        return keys.contains { relevantKeys.contains($0) }
    }
}

// MARK: Preview queries

extension FetchPlan {
    /// Whether the fetch orders by a section sort the controller prepended (a derived section key).
    var hasPrependedSectionSort: Bool { fetchSQLWithoutSectionSort != nil }

    /// The first `limit` rows of the fetch's query, in its order: `fetchSelectFrom WHERE … ORDER BY … LIMIT n`.
    ///
    /// - requestSortsOnly: order as ``fetchSQLWithoutSectionSort`` does (the request's sorts, without a
    ///   prepended section sort) instead of as ``fetchSQL`` does.
    /// - narrowedBy: index into ``sorts`` of a *descending* sort that the rows are narrowed by:
    ///   only rows whose value is at least a bound `?` (appended after ``fetchArguments``). Every
    ///   row below that value, or NULL, comes after every row at or above it, so when at least
    ///   `limit` rows are at or above it, the first `limit` rows are the fetch's first `limit`, and
    ///   SQLite reads them from an index on that value (a `LEFT JOIN`ed to-one attribute too: the
    ///   condition lets SQLite join the other way round) instead of sorting every row.
    func previewSQL(limit: Int, requestSortsOnly: Bool, narrowedBy sortIndex: Int?) -> String {
        var conditions: [String] = []
        if let p = predicateSQL { conditions.append("(" + p.sql + ")") }
        if let i = sortIndex { conditions.append("\(sortExpressions[i]) COLLATE \(sorts[i].collation.sqlName) >= ?") }
        var sql = fetchSelectFrom
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let skip = requestSortsOnly && hasPrependedSectionSort ? 1 : 0
        sql +=
            " ORDER BY "
            + FetchSort.orderBy(
                sorts: Array(sorts.dropFirst(skip)),
                expressions: Array(sortExpressions.dropFirst(skip)),
                id: source.idExpression
            )
        return sql + " LIMIT \(max(0, limit))"
    }

    /// The value the `limit`-th matching row has for the descending sort `sortIndex`, counting
    /// only rows where it is not NULL (no row: fewer than `limit` such rows). Reads the sort's
    /// index when it has one: `SELECT e FROM … WHERE … AND e IS NOT NULL ORDER BY e DESC LIMIT 1 OFFSET limit − 1`.
    func previewThresholdSQL(sortIndex: Int, limit: Int) -> String {
        let e = sortExpressions[sortIndex]
        var sql = "SELECT \(e) FROM \(source.from) WHERE "
        if let p = predicateSQL { sql += "(" + p.sql + ") AND " }
        sql += "\(e) IS NOT NULL ORDER BY \(e) COLLATE \(sorts[sortIndex].collation.sqlName) DESC"
        return sql + " LIMIT 1 OFFSET \(max(0, limit - 1))"
    }
}
