import SQLiteStore

/// The model the browser opens the store with: ``FailedBankModel/model``,
/// plus the `nameInitial` section key of the Name tab when the model does not
/// define it yet.
///
/// A derived attribute adds no column, so the file is the same either way;
/// the SQL and the Swift computation agree (ASCII letters uppercased, every
/// other first character `#`), as the controller's incremental updates need.
///
///     let store = try Store(path: path, model: BrowserModel.model)
package enum BrowserModel {
    /// The Name tab's section key path.
    package static let nameInitial = "nameInitial"

    /// The browser's model.
    package static let model: Model = {
        var model = FailedBankModel.model
        guard let index = model.entities.firstIndex(where: { $0.name == FailedBankModel.info }),
            model.entities[index].derivedAttribute(named: nameInitial) == nil
        else { return model }
        let old = model.entities[index]
        model.entities[index] = Entity(
            old.name,
            attributes: old.attributes,
            relationships: old.relationships,
            derived: old.derived + [nameInitialAttribute],
            uniqueKeys: old.uniqueKeys
        )
        return model
    }()

    /// The name's initial (`A`…`Z`, `#` for anything else), the library's section key.
    static let nameInitialAttribute = DerivedAttribute.initial(nameInitial, of: FailedBankInfo.Columns.name.stringValue)
}
