import SQLiteStore

/// An attribute's value as a form shows it, and back: dates as `YYYY-MM-DD`, date-times as
/// `YYYY-MM-DD HH:MM:SS` (UTC, as the store keeps them), yes/no values as `yes` and `no`.
///
///     try AttributeText.value(of: "1939-05-27", Attribute("birthdate", .date), label: "Birthdate")
///     // .text("1939-05-27")
enum AttributeText {
    /// Why a form's texts cannot be saved, as the form says it.
    enum Problem: Error, CustomStringConvertible {
        /// Required attributes left empty, by their labels.
        case required([String])
        /// A text that is not a value of its attribute's type: the attribute's label and what it should be.
        case malformed(label: String, expected: String)

        var description: String {
            switch self {
            case .required(let labels) where labels.count == 1:
                return "\(labels[0]) is required"
            case .required(let labels):
                return "\(labels.dropLast().joined(separator: ", ")) and \(labels[labels.count - 1]) are required"
            case .malformed(let label, let expected):
                return "\(label) is not \(expected)"
            }
        }
    }

    /// Whether the form must have a value: the attribute is neither optional nor defaulted.
    static func isRequired(_ attribute: Attribute) -> Bool {
        !attribute.isOptional && attribute.defaultValue == nil
    }

    /// What an empty field shows of the expected form.
    static func placeholder(of attribute: Attribute) -> String {
        switch attribute.type {
        case .date: return "YYYY-MM-DD"
        case .dateTime: return "YYYY-MM-DD HH:MM:SS"
        case .bool: return "yes or no"
        default: return ""
        }
    }

    /// The text of `value` in the field of `attribute`.
    static func text(of value: StoreValue, _ attribute: Attribute) -> String {
        switch (value, attribute.type) {
        case (.null, _), (.blob, _): return ""
        case (.integer(let flag), .bool): return flag == 0 ? "no" : "yes"
        case (.integer(let number), _): return String(number)
        case (.real(let number), _): return String(number)
        case (.text(let text), .dateTime):
            return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        case (.text(let text), _): return text
        }
    }

    /// The value of the field's `text` for `attribute`: NULL, or the default, for an empty field.
    ///
    /// - Throws: ``Problem/malformed(label:expected:)`` naming `label`, for a text of another type.
    static func value(of text: String, _ attribute: Attribute, label: String) throws(Problem) -> StoreValue {
        if text.isEmpty { return attribute.defaultValue ?? .null }
        switch attribute.type {
        case .text, .blob:
            return .text(text)
        case .integer:
            guard let number = Int64(text) else { throw .malformed(label: label, expected: "a whole number") }
            return .integer(number)
        case .real:
            guard let number = Double(text) else { throw .malformed(label: label, expected: "a number") }
            return .real(number)
        case .bool:
            switch text.lowercased() {
            case "yes", "true", "1": return .integer(1)
            case "no", "false", "0": return .integer(0)
            default: throw .malformed(label: label, expected: "yes or no")
            }
        case .date:
            guard let date = StoreDate.date(from: text) else {
                throw .malformed(label: label, expected: "a date (YYYY-MM-DD)")
            }
            return .text(StoreDate.text(from: date))
        case .dateTime:
            guard let date = StoreDate.dateTime(from: text) else {
                throw .malformed(label: label, expected: "a date and time (YYYY-MM-DD HH:MM:SS)")
            }
            return .text(StoreDate.dateTimeText(from: date))
        }
    }
}
