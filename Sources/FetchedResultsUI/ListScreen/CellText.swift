import SQLiteStore

/// A cell's value as the grid's cell editor (`e`) holds it, and back: the text typed converted
/// by the column's type (its SQLite affinity), and a save the store refused in the words a
/// person reads on the status line.
///
/// The rules, which are what a person editing a table expects:
/// - a column of whole numbers (`INTEGER` affinity) takes a whole number, one of numbers
///   (`REAL`, `NUMERIC`, `DECIMAL`) any number, a yes/no column (`BOOLEAN`) yes, no, true,
///   false, 1 or 0, a date column (`DATE`, `DATETIME`) a text starting `YYYY-MM-DD`; anything
///   else is refused, naming why ("not a whole number");
/// - a text column takes the text as typed, an empty one included (an empty text is not NULL:
///   the grid shows them apart, `∅` and blank); a column without a declared type takes a number
///   when the text reads as one (as SQLite reads a literal), else the text;
/// - an empty editor saves NULL in every column that is not text (nothing else can mean "no
///   number"), and Ctrl-N saves NULL in any column.
///
///     try CellText.value(of: "42", for: Attribute("n", .integer, column: "n", declaredType: "INTEGER"))  // .integer(42)
///     try CellText.value(of: "4.5", for: Attribute("n", .integer, column: "n", declaredType: "INTEGER"))
///     // throws .notAWholeNumber
package enum CellText {
    /// Why a typed text is not a value of its column.
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAWholeNumber
        case notANumber
        case notYesOrNo
        case notADate

        package var description: String {
            switch self {
            case .notAWholeNumber: return "not a whole number"
            case .notANumber: return "not a number"
            case .notYesOrNo: return "not a boolean (yes or no, true or false)"
            case .notADate: return "not a date (YYYY-MM-DD)"
            }
        }
    }

    /// The editor's text for a stored value: empty for NULL, a number as Swift writes it, a text as it is.
    package static func text(of value: StoreValue) -> String {
        switch value {
        case .null, .blob: return ""
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return text
        }
    }

    /// The value to store for `text` typed into a cell of `attribute` (see the type's rules).
    package static func value(of text: String, for attribute: Attribute) throws(Refusal) -> StoreValue {
        let affinity = attribute.affinity ?? .blob
        if text.isEmpty { return affinity == .text ? .text("") : .null }
        if attribute.type == .bool {
            switch text.lowercased() {
            case "yes", "true", "1": return .integer(1)
            case "no", "false", "0": return .integer(0)
            default: throw .notYesOrNo
            }
        }
        if attribute.type == .date || attribute.type == .dateTime, affinity != .text {
            guard startsWithDate(text) else { throw .notADate }
            return .text(text)
        }
        let number = TypeAffinity.number(fromText: text)
        switch affinity {
        case .text:
            return .text(text)
        case .blob:
            return number ?? .text(text)
        case .integer:
            switch number {
            case .integer?: return number!
            case .real(let real)? where real == real.rounded() && abs(real) < 9.2e18: return .integer(Int64(real))
            default: throw .notAWholeNumber
            }
        case .real:
            switch number {
            case .integer(let integer)?: return .real(Double(integer))
            case .real?: return number!
            default: throw .notANumber
            }
        case .numeric:
            guard let number else { throw .notANumber }
            return number
        }
    }

    /// Whether `text` starts `YYYY-MM-DD` (digits, dashes, a month and a day in range).
    package static func startsWithDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        guard digits.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }) else { return false }
        let month = Int(bytes[5] - 0x30) * 10 + Int(bytes[6] - 0x30)
        let day = Int(bytes[8] - 0x30) * 10 + Int(bytes[9] - 0x30)
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// The column a constraint the store refused names (`NOT NULL constraint failed: items.name`:
    /// `name`, the first of a UNIQUE key's), nil when the message names none of `table`'s.
    ///
    ///     CellText.column(of: SQLiteError(code: 1299, message: "NOT NULL constraint failed: items.name"), table: "items")
    ///     // "name"
    package static func column(of error: Error, table: String) -> String? {
        guard let error = error as? SQLiteError, error.isConstraint,
            let colon = error.message.range(of: "constraint failed: ")
        else { return nil }
        let first = error.message[colon.upperBound...].components(separatedBy: ", ")[0]
        guard first.hasPrefix(table + ".") else { return nil }
        return String(first.dropFirst(table.count + 1))
    }

    /// Why the store refused to save `column`'s new value, in a person's words: the constraint
    /// by its kind (NOT NULL, CHECK, UNIQUE, FOREIGN KEY), else what the list says of any failed
    /// write (``StoreFailure/reason(of:)``: "the disk is full", another program's lock, a
    /// conflict with another program's change).
    ///
    ///     CellText.reason(for: SQLiteError(code: 2067, message: "UNIQUE constraint failed: t.code"), column: "code")
    ///     // "another row already has this code (UNIQUE)"
    package static func reason(for error: Error, column: String) -> String {
        if case StoreError.validation(_, _, let reason)? = error as? StoreError, reason == "is required" {
            return "\(column) may not be empty (NOT NULL)"
        }
        guard let error = error as? SQLiteError, error.isConstraint else { return StoreFailure.reason(of: error) }
        let message = error.message
        if message.hasPrefix("NOT NULL constraint failed") { return "\(column) may not be empty (NOT NULL)" }
        if message.hasPrefix("UNIQUE constraint failed") { return "another row already has this \(column) (UNIQUE)" }
        if message.hasPrefix("FOREIGN KEY constraint failed") {
            return "no row that \(column) refers to has this value (FOREIGN KEY)"
        }
        if message.hasPrefix("CHECK constraint failed: ") {
            let check = message.dropFirst("CHECK constraint failed: ".count)
            return "the table's CHECK (\(check)) refuses it"
        }
        if message.hasPrefix("CHECK constraint failed") { return "the table's CHECK refuses it" }
        return message
    }
}
