// `FetchRequest`, `FetchPredicate`, `FetchSort` and the store's types for code
// that imports only the controller (they live in SQLiteStore).
@_exported import SQLiteStore
