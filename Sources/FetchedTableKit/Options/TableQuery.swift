import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import SQLiteStore

/// The options checked against one table's columns: the fetch request's sorts,
/// the section key (and the derived attributes the model needs), the cell's
/// title and subtitle keys, the predicate. Every name the options give must be
/// a column of the table (or the section key); a wrong one is a usage error
/// that names the columns there are.
///
///     let query = try TableQuery(options: options, table: "student",
///                                columns: [TableColumn(name: "name", type: .text), TableColumn(name: "subject", type: .text)],
///                                idKey: "rowid")
///     query.sortDescriptors     // [subject, …]
package struct TableQuery {
    /// The table's name.
    package var table: String
    /// What the table is called on screen (the tab, the title bar, the detail view): its name, or
    /// for a query's result the query's title (``QuerySource/title``), not the result's own table.
    package var label: String
    /// Its columns, in table order.
    package var columns: [TableColumn]
    /// The key path that orders by the row id or primary key (the default sort).
    package var idKey: String
    /// The order, with the section key first when the sorts do not already order by it.
    package var sortDescriptors: [FetchSort]
    /// The sorts as given (or the default), before the section key was put in front.
    package var requestedSort: SortSpecification
    /// The section key, if any.
    package var section: SectionKeySpecification?
    /// The cell's first line.
    package var titleKey: String
    /// The cell's second line, joined with ` · `.
    package var subtitleKeys: [String]
    /// The grid's columns in their order: `--columns`, else every column.
    package var gridKeys: [String]
    /// Whether the browser shows the grid first (no `--title` nor `--subtitle` asked for the list).
    package var startsAsGrid: Bool
    /// Whether `--title` named the title column (the grid then keeps it frozen on the left).
    package var titleIsChosen: Bool
    /// `--where`.
    package var predicate: FetchPredicate?
    /// The text of `--where`.
    package var predicateText: String?
    /// Per column, the companion column holding its values as the file wrote them (a CSV file's real
    /// columns: `3`, `1.10`), which are shown instead of the number's own text.
    package var writtenForms: [String: String] = [:]
    /// Per column, the label its values are shown under when it is not its name alone: a server
    /// table's `timestamptz` column says the zone its times are in once, `placed_at (Europe/Paris)`.
    package var columnLabels: [String: String] = [:]
    /// How the rows are ordered when it is not by SQLite's order of the values: a server table's
    /// copy sorts as the server does (``ServerOrder``); nil for a file's own table.
    package var serverOrder: ServerOrder? {
        didSet {
            sortDescriptors = TableQuery.sortDescriptors(
                requestedSort,
                section: section,
                order: serverOrder,
                localTime: localTimeColumns
            )
        }
    }

    /// A server's `ORDER BY` over a copy of its table: NULL above every value (last ascending,
    /// first descending), and the columns whose values SQLite would sort otherwise ordered by
    /// their order columns (numbers kept as text, enums, collations: PostgreSQLReplica's
    /// `ReplicaColumn.orderColumn`).
    package struct ServerOrder: Equatable, Sendable {
        /// Per column, the hidden column whose keys sort as the server orders it.
        package var orderColumns: [String: String]

        /// An order with these order columns.
        package init(orderColumns: [String: String]) { self.orderColumns = orderColumns }
    }

    /// Checks `options` against `columns` of `table` (shown as `label`: a query's title, when given).
    ///
    /// - Throws: ``FetchedTableError`` 64 naming the option and the columns there are (in "the
    ///   query's result" when a `label` is given).
    package init(
        options: TableOptions,
        table: String,
        label: String? = nil,
        columns: [TableColumn],
        idKey: String
    ) throws(FetchedTableError) {
        self.table = table
        self.label = label ?? table
        let place = label == nil ? "table \"\(table)\"" : "the query's result"
        self.idKey = idKey
        var columns = columns
        let names = Set(columns.map(\.name))
        let list = columns.map(\.name).joined(separator: ", ")
        func check(_ column: String, _ option: String) throws(FetchedTableError) {
            guard names.contains(column) else {
                throw .usage("\(option): no column \"\(column)\" in \(place); its columns: \(list)")
            }
        }
        // --type: how the values read (a CSV file's cache stores them so already: then nothing changes).
        for given in options.columnTypes {
            try check(given.column, "--type")
            guard let index = columns.firstIndex(where: { $0.name == given.column }),
                columns[index].type != given.attributeType
            else { continue }
            columns[index].type = given.attributeType
            columns[index].typeIsChecked = false
        }
        self.columns = columns
        section = options.section
        if let section { try check(section.column, "--section") }
        let sort = options.sort ?? SortSpecification(keys: [.init(column: idKey)])
        for key in sort.keys where key.column != idKey && key.column != section?.keyPath {
            try check(key.column, "--sort")
        }
        requestedSort = sort
        sortDescriptors = TableQuery.sortDescriptors(
            sort,
            section: section,
            order: nil,
            localTime: Set(columns.filter(\.readsInLocalTime).map(\.name))
        )
        if let title = options.title { try check(title, "--title") }
        titleKey = options.title ?? (columns.first(where: \.isTextual) ?? columns.first)?.name ?? idKey
        if let subtitle = options.subtitle {
            for key in subtitle { try check(key, "--subtitle") }
            subtitleKeys = subtitle
        } else {
            subtitleKeys = TableQuery.defaultSubtitle(after: titleKey, in: columns)
        }
        if let chosen = options.columns {
            for key in chosen { try check(key, "--columns") }
            gridKeys = chosen
        } else {
            gridKeys = columns.map(\.name)
        }
        startsAsGrid = options.title == nil && options.subtitle == nil
        titleIsChosen = options.title != nil
        predicateText = options.predicate
        if let text = options.predicate {
            let predicate: FetchPredicate
            do {
                predicate = try FetchPredicate(text)
            } catch {
                throw .usage("--where: \(error)")
            }
            // Only the table's columns (and the section key): never SQLite's hidden row id under
            // a name the table does not have (`id`).
            for keyPath in predicate.keyPaths where keyPath != section?.keyPath {
                try check(keyPath, "--where")
            }
            if let mismatch = TableQuery.uncomparable(predicate.expression, columns: columns) {
                throw .usage("--where: \(mismatch)")
            }
            self.predicate = predicate
        }
    }

    /// Why a comparison of `tree` can never compare as meant, when one cannot: a value compared with
    /// a column whose every value is known to be of another kind (a CSV file's column, typed from all its
    /// values) — a number with a column of dates (under the column's affinity `2020` stays a number, which
    /// no date equals or orders among), text that is no number with a column of numbers (`'NA'`).
    static func uncomparable(_ tree: PredicateTree, columns: [TableColumn]) -> String? {
        switch tree {
        case .alwaysTrue, .alwaysFalse: return nil
        case .not(let inner): return uncomparable(inner, columns: columns)
        case .and(let a, let b), .or(let a, let b):
            return uncomparable(a, columns: columns) ?? uncomparable(b, columns: columns)
        case .comparison(let comparison):
            guard !comparison.op.isStringOperator else { return nil }
            var pairs: [(String, StoreValue)] = []
            switch (comparison.left, comparison.right) {
            case (.keyPath(let key), .value(let value)), (.value(let value), .keyPath(let key)):
                pairs =
                    comparison.op == .in || comparison.op == .between
                    ? comparison.list.map { (key, $0) } : [(key, value)]
            default: return nil
            }
            for (key, value) in pairs {
                guard let column = columns.first(where: { $0.name == key }), column.typeIsChecked else { continue }
                if let reason = uncomparable(value, with: column) { return reason }
            }
            return nil
        }
    }

    /// `column` as a predicate names it: as it is when it is an identifier (`close_date`), else in double
    /// quotes (`"Closing Date"`, a quote doubled).
    ///
    ///     TableQuery.predicateName("Closing Date")   // "\"Closing Date\""
    static func predicateName(_ column: String) -> String {
        let isIdentifier =
            column.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
            && column.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return isIdentifier ? column : "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Why `value` compared with `column` (every value of it of its type) never compares as meant, if so.
    static func uncomparable(_ value: StoreValue, with column: TableColumn) -> String? {
        let name = predicateName(column.name)
        let holdsDates = column.type == .date || column.type == .dateTime
        let holdsNumbers = column.type == .integer || column.type == .real
        switch value {
        case .integer where holdsDates, .real where holdsDates:
            return "\(name) holds dates, which no number equals or orders among; compare it with a date "
                + "(\(name) >= 2020-01-01)"
        case .text(let text) where holdsDates && TypeAffinity.number(fromText: text) != nil:
            return "\(name) holds dates, and '\(text)' is compared with them as the number \(text); compare it with "
                + "a date (\(name) >= 2020-01-01)"
        case .text(let text) where holdsNumbers && TypeAffinity.number(fromText: text) == nil:
            return "\(name) holds numbers, which the text '\(text)' never equals or orders among"
                + " (a missing value is nil: \(name) == nil)"
        default: return nil
        }
    }

    /// `sort`'s descriptors, with the section key in front when the first sort does not
    /// order by it (nor by the column a derived key is read from: the controller then
    /// orders by the key itself, and keeps using an index on the column). With a server's
    /// `order`, NULL sorts above every value, and a column with an order column is sorted by
    /// it — except the first sort's when the sections are of its column, which the controller
    /// orders by that column's own values.
    ///
    /// A column of `localTime` (date-times with offsets, ``localTimeColumns``) sorts by its local time
    /// (``localTimeKey(_:)``): by the instants. Sectioned by its `year()`, `month()` or `day()`, the
    /// rows are in the section's order first, then the local time's.
    static func sortDescriptors(
        _ sort: SortSpecification,
        section: SectionKeySpecification?,
        order: ServerOrder?,
        localTime: Set<String> = []
    ) -> [FetchSort] {
        let nulls: FetchSort.NullOrder = order == nil ? .least : .greatest
        var descriptors: [FetchSort] = []
        for (index, key) in sort.keys.enumerated() {
            let sectioned = index == 0 && section.map { key.column == $0.keyPath || key.column == $0.column } == true
            if localTime.contains(key.column), let section, sectioned, section.derivation != nil {
                descriptors.append(FetchSort(section.keyPath, ascending: key.ascending, nulls: nulls))
                descriptors.append(FetchSort(localTimeKey(key.column), ascending: key.ascending, nulls: nulls))
                continue
            }
            let keyPath =
                sectioned
                ? key.column
                : localTime.contains(key.column)
                    ? localTimeKey(key.column) : order?.orderColumns[key.column] ?? key.column
            descriptors.append(FetchSort(keyPath, ascending: key.ascending, nulls: nulls))
        }
        guard let section, let first = sort.keys.first else { return descriptors }
        if first.column == section.keyPath || first.column == section.column { return descriptors }
        descriptors.insert(FetchSort(section.keyPath, nulls: nulls), at: 0)
        return descriptors
    }

    /// The two columns after `title` in table order (wrapping round to the first ones).
    static func defaultSubtitle(after title: String, in columns: [TableColumn]) -> [String] {
        guard let index = columns.firstIndex(where: { $0.name == title }) else {
            return Array(columns.prefix(2).map(\.name))
        }
        let rotated = columns[(index + 1)...] + columns[..<index]
        return Array(rotated.prefix(2).map(\.name))
    }

    /// The section key's derived attribute, and those of every key ``sectionKeyChoices`` offers
    /// (the model has them all, so that `S` can choose another without reopening the store).
    package var derivedAttributes: [DerivedAttribute] {
        var seen = Set<String>()
        let given: [SectionKeySpecification] = [section].compactMap { $0 } + sectionKeyChoices.compactMap { $0 }
        let keys = given.compactMap { key -> DerivedAttribute? in
            let column = columns.first { $0.name == key.column }
            let datesOnly = column.map { $0.typeIsChecked && ($0.type == .date || $0.type == .dateTime) } ?? false
            let local = column?.readsInLocalTime ?? false
            guard let attribute = key.derivedAttribute(valuesAreDates: datesOnly, inLocalTime: local),
                seen.insert(attribute.name).inserted
            else { return nil }
            return attribute
        }
        // What a column of date-times with offsets sorts by: the local time, in the order of the instants.
        let localTimes = columns.filter(\.readsInLocalTime).map {
            DerivedAttribute.localTime(TableQuery.localTimeKey($0.name), of: $0.name)
        }
        return keys + localTimes.filter { seen.insert($0.name).inserted }
    }

    /// The key path a column of date-times with offsets sorts by (``TableColumn/readsInLocalTime``):
    /// its local time, `localtime(placed_at)`.
    static func localTimeKey(_ column: String) -> String { "localtime(\(column))" }

    /// The columns whose date-times are read in the terminal's time zone (``TableColumn/readsInLocalTime``).
    package var localTimeColumns: Set<String> { Set(columns.filter(\.readsInLocalTime).map(\.name)) }

    /// The section keys `S` offers: none, then each column, a text column's initial, and a
    /// date column's year, month and day (``TableColumn/isDateLike``).
    package var sectionKeyChoices: [SectionKeySpecification?] {
        var choices: [SectionKeySpecification?] = [nil]
        for column in columns {
            choices.append(SectionKeySpecification(column: column.name))
            if column.type == .text {
                choices.append(SectionKeySpecification(column: column.name, derivation: .initial))
            }
            if column.isDateLike {
                for derivation in [SectionKeySpecification.Derivation.year, .month, .day] {
                    choices.append(SectionKeySpecification(column: column.name, derivation: derivation))
                }
            }
        }
        return choices
    }

    /// The value of `key` as a person reads it, as ``displayText(of:key:)`` writes it, but nil for
    /// NULL (a grid shows it apart from an empty text).
    package func gridText(of row: ManagedObject, key: String) -> String? {
        if case .null = row.value(forKeyPath: key), writtenForms[key] == nil { return nil }
        return displayText(of: row, key: key)
    }

    /// The value of `key` as a person reads it: as the file wrote it (``writtenForms``), a boolean's
    /// `yes`/`no`, a date-time with an offset in a column of them as the local time
    /// (``localTimeColumns``), any other as ``DisplayText/of(_:)``.
    package func displayText(of row: ManagedObject, key: String) -> String {
        if let companion = writtenForms[key], case .text(let written) = row.value(forKeyPath: companion) {
            return written
        }
        var value = row.value(forKeyPath: key)
        if columns.contains(where: { $0.name == key && $0.readsInLocalTime }) {
            value = DerivedAttribute.localTime(of: value)
        }
        return DisplayText.of(value, type: row.entity.attribute(named: key)?.type)
    }

    /// The same query ordered by `sort` (the section kept in front).
    package func sorted(by sort: SortSpecification) -> TableQuery {
        var copy = self
        copy.requestedSort = sort
        copy.sortDescriptors = TableQuery.sortDescriptors(
            sort,
            section: section,
            order: serverOrder,
            localTime: localTimeColumns
        )
        return copy
    }

    /// The same query sectioned by `section` (nil: none).
    package func sectioned(by section: SectionKeySpecification?) -> TableQuery {
        var copy = self
        copy.section = section
        copy.sortDescriptors = TableQuery.sortDescriptors(
            requestedSort,
            section: section,
            order: serverOrder,
            localTime: localTimeColumns
        )
        return copy
    }
}
