import Foundation
import SQLiteStore

extension FetchedResultsController {
    /// The flat position (0-based, across all sections) of the object with
    /// `objectID`, nil when it is not in the results. O(log N) plus the sections.
    ///
    /// A list screen's "123/572", and a search that keeps its matches in the
    /// controller's order, both need positions rather than index paths.
    ///
    ///     if let position = controller.position(ofObject: book.objectID) {
    ///         status = "\(position + 1)/\(controller.numberOfObjects)"
    ///     }
    public func position(ofObject objectID: ObjectID) -> Int? {
        indexPath(for: objectID).flatMap { position(of: $0) }
    }

    /// The index path of flat position `position`, nil when out of range.
    ///
    ///     let last = controller.indexPath(atPosition: controller.numberOfObjects - 1)
    public func indexPath(atPosition position: Int) -> IndexPath? {
        guard position >= 0, position < numberOfObjects else { return nil }
        return FetchedResultsController.indexPath(of: position, starts: sectionStarts)
    }
}
