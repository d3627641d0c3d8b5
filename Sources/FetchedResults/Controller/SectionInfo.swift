import SQLiteStore

/// One section of a controller's results.
///
///     for section in controller.sections {
///         print(section.name, section.indexTitle ?? "", section.numberOfObjects)
///         let first = section.objects.first    // loads one batch
///     }
public struct SectionInfo {
    /// The section key's value as text ("" for NULL, or when there is no section key path).
    public let name: String
    /// The title in the section index (see ``FetchedResultsController/sectionIndexTitle(forSectionName:)``).
    public let indexTitle: String?
    /// The number of objects in the section (known without loading any of them).
    public let numberOfObjects: Int
    /// The section's objects, loaded lazily in batches.
    public let objects: FetchedObjects
    /// True for the section of the objects whose section key is NULL, which is named "" as a section
    /// of empty text is: this tells the two apart (`(none)` and `(empty)` in the apps' lists). Also
    /// true for the one section of a controller without a section key path; false in the
    /// description of a deleted section, which a batch gives by its name only.
    public let isNullKey: Bool

    init(name: String, indexTitle: String?, numberOfObjects: Int, objects: FetchedObjects, isNullKey: Bool = false) {
        self.name = name
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.objects = objects
        self.isNullKey = isNullKey
    }
}
