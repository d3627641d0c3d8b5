// The request and predicate types, which live in SQLiteStore, for code that imports only the
// controller (each type alone: the store's other declarations are SQLiteStore's to document).
@_exported import struct SQLiteStore.FetchPredicate
@_exported import struct SQLiteStore.FetchRequest
@_exported import struct SQLiteStore.FetchSort
@_exported import struct SQLiteStore.PredicateComparison
@_exported import enum SQLiteStore.PredicateError
@_exported import enum SQLiteStore.PredicateOperand
@_exported import enum SQLiteStore.PredicateOperator
@_exported import struct SQLiteStore.SQLFragment
