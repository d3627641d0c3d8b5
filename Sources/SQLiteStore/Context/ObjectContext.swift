import Foundation

/// A scratchpad of objects over a ``Store``: the `NSManagedObjectContext` analogue.
///
/// The context keeps one ``ManagedObject`` per row (identity map), tracks
/// inserts, attribute changes and deletes until ``save()`` writes them in one
/// transaction, and then publishes a ``ChangeSet`` to its observers. Saves can
/// be undone and redone. Writes by other processes (or other connections) are
/// picked up by ``processExternalChanges()``, called from the run loop.
///
/// A context is used from one thread (it is not `Sendable`). The identity
/// map holds objects weakly unless they have unsaved changes: an object you
/// keep is the one you get again; one nobody keeps is reloaded when next asked for.
///
///     let context = ObjectContext(store: store)
///     context.addObserver { changes in print(changes) }
///     let book = context.insert(into: "Book")
///     book["name"] = .text("Dune")
///     try context.save()                    // publishes inserted: [Book/1]
///     context.delete(book)
///     try context.save()                    // deleted (and cascaded details)
///     try context.undo()                    // the row returns with the same id
public final class ObjectContext {
    /// The store the context reads from and saves to.
    public let store: Store
    var database: Database { store.database }
    var model: Model { store.model }

    var registry: [ObjectID: WeakObject] = [:]
    var registryPurgeThreshold = 4096
    /// Objects with unsaved changes, held strongly until save or rollback.
    var dirty: [ObjectIdentifier: ManagedObject] = [:]
    var nextTemporaryRowID: Int64 = -1
    var pendingErrors: [StoreError] = []
    var observers: [(token: ObserverToken, body: (ChangeSet) -> Void)] = []
    var nextObserverID = 0
    /// Each undoable save (or undo, on the redo stack): every row it changed, cascades and
    /// triggers included, and the name it was saved with.
    struct UndoEntry {
        var name: String?
        var log: RowChangeLog
        /// The write that made the log: the save, or the undo or redo that reverted another.
        var madeBy: SaveHook.Write = .save
    }
    var undoStack: [UndoEntry] = []
    var redoStack: [UndoEntry] = []
    var historyReader: HistoryReader?
    var selectColumns: [String: String] = [:]
    /// Row ids the inserts of the save being written were given (temporary id → row id).
    var permanent: [ObjectID: Int64] = [:]
    /// The values SQLite gave the attributes the inserts of the save being written did not set
    /// (their DEFAULTs, generated columns), by object and attribute index.
    var filledByInsert: [ObjectIdentifier: [Int: StoreValue]] = [:]

    /// How many saves can be undone.
    public var undoLimit = 100

    /// A context over `store`; its history position starts at the store's current end.
    public init(store: Store) {
        self.store = store
        self.historyReader = try? HistoryReader(store: store)
    }

    // MARK: Identity map

    func registered(_ id: ObjectID) -> ManagedObject? { registry[id]?.object }

    func register(_ object: ManagedObject) {
        registry[object.objectID] = WeakObject(object: object)
        if registry.count > registryPurgeThreshold {
            registry = registry.filter { $0.value.object != nil }
            registryPurgeThreshold = max(4096, registry.count * 2)
        }
    }

    func unregister(_ object: ManagedObject) {
        if registry[object.objectID]?.object === object { registry.removeValue(forKey: object.objectID) }
    }

    /// Number of live objects in the identity map (for tests and diagnostics).
    package var registeredObjectCount: Int { registry.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) } }

    func noteChange(_ object: ManagedObject) {
        if object.hasChanges {
            beginEditing(object)
        } else {
            object.editBase = nil
            dirty.removeValue(forKey: ObjectIdentifier(object))
        }
    }

    /// Holds `object` until save or rollback; at its first change, notes the state it was read
    /// in, which the save checks the row against (``SaveConflict``).
    func beginEditing(_ object: ManagedObject) {
        if object.editBase == nil, !object.isInserted {
            object.editBase = (object.committedValues, object.committedLinks)
        }
        dirty[ObjectIdentifier(object)] = object
    }

    func recordError(_ error: StoreError) {
        pendingErrors.append(error)
    }
}
