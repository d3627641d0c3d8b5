import FetchedResults
import SQLiteStore
import TerminalUI

/// The add and edit form of an entity's objects, made from its attributes: a field per
/// attribute labelled by its name (`secretIdentity`: "Secret Identity"), the attributes that
/// are neither optional nor defaulted required, and dates (`YYYY-MM-DD`), numbers and yes/no
/// values checked before anything is saved. Ctrl-S inserts the object (or changes the one
/// edited), saves the list's context in one change set that undo names "Added “Aquaman”" or
/// "Saved “Aquaman”", and selects the object in the list; a save the store refuses is rolled
/// back and its reason shown on the form. An edit writes only the fields the person changed;
/// when another program changed or deleted the object since the form opened, nothing is
/// written: the form names the object and what changed, and offers to reload it and reapply
/// the form's changes, or to overwrite it with the form (to add it again, when it was deleted).
///
/// Over an existing table (an entity the model did not make, as fetchedtable's) the form is the
/// table's: a field per column, its DEFAULT as the empty field's placeholder (`default: 1`),
/// generated columns shown and not editable, NOT NULL columns marked `*`; a text is converted by
/// its column's type as the grid's cell editor converts it, a refusal named as it names them, and
/// only the fields filled are written (an empty one takes the column's DEFAULT, else NULL).
///
///     let heroForm = RecordForm(entity: "Hero", labels: ["sex": "Gender"])
///     configuration.detailScreen = { hero, screen in heroForm.form(editing: hero, in: screen) }
///     configuration.keyBindings = [
///         ListKeyBinding(.character("a"), keys: "a", description: "add a hero") { screen in
///             screen.loop.push(heroForm.form(editing: nil, in: screen))
///         }
///     ]
public struct RecordForm: Sendable {
    /// The entity whose objects the form adds and edits.
    public var entity: String
    /// The attributes shown, in order; nil (the default): every attribute of the entity but
    /// the blobs, in the model's order.
    public var keys: [String]?
    /// The labels of the attributes not labelled by their own name (`"sex": "Gender"`).
    public var labels: [String: String]
    /// The attribute whose value names an object in the undo action ("Added “Aquaman”");
    /// nil (the default): the first text attribute shown.
    public var nameKey: String?
    /// The columns of a table's form when the store's model does not describe them (a server
    /// table's copy: its DEFAULTs, generated and NOT NULL columns are the server's); nil: the model's.
    package var tableAttributes: [Attribute]?

    /// The form of `entity`'s `keys` (nil: all but blobs), labelled by `labels` or by their names,
    /// an object named by `nameKey`'s value (nil: the first text attribute).
    public init(entity: String, keys: [String]? = nil, labels: [String: String] = [:], nameKey: String? = nil) {
        self.entity = entity
        self.keys = keys
        self.labels = labels
        self.nameKey = nameKey
    }

    /// A form that adds an object (`object` nil) or edits `object`, saving through `screen`'s
    /// context and selecting the saved object in `screen`.
    ///
    /// - Precondition: the screen's model has the entity, with every key of ``keys``.
    public func form(editing object: ManagedObject?, in screen: ListScreen) -> Form {
        let attributes = tableAttributes ?? shownAttributes(in: screen.context.store.model)
        if tableAttributes != nil || screen.context.store.model.entity(named: entity)?.isForeign == true {
            return tableForm(editing: object, attributes: attributes, in: screen)
        }
        let edit = object.map { RecordEdit(object: $0, attributes: attributes) }
        let form = Form(
            title: "\(object == nil ? "New" : "Edit") \(RecordForm.label(of: entity))",
            fields: attributes.map { attribute in
                .text(
                    attribute.name,
                    label: label(of: attribute),
                    value: AttributeText.text(
                        of: object?[attribute.name] ?? attribute.defaultValue ?? .null,
                        attribute
                    ),
                    placeholder: AttributeText.placeholder(of: attribute)
                )
            }
        )
        form.onSave = { [unowned form] texts in
            do {
                let values = try values(of: attributes, from: texts)
                return save(values, texts: texts, editing: edit, attributes: attributes, screen: screen, form: form)
            } catch {
                form.errorMessage = "\(error)"
                return false
            }
        }
        return form
    }

    /// The attributes the form shows.
    func shownAttributes(in model: Model) -> [Attribute] {
        guard let described = model.entity(named: entity) else { preconditionFailure("no entity \(entity)") }
        guard let keys else { return described.attributes.filter { $0.type != .blob } }
        return keys.map { key in
            guard let attribute = described.attributes.first(where: { $0.name == key }) else {
                preconditionFailure("\(entity) has no attribute \(key)")
            }
            return attribute
        }
    }

    func label(of attribute: Attribute) -> String {
        labels[attribute.name] ?? RecordForm.label(of: attribute.name)
    }

    /// The value of each attribute from the form's texts.
    ///
    /// - Throws: the required attributes left empty (all named), else the first text that is not
    ///   of its attribute's type.
    private func values(
        of attributes: [Attribute],
        from texts: [String: String]
    ) throws(AttributeText.Problem) -> [(key: String, value: StoreValue)] {
        let missing = attributes.filter { AttributeText.isRequired($0) && (texts[$0.name] ?? "").isEmpty }
        if !missing.isEmpty { throw .required(missing.map(label(of:))) }
        return try attributes.map { attribute throws(AttributeText.Problem) in
            (
                attribute.name,
                try AttributeText.value(of: texts[attribute.name] ?? "", attribute, label: label(of: attribute))
            )
        }
    }

    /// Writes `values` into the object edited — those whose text the person changed, or all
    /// of them when `resolution` is `.overwrite` — or into a new object, saves the context
    /// named for undo and selects the object; false, with the reason on `form`, when the save
    /// was refused. An edit of an object another program changed or deleted since the form
    /// opened writes nothing unless `resolution` says what to do (``offerChoice(after:_:)``).
    func save(
        _ values: [(key: String, value: StoreValue)],
        texts: [String: String],
        editing edit: RecordEdit?,
        resolution: SaveConflict.Resolution? = nil,
        attributes: [Attribute],
        screen: ListScreen,
        form: Form
    ) -> Bool {
        let context = screen.context
        let retry = RecordRetry(
            values: values,
            texts: texts,
            edit: edit,
            attributes: attributes,
            screen: screen,
            form: form
        )
        if let edit, resolution == nil, let conflict = edit.conflict() {
            offerChoice(after: conflict, retry)
            return false
        }
        let saved: ManagedObject
        if let edit, !edit.object.isDeleted {
            saved = edit.object
            for (key, value) in values where resolution == .overwrite || texts[key] != edit.texts[key] {
                saved[key] = value
            }
        } else {
            saved = context.insert(into: entity)
            for (key, value) in values { saved[key] = value }
        }
        let name = name(attributes: attributes) { saved[$0] }
        do {
            try context.save(actionName: "\(saved.isInserted ? "Added" : "Saved") \(name)")
        } catch {
            if let edit, case StoreError.conflict(let conflicts) = error {
                offerChoice(after: edit.catchUp(after: conflicts, in: context), retry)
            } else {
                context.rollback()
                form.errorMessage = "Not saved: \(refusal(of: error, in: context.store.model))"
            }
            return false
        }
        screen.adapter.select(saved.objectID)
        return true
    }

    /// How an object is named in an undo action or a message: the name attribute's value
    /// (`value(key)`) in quotes (“Aquaman”), else the entity's label.
    func name(attributes: [Attribute], value: (String) -> StoreValue?) -> String {
        let nameKey = nameKey ?? attributes.first { $0.type == .text }?.name
        return nameKey.flatMap { value($0)?.string }.map { "“\($0)”" } ?? RecordForm.label(of: entity)
    }

    /// A name as a label: its words (split at underscores and spaces, then where the store splits a
    /// name into its column's, SQLiteStore's `camelCaseWords`) capitalized and spaced
    /// (`secretIdentity`, `secret_identity`: "Secret Identity"; `userID`: "User ID").
    static func label(of name: String) -> String {
        name.split(whereSeparator: { $0 == "_" || $0 == " " })
            .flatMap { camelCaseWords(String($0)) }
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: " ")
    }
}
