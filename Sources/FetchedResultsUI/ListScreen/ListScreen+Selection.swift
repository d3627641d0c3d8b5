import FetchedResults
import SQLiteStore

extension ListScreen {
    /// The object selected in the list (its batch loaded), nil when nothing is selected and while
    /// ``isLoading`` (the provisional first page has no objects to select yet).
    ///
    ///     ListKeyBinding(.character("e"), keys: "e", description: "edit") { screen in
    ///         if let book = screen.selectedObject { edit(book) }
    ///     }
    public var selectedObject: ManagedObject? {
        isLoading ? nil : adapter?.selectedObject
    }

    /// The ID of ``selectedObject``, nil when nothing is selected and while ``isLoading``.
    package var selectedObjectID: ObjectID? {
        isLoading ? nil : adapter?.selectedObjectID
    }
}
