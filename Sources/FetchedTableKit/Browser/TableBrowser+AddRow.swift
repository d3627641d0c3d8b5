import FetchedResultsUI
import SQLiteStore
import TerminalUI

extension TableBrowser {
    /// `a`: the form of a new row of `table` (the library's ``RecordForm``: every column named as
    /// the table names it, DEFAULTs as placeholders, generated columns read-only, NOT NULL marked),
    /// saved through the list's context and undone by `u`; where the table cannot be written (a
    /// view, a CSV file's cache, a read-only file, a query's result) the status line says why.
    func addRowBinding(_ table: CatalogTable, titleKey: String?) -> ListKeyBinding {
        let names = table.columns.map(\.name)
        let form = RecordForm(
            entity: table.name,
            labels: Dictionary(names.map { ($0, $0) }, uniquingKeysWith: { first, _ in first }),
            nameKey: titleKey
        )
        var binding = ListKeyBinding(.character("a"), keys: "a", description: "add a row (a form of the columns)") {
            screen in
            screen.beginAddingRow(with: form)
        }
        binding.helpPlacement = .section("Change")
        return binding
    }
}
