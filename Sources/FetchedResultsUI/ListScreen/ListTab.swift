import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// One tab of a ``ListScreen``: a fetch configuration (an entity, a sort, a
/// section key path and its index) and how its rows look.
///
/// The screen makes one controller per tab (and per filter) from it; the
/// unfiltered one keeps a results cache under ``cacheName``, which the screen
/// fills in the background for the tabs not showing, so that the first switch
/// to them is quick. ``searchKeyPaths`` say what `/` matches: the text is
/// looked for in each (`CONTAINS[c]`, ASCII letters in any case), through a
/// controller, never by SQL of the app's own.
///
///     var byName = ListTab(title: "Name", entity: "Student",
///                          sortDescriptors: [FetchSort("name", comparison: .caseInsensitive)],
///                          sectionNameKeyPath: "nameInitial",
///                          cell: { student in TableCell(title: student.string("name") ?? "") })
///     byName.searchKeyPaths = ["name"]
///     byName.objectName = { $0.string("name") ?? "" }
///     byName.headerTitle = { section in "\(section.name) (\(section.numberOfObjects))" }
public struct ListTab {
    /// The tab bar label (also the first word of the status line).
    public var title: String
    /// The entity listed.
    public var entity: String
    /// The order (the controller appends the object ID as the last tie-breaker).
    public var sortDescriptors: [FetchSort]
    /// The key path whose value names each section; nil: one unnamed section.
    public var sectionNameKeyPath: String?
    /// The tab's own predicate (fetchedtable's `--where`): the `\\` filter and `/` search narrow it further.
    public var predicate: FetchPredicate?
    /// The index title of a section name (nil: not in the index). Nil: the
    /// controller's default (the name's first letter, uppercased). The same hook, by the same
    /// name, as `FetchedResultsController.sectionIndexTitleProvider`, which the tab's controller gets.
    ///
    ///     tab.sectionIndexTitleProvider = { name in name.isEmpty ? nil : name }   // whole years in the index
    public var sectionIndexTitleProvider: ((String) -> String?)?
    /// Lines per row, for every row of the tab: 2 for `TableCell`'s `.subtitle` style (the default),
    /// 1 for one-line `.value1` or `.default` cells (`TableCell.Style.value1.lineCount`).
    ///
    ///     tab.rowHeight = TableCell.Style.value1.lineCount
    public var rowHeight = TableCell.Style.subtitle.lineCount
    /// The tab's columns, to show it as a grid: one line per row, a header row of the
    /// columns' names, a column cursor (←/→ `h`/`l`) and frozen columns (`!`) — the
    /// same table, sections, index and animations. Nil: the tab is a list of ``cell``s only.
    ///
    ///     tab.grid = ListGrid(columns: [ListColumn("name"), ListColumn("cert", type: .integer)])
    public var grid: ListGrid?
    /// Whether a tab with a ``grid`` shows first as the grid (the default) or as its list of
    /// ``cell``s; ``ListScreen/showsGrid`` switches between them.
    public var startsAsGrid = true
    /// The results cache of the unfiltered fetch (nil: none).
    public var cacheName: String?
    /// Objects loaded per batch.
    public var fetchBatchSize = 40
    /// Whether a reset from another process (a foreign database's `PRAGMA data_version` moved)
    /// is refetched and diffed on the store's second connection instead of on the screen's
    /// thread: keys are never blocked by a large table's refetch; the screen's polling ticker
    /// delivers the batch once it is ready (`FetchedResultsController.refetchesInBackgroundOnReset`).
    public var refetchesInBackgroundOnReset = false
    /// Whether the tab's controllers build the prefixes change sets need only once a change is
    /// coming, not after the first screen (`FetchedResultsController.defersPreparationForChanges`):
    /// for a list that may never change; the app starts the build when it learns of a change.
    public var defersPreparationForChanges = false
    /// The key paths `/` looks for its text in (none: `/` says there is nothing to search).
    public var searchKeyPaths: [String] = []
    /// Overrides ``searchKeyPaths``: the predicate of a search text.
    public var searchPredicate: ((String) throws -> FetchPredicate)?
    /// Overrides both: the objects a search text matches, found by the app in
    /// memory, for fields SQL cannot read (sealed ones: mystash's user IDs and
    /// URLs). The screen keeps those the shown results hold, in their order.
    ///
    ///     tab.searchObjectIDs = { text in try stash.objectIDs(of: .passwords, matching: text) }
    public var searchObjectIDs: ((String) throws -> [ObjectID])?
    /// What `/` searches, for the help and messages ("by name").
    public var searchDescription = "by name"
    /// The objects' noun, singular and plural ("book", "books").
    public var noun: (singular: String, plural: String) = ("item", "items")
    /// Shown when the list is empty.
    public var emptyMessage: String?
    /// The cell of an object (called only for visible rows).
    public var cell: (ManagedObject) -> TableCell
    /// The header of a section (nil: its name).
    public var headerTitle: ((SectionInfo) -> String)?
    /// The header of a section of the provisional first page, whose count is not
    /// known yet (nil: ``headerTitle``'s form cannot be used; the name is shown).
    public var provisionalHeaderTitle: ((String) -> String)?
    /// An object's name in messages ("Deleted Dune — u to undo").
    public var objectName: (ManagedObject) -> String = { _ in "the item" }

    /// A tab listing `entity` in `sortDescriptors`' order, sectioned by `sectionNameKeyPath`.
    public init(
        title: String,
        entity: String,
        sortDescriptors: [FetchSort],
        sectionNameKeyPath: String? = nil,
        cell: @escaping (ManagedObject) -> TableCell
    ) {
        self.title = title
        self.entity = entity
        self.sortDescriptors = sortDescriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cell = cell
    }

    /// The tab's fetch request (its ``predicate``), narrowed by `filter` when there is one.
    ///
    ///     let request = tab.fetchRequest(filter: try FetchPredicate("state == 'CA'"))
    public func fetchRequest(filter: FetchPredicate?) -> FetchRequest {
        let narrowed = predicate.map { own in filter.map { own.and($0) } ?? own } ?? filter
        var request = FetchRequest(entity: entity, predicate: narrowed, sortDescriptors: sortDescriptors)
        request.fetchBatchSize = fetchBatchSize
        return request
    }

    /// A controller for the tab (not fetched yet); only the unfiltered one uses the results cache.
    ///
    ///     let controller = tab.makeController(context: context, filter: nil)
    ///     try controller.performFetch()
    public func makeController(
        context: ObjectContext,
        filter: FetchPredicate?,
        cacheDirectory: String? = nil
    ) -> FetchedResultsController {
        let controller = FetchedResultsController(
            fetchRequest: fetchRequest(filter: filter),
            context: context,
            sectionNameKeyPath: sectionNameKeyPath,
            cacheName: filter == nil ? cacheName : nil,
            cacheDirectory: cacheDirectory
        )
        if let sectionIndexTitleProvider { controller.sectionIndexTitleProvider = sectionIndexTitleProvider }
        controller.refetchesInBackgroundOnReset = refetchesInBackgroundOnReset
        controller.defersPreparationForChanges = defersPreparationForChanges
        return controller
    }

    /// The predicate of search text `text`: ``searchPredicate``, else any of
    /// ``searchKeyPaths`` `CONTAINS[c]` the text; nil when the tab cannot be searched.
    ///
    ///     try tab.predicate(forSearch: "first")   // name CONTAINS[c] "first"
    public func predicate(forSearch text: String) throws -> FetchPredicate? {
        if let searchPredicate { return try searchPredicate(text) }
        guard !searchKeyPaths.isEmpty else { return nil }
        let format = searchKeyPaths.map { _ in "%K CONTAINS[c] %@" }.joined(separator: " OR ")
        return try FetchPredicate(format, arguments: searchKeyPaths.flatMap { [StoreValue.text($0), .text(text)] })
    }
}
