import Foundation

/// The operations recorded between `beginUpdates()` and `endUpdates()`, as given.
///
/// Coordinates as UIKit: deletes, reloads and move sources in the old
/// numbering; inserts and move destinations in the new one.
struct TableUpdateBatch {
    var insertedRows: [IndexPath] = []
    var deletedRows: [IndexPath] = []
    var reloadedRows: [IndexPath] = []
    var movedRows: [(from: IndexPath, to: IndexPath)] = []
    var insertedSections: [Int] = []
    var deletedSections: [Int] = []
    var reloadedSections: [Int] = []

    var isEmpty: Bool {
        insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty && movedRows.isEmpty
            && insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty
    }
}
