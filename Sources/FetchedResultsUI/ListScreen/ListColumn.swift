import FetchedResults
import SQLiteStore
import TerminalUI

/// One column of a ``ListTab`` shown as a grid: its name, the key path of its
/// value, how the value reads and lines up, and what the person made of it
/// (hidden, frozen on the left, a width of their own).
///
/// A number type right-aligns the column; NULL is shown as `∅`, apart from an
/// empty text.
///
///     ListColumn("cert", keyPath: "cert", type: .integer)          // right-aligned
///     ListColumn("closed", keyPath: "closingDate", type: .date)
///     var name = ListColumn("name", keyPath: "name")
///     name.isFrozen = true                                         // stays on the left
public struct ListColumn {
    /// The name in the header row.
    public var name: String
    /// The key path of the value (a plain attribute name, or one through a to-one relationship).
    public var keyPath: String
    /// The value's type, when known: it says how a value reads (a boolean as yes/no) and how
    /// the column lines up (setting it lines integers and reals up on the right, others on the left).
    public var type: AttributeType? {
        didSet { alignment = ListColumn.alignment(of: type) }
    }
    /// How values line up (default: trailing for integers and reals).
    public var alignment: GridColumn.Alignment
    /// The widest the column grows before a value is cut with `…`.
    public var maximumWidth = GridColumn.defaultMaximumWidth
    /// A width set by the person (nil: measured from the values shown).
    public var width: Int?
    /// Whether the column stays on the left while the others scroll sideways.
    public var isFrozen = false
    /// Whether the column is left out of the grid.
    public var isHidden = false
    /// Key paths derived from the column that its frequency sheet (`F`) can count by too, Tab
    /// switching between them: a date's `year(col)`, `month(col)` (the model must have them).
    ///
    ///     closed.derivedKeyPaths = ["closeYear"]
    public var derivedKeyPaths: [String] = []
    /// The text of an object's value (nil: NULL); nil: the value at ``keyPath`` as
    /// `DisplayText` writes it.
    ///
    ///     closed.text = { bank in bank.string("closingDate").map(formatDate) }
    public var text: ((ManagedObject) -> String?)?

    /// A column named `name` showing `keyPath` (default: the name) of `type`.
    public init(_ name: String, keyPath: String? = nil, type: AttributeType? = nil) {
        self.name = name
        self.keyPath = keyPath ?? name
        self.type = type
        self.alignment = ListColumn.alignment(of: type)
    }

    /// Trailing for numbers, leading for the rest.
    static func alignment(of type: AttributeType?) -> GridColumn.Alignment {
        type == .integer || type == .real ? .trailing : .leading
    }

    /// Whether the values are numbers (integers or reals).
    var isNumeric: Bool { type == .integer || type == .real }

    /// The column's text for `object`: nil for NULL.
    ///
    ///     ListColumn("cert", type: .integer).value(of: bank)   // "10538"
    public func value(of object: ManagedObject) -> String? {
        if let text { return text(object) }
        let value = object.value(forKeyPath: keyPath)
        if case .null = value { return nil }
        return DisplayText.of(value, type: type)
    }

    /// The table view's description of the column.
    public var gridColumn: GridColumn {
        GridColumn(name, alignment: alignment, maximumWidth: maximumWidth, width: width, isFrozen: isFrozen)
    }
}
