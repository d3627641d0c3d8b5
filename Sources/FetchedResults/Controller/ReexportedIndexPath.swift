// `IndexPath(row:section:)`, `.section` and `.row` for code that imports only
// the controller (see the TableIndexPath module).
@_exported import TableIndexPath
