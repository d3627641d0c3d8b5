import SQLiteStore

/// Why a ``FetchedResultsController`` could not fetch.
///
///     do { try controller.performFetch() }
///     catch let error as FetchedResultsError { print(error) }
///     // the fetch request for Book has no sort descriptors; a fetched results controller needs at least one
public enum FetchedResultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Rule 1 of <doc:ChangeBatches>: a controller needs at least one sort descriptor.
    case noSortDescriptors(entity: String)
    /// Rule 1 of <doc:ChangeBatches>: with a section key path, the first sort must order by the section key.
    case sectionKeyNotOrdered(sectionKeyPath: String, firstSort: String, reason: String)
    /// The request names an entity the store's model does not have.
    case unknownEntity(String)
    /// A cache name that cannot be used as a file name.
    case invalidCacheName(String)

    public var description: String {
        switch self {
        case .noSortDescriptors(let e):
            return "the fetch request for \(e) has no sort descriptors; a fetched results controller needs at least one"
        case .sectionKeyNotOrdered(let section, let first, let reason):
            return "section key path \"\(section)\" does not match the first sort descriptor (\(first)): \(reason)"
        case .unknownEntity(let e):
            return "unknown entity \"\(e)\""
        case .invalidCacheName(let n):
            return "invalid cache name \"\(n)\" (use letters, digits, '-', '_' and '.')"
        }
    }
}
