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

    init(name: String, indexTitle: String?, numberOfObjects: Int, objects: FetchedObjects) {
        self.name = name
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.objects = objects
    }
}
