import SQLiteStore

/// A grouped request compiled against a model: the SQL a ``GroupedResultsController``
/// runs, and which changed keys can move a row to another group or in or out of the
/// counted rows.
///
/// Groups are made by SQLite's own equality on the key path's value, in the binary
/// collation whatever the column declares (`GROUP BY … COLLATE BINARY`): the same
/// groups as the section names of a controller sectioned by the key path.
///
///     let plan = try GroupPlan(request: request, groupKeyPath: "state", model: store.model)
///     plan.groupBySQL   // SELECT t0.state, count(*) FROM … WHERE … GROUP BY 1 COLLATE BINARY
struct GroupPlan: Sendable {
    let request: FetchRequest
    let entity: Entity
    let groupKeyPath: String
    /// The group key path's SQL expression.
    let groupExpression: String
    let predicateSQL: SQLFragment?
    /// Changed keys that can change a row's group or whether it is counted.
    let relevantKeys: Set<String>
    /// `SELECT group, count(*) FROM … [WHERE …] GROUP BY …`: the groups.
    let groupBySQL: String
    /// `SELECT id, group FROM … [WHERE …]`: every counted row's group, in no particular order.
    let membershipSQL: String
    /// The row controller's plan of the same rows ordered by the group key: its values query reads
    /// a change set's rows (``RowValuesReader``: on two connections when there are many), its
    /// predicate in Swift says which of them are counted (the same answer as SQL's: rule 2 of
    /// <doc:ChangeBatches>).
    let rowPlan: FetchPlan
    /// The index of the group key's value among ``rowPlan``'s values.
    let groupValueIndex: Int
    /// The arguments of the predicate.
    var arguments: [StoreValue] { predicateSQL?.arguments ?? [] }

    init(request: FetchRequest, groupKeyPath: String, model: Model) throws {
        guard let entity = model.entity(named: request.entityName) else {
            throw FetchedResultsError.unknownEntity(request.entityName)
        }
        self.request = request
        self.entity = entity
        self.groupKeyPath = groupKeyPath
        let keyPaths = [groupKeyPath] + (request.predicate?.keyPaths ?? [])
        let source = try model.sqlSource(root: entity.name, keyPaths: keyPaths)
        groupExpression = try source.expression(forKeyPath: groupKeyPath)
        predicateSQL = try request.predicate.map { try $0.sql(in: source) }
        var relevant = Set<String>()
        for keyPath in keyPaths {
            for key in try FetchPlan.dependencies(of: keyPath, model: model, root: entity) { relevant.insert(key) }
        }
        relevantKeys = relevant
        let id = source.idExpression
        let filter = predicateSQL.map { " WHERE " + $0.sql } ?? ""
        groupBySQL = "SELECT \(groupExpression), count(*) FROM \(source.from)\(filter) GROUP BY 1 COLLATE BINARY"
        membershipSQL = "SELECT \(id), \(groupExpression) FROM \(source.from)\(filter)"
        let ordered = FetchRequest(
            entity: request.entityName,
            predicate: request.predicate,
            sortDescriptors: [FetchSort(groupKeyPath)]
        )
        rowPlan = try FetchPlan(request: ordered, model: model, sectionNameKeyPath: nil)
        groupValueIndex = rowPlan.valueIndex[groupKeyPath] ?? 0
    }

    /// Whether a change of `keys` (as a change set reports them) can move the row to another group or
    /// in or out of the counted rows (an empty set: the keys are unknown).
    func isRelevant(_ keys: Set<String>) -> Bool {
        keys.isEmpty || keys.contains { relevantKeys.contains($0) }
    }

    /// The groups and their counts, read with one `GROUP BY` on `database`.
    func readGroups(on database: Database) throws -> [(value: StoreValue, count: Int)] {
        let statement = try database.statement(groupBySQL)
        defer { statement.reset() }
        try statement.bind(arguments)
        var groups: [(value: StoreValue, count: Int)] = []
        while try statement.step() { groups.append((statement.value(at: 0), Int(statement.int64(at: 1)))) }
        return groups
    }

    /// Every counted row's group (one pass over the rows on `database`), and the groups it makes;
    /// `isCancelled` is asked now and then (a background build that is no longer wanted stops).
    func readMembership(
        on database: Database,
        isCancelled: () -> Bool = { false }
    ) throws -> GroupMembership? {
        let statement = try database.statement(membershipSQL)
        defer { statement.reset() }
        try statement.bind(arguments)
        var membership = GroupMembership()
        var rows = 0
        while try statement.step() {
            membership.add(row: statement.int64(at: 0), value: statement.value(at: 1))
            rows += 1
            if rows & 0xFFFF == 0, isCancelled() { return nil }
        }
        return membership
    }

    /// The groups of the rows `ids` that are counted now (the others are left out), read by the row
    /// controller's reader on `store` (on its two connections when there are many rows).
    func readChangedRows(_ ids: [Int64], store: Store) throws -> [(id: Int64, value: StoreValue)] {
        guard !ids.isEmpty else { return [] }
        var reader = RowValuesReader(store: store, plan: rowPlan)
        return try reader.read(ids).compactMap { row in
            rowPlan.matches(row.values) ? (row.id, row.values[groupValueIndex]) : nil
        }
    }
}

/// Which group every counted row is in, made by one pass over the rows: what lets a change
/// set of row ids be counted (a deleted row's group is known only from here).
///
/// Each row maps to its group's ordinal in ``table`` (4 bytes a row while the row ids are
/// compact: ``RowIDMap``); the table's groups are numbered in the order they were met.
struct GroupMembership {
    /// The group ordinal of each counted row.
    var rows = RowIDMap()
    /// The groups the rows make.
    var table: GroupTable {
        GroupTable(groups: zip(values, counts).map { ($0, $1) })
    }
    private var values: [StoreValue] = []
    private var counts: [Int] = []
    private var numbers: [StoreValue: Int32] = [:]

    /// Adds a row of the group of `value`.
    mutating func add(row id: Int64, value: StoreValue) {
        let identity = FetchedResultsController.sectionIdentity(value)
        let number: Int32
        if let known = numbers[identity] {
            number = known
        } else {
            number = Int32(values.count)
            numbers[identity] = number
            values.append(value)
            counts.append(0)
        }
        rows[id] = number
        counts[Int(number)] += 1
    }
}
