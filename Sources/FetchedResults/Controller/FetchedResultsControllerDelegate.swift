import Foundation
import SQLiteStore

/// Receives a controller's change batches call by call, in the order UIKit's
/// batch updates want: will-change, section changes, object changes, did-change.
///
/// Every method has a default (empty) implementation. Setting a delegate turns
/// change tracking on (rule 9 of <doc:ChangeBatches>); without a delegate or ``FetchedResultsController/onChange``
/// the controller does not even observe its context.
///
///     final class Adapter: FetchedResultsControllerDelegate {
///         func controllerWillChangeContent(_ c: FetchedResultsController) { table.beginUpdates() }
///         func controller(_ c: FetchedResultsController, didChange section: SectionInfo,
///                         atSectionIndex index: Int, for type: ChangeType) { … }
///         func controller(_ c: FetchedResultsController, didChange objectID: ObjectID,
///                         at indexPath: IndexPath?, for type: ChangeType, newIndexPath: IndexPath?) { … }
///         func controllerDidChangeContent(_ c: FetchedResultsController) { try? table.endUpdates() }
///     }
///     controller.delegate = adapter
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A batch begins.
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// A section was inserted (new index) or deleted (old index). A deleted
    /// section's info has its name, index title and former count; its objects are empty.
    func controller(
        _ controller: FetchedResultsController,
        didChange section: SectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: ChangeType
    )
    /// An object was inserted (`newIndexPath`), deleted (`indexPath`), moved or updated (both).
    func controller(
        _ controller: FetchedResultsController,
        didChange objectID: ObjectID,
        at indexPath: IndexPath?,
        for type: ChangeType,
        newIndexPath: IndexPath?
    )
    /// The batch is complete; the controller's state is the new one.
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// The index title of a section; nil means the default (the name's first character, uppercased).
    func controller(
        _ controller: FetchedResultsController,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    public func controller(
        _ controller: FetchedResultsController,
        didChange section: SectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: ChangeType
    ) {}
    public func controller(
        _ controller: FetchedResultsController,
        didChange objectID: ObjectID,
        at indexPath: IndexPath?,
        for type: ChangeType,
        newIndexPath: IndexPath?
    ) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    public func controller(
        _ controller: FetchedResultsController,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? { nil }
}
