import SQLiteStore
import TerminalUI

/// The form of a row of an existing table (an entity over a table the model did not make,
/// fetchedtable's): a field per column named as the table names it, the columns' `DEFAULT`s
/// shown as the empty field's placeholder ("default: 1"), generated columns shown and not
/// editable, `NOT NULL` columns marked `*`. A text is converted by its column's type as the
/// grid's cell editor converts it (``CellText``), with the same refusals; an empty field of a
/// new row is left to the table — its DEFAULT, else NULL — so that the row the form adds is
/// the one `sqlite3` adds naming only the columns filled.
extension RecordForm {
    /// The hint line of a table's form that marks NOT NULL columns.
    static let tableHints = "* NOT NULL · Tab next · Ctrl-S save · Esc cancel"

    /// What a table's form of a new row does with it instead of inserting it through the screen's
    /// context (a server's table: sends it there): given the values of the fields filled, the
    /// row's name, and what opens the form again with the fields as filled and the store's
    /// refusal said on it (for the app to call when the store refuses the row: nothing typed is
    /// lost); the form closes and the app says the outcome. A thrown error keeps the form open,
    /// said on it.
    package typealias Insert = (
        _ values: [(key: String, value: StoreValue)], _ name: String, _ reopen: @escaping (_ refusal: String) -> Void
    ) throws -> Void

    /// The form of a new row of the table, which `insert` sends on its way.
    package func newRowForm(in screen: ListScreen, insert: @escaping Insert) -> Form {
        tableForm(
            editing: nil,
            attributes: tableAttributes ?? shownAttributes(in: screen.context.store.model),
            in: screen,
            insert: insert
        )
    }

    /// What opens the form of a new row again on `screen` with its fields holding `typed`, the
    /// store's refusal said on it: Ctrl-S sends it again, Esc asks before discarding it.
    private func reopening(
        in screen: ListScreen,
        insert: @escaping Insert,
        typed: [String]
    ) -> (String) -> Void {
        { [weak screen] refusal in
            guard let screen else { return }
            let form = newRowForm(in: screen, insert: insert)
            form.restoreValues((current: typed, initial: form.fields.map(\.control.value)))
            form.errorMessage = "Not saved: \(refusal)"
            screen.loop.push(form)
        }
    }

    /// The form of a new row (`object` nil) or of `object`'s row.
    func tableForm(
        editing object: ManagedObject?,
        attributes: [Attribute],
        in screen: ListScreen,
        insert: Insert? = nil
    ) -> Form {
        let edit = object.map { RecordEdit(object: $0, attributes: attributes) }
        let form = Form(
            title: object == nil ? "New row in \(entity)" : "Edit a row of \(entity)",
            fields: attributes.map { tableField($0, value: object?[$0.name]) }
        )
        if attributes.contains(where: \.isNotNull) { form.hints = RecordForm.tableHints }
        form.onSave = { [unowned form] texts in
            do {
                let values = try tableValues(of: attributes, from: texts, adding: object == nil)
                if object == nil, let insert {
                    let reopen = reopening(in: screen, insert: insert, typed: form.fields.map(\.control.value))
                    try insert(
                        values,
                        name(attributes: attributes) { key in values.first { $0.key == key }?.value },
                        reopen
                    )
                    return true
                }
                return save(values, texts: texts, editing: edit, attributes: attributes, screen: screen, form: form)
            } catch let error as TableFieldRefusal {
                form.errorMessage = "\(error)"
                return false
            } catch {
                form.errorMessage = "Not saved: \(StoreFailure.reason(of: error))"
                return false
            }
        }
        return form
    }

    /// The field of one column: generated ones read-only, the DEFAULT (or the date format) as placeholder.
    func tableField(_ attribute: Attribute, value: StoreValue?) -> Form.Field {
        let label = label(of: attribute) + (attribute.isNotNull ? " *" : "")
        if attribute.isGenerated {
            let shown = value.map(CellText.text(of:)) ?? ""
            return Form.Field(key: attribute.name, label: label, control: GeneratedColumnField(value: shown))
        }
        let placeholder =
            attribute.defaultExpression.map { "default: \($0)" } ?? AttributeText.placeholder(of: attribute)
        return .text(
            attribute.name,
            label: label,
            value: value.map(CellText.text(of:)) ?? "",
            placeholder: placeholder
        )
    }

    /// Why a text of the form cannot be saved, in the cell editor's words.
    struct TableFieldRefusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The value of each column the form writes: generated ones never; for a new row, only the
    /// fields filled (an empty one is the table's DEFAULT, else NULL).
    ///
    /// - Throws: the first text that is not a value of its column's type, named as the cell editor names it.
    func tableValues(
        of attributes: [Attribute],
        from texts: [String: String],
        adding: Bool
    ) throws(TableFieldRefusal) -> [(key: String, value: StoreValue)] {
        var values: [(key: String, value: StoreValue)] = []
        for attribute in attributes where !attribute.isGenerated {
            let text = texts[attribute.name] ?? ""
            if adding && text.isEmpty { continue }
            do {
                values.append((attribute.name, try CellText.value(of: text, for: attribute)))
            } catch {
                throw TableFieldRefusal(description: "Not saved: “\(text)” is \(error) (\(label(of: attribute)))")
            }
        }
        return values
    }

    /// Why the store refused a save of the form: for a table, the constraint by its kind and
    /// column, as the cell editor says it ("name may not be empty (NOT NULL)").
    func refusal(of error: Error, in model: Model) -> String {
        guard let described = model.entity(named: entity), described.isForeign else {
            return StoreFailure.reason(of: error)
        }
        let column = CellText.column(of: error, table: described.tableName)
        return CellText.reason(for: error, column: column ?? "one of its columns")
    }
}
