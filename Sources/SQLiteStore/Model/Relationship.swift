/// What happens to the other side when an object is deleted.
public enum DeleteRule: Sendable, Hashable {
    /// Delete the related object too.
    case cascade
    /// Clear the related object's link back.
    case nullify
}

/// A to-one relationship with its inverse.
///
/// Exactly one side of a pair stores the link: the side with
/// `storesForeignKey` has the column `<snake_name>_id REFERENCES <destination>(id)`.
/// The delete rule says what deleting *this* side's object does to the related object.
///
///     // BookDetails.book stores the key (column book_id); deleting a book deletes its details:
///     Relationship("book", destination: "Book", inverse: "details", storesForeignKey: true)
///     Relationship("details", destination: "BookDetails", inverse: "book", deleteRule: .cascade, storesForeignKey: false)
public struct Relationship: Sendable, Hashable {
    /// The relationship's name, used in key paths (`details.publishedOn`).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// The name of the inverse relationship on the destination.
    public var inverse: String
    /// What deleting this side's object does to the related one.
    public var deleteRule: DeleteRule
    /// True on the side whose table holds the foreign key column.
    public var storesForeignKey: Bool
    /// The foreign key column, `<snake_name>_id` (meaningful only when `storesForeignKey`).
    public var columnName: String

    /// A to-one relationship; exactly one side of a pair has `storesForeignKey`.
    public init(
        _ name: String,
        destination: String,
        inverse: String,
        deleteRule: DeleteRule = .nullify,
        storesForeignKey: Bool
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.storesForeignKey = storesForeignKey
        self.columnName = snakeCase(name) + "_id"
    }
}
