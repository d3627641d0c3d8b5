import SQLiteStore

/// One row of a controller's preview (`FetchedResultsController/previewFirstObjects(limit:)`):
/// an object ID and the section it falls in, without the section's size (not known before the
/// full fetch).
///
///     for row in try controller.previewFirstObjects(limit: 20) {
///         print(row.sectionName, row.objectID)
///     }
package struct FetchedPreviewRow: Sendable, Hashable {
    /// The object shown in the row.
    package var objectID: ObjectID
    /// The name of its section, as ``SectionInfo/name`` will give it ("" without a section key path or for NULL).
    package var sectionName: String
    /// Its section's index title, as ``SectionInfo/indexTitle`` will give it.
    package var sectionIndexTitle: String?

    /// A preview row (the controller makes them; tests may too).
    package init(objectID: ObjectID, sectionName: String, sectionIndexTitle: String?) {
        self.objectID = objectID
        self.sectionName = sectionName
        self.sectionIndexTitle = sectionIndexTitle
    }
}
