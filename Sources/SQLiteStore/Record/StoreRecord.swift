import Foundation

/// A Swift type that maps itself to an entity of the model and back: the
/// typed way to read and write objects, in the spirit of GRDB's records.
///
/// A record reads its values by key from a ``RecordRow`` (typed: the type of
/// each property picks the conversion, see ``StoreValueConvertible``) and
/// writes them into a ``RecordContainer``. Keys are those of ``ManagedObject``:
/// attribute names, derived attributes, relationships (their row id) and key
/// paths through to-one relationships for reading. A key the entity does not
/// have, or a value of the wrong kind, is an error that names the key: reading
/// throws; writing makes the next `save()` throw, as the object's own
/// subscript does.
///
///     struct Student: StoreRecord {
///         static let entityName = "Student"
///         var name: String
///         var number: Int
///         var subject: String?
///
///         init(name: String, number: Int, subject: String?) {
///             self.name = name; self.number = number; self.subject = subject
///         }
///         init(row: RecordRow) throws {
///             name = try row["name"]
///             number = try row["number"]
///             subject = try row["subject"]
///         }
///         func encode(to container: inout RecordContainer) {
///             container["name"] = name
///             container["number"] = number
///             container["subject"] = subject
///         }
///     }
///
///     let object = context.insert(Student(name: "Ada", number: 7, subject: "Maths"))
///     try context.save()
///     let ada = try object.record(as: Student.self)
///     let all = try context.fetchRecords(Student.self, orderBy: "number")
public protocol StoreRecord {
    /// The name of the entity the type maps to.
    static var entityName: String { get }
    /// Reads a record from one object's values.
    init(row: RecordRow) throws
    /// Writes the record's values into an object.
    func encode(to container: inout RecordContainer)
}

/// The values of one object, read with the types a ``StoreRecord`` asks for.
///
///     init(row: RecordRow) throws {
///         name = try row["name"]                        // String: NULL or a number is an error
///         published = try row["details.publishedOn"]   // Date?: through a to-one relationship
///     }
public struct RecordRow {
    /// The object being read.
    public let object: ManagedObject

    /// The values of `object`.
    public init(object: ManagedObject) { self.object = object }

    /// The object's ID (temporary until its first save).
    public var objectID: ObjectID { object.objectID }

    /// The value of `key` (a key path through to-one relationships), converted to `T`.
    ///
    /// - Throws: ``StoreError/unknownKeyPath(_:entity:)`` for a key the entity does not have,
    ///   ``StoreError/validation(entity:key:reason:)`` for a value that is not a `T`.
    public subscript<T: StoreValueConvertible>(key: String) -> T {
        get throws {
            guard object.entity.hasKeyPath(key, in: object.context?.model) else {
                throw StoreError.unknownKeyPath(key, entity: object.entity.name)
            }
            let value = object.value(forKeyPath: key)
            guard let converted = T(storeValue: value) else {
                throw StoreError.validation(
                    entity: object.entity.name,
                    key: key,
                    reason: "\(value) is not a value of type \(T.self)"
                )
            }
            return converted
        }
    }
}

/// Where a ``StoreRecord`` writes its values: one object's attributes and relationships.
///
///     func encode(to container: inout RecordContainer) {
///         container["name"] = name           // any StoreValueConvertible; nil writes NULL
///         container["birthdate"] = birthdate // a Date into a `.date` attribute keeps the day
///     }
public struct RecordContainer {
    /// The object being written.
    public let object: ManagedObject

    /// A container writing into `object`.
    public init(object: ManagedObject) { self.object = object }

    /// The stored value of `key`; setting converts the Swift value and marks the key changed.
    public subscript(key: String) -> (any StoreValueConvertible)? {
        get { object[key] }
        set {
            var value = newValue?.storeValue ?? .null
            if let date = newValue as? Date, object.entity.attribute(named: key)?.type == .date {
                value = .date(date)
            }
            object[key] = value
        }
    }
}

extension Entity {
    /// Whether `keyPath` names something an object of this entity can read.
    func hasKeyPath(_ keyPath: String, in model: Model?) -> Bool {
        guard let dot = keyPath.firstIndex(of: ".") else {
            return keyPath == "id" || attribute(named: keyPath) != nil || derivedAttribute(named: keyPath) != nil
                || relationship(named: keyPath) != nil
        }
        guard let relationship = relationship(named: String(keyPath[..<dot])),
            let destination = model?.entity(named: relationship.destination)
        else { return false }
        return destination.hasKeyPath(String(keyPath[keyPath.index(after: dot)...]), in: model)
    }
}
