import BaseDirectories
import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// A hero, as the table `hero` holds one.
public struct Hero: StoreRecord, Codable, Equatable, Sendable {
    public static let entityName = "Hero"
    public var name: String
    public var secretIdentity: String
    public var birthdate: String?
    public var sex: String?
    public var favoriteColor: String?

    public init(
        name: String,
        secretIdentity: String,
        birthdate: String? = nil,
        sex: String? = nil,
        favoriteColor: String? = nil
    ) {
        self.name = name
        self.secretIdentity = secretIdentity
        self.birthdate = birthdate
        self.sex = sex
        self.favoriteColor = favoriteColor
    }
}

/// The model, the sample heroes, the tabs and the hero form.
public enum HeroList {
    /// `Hero`, in the table `hero` (name, secret_identity, birthdate, sex, favorite_color), with the
    /// initials of its two keys as derived attributes (the sections of the two tabs).
    public static let model = Model(
        version: 1,
        applicationID: 0x4845_524f,
        entities: [
            Entity(
                "Hero",
                attributes: [
                    Attribute("name", .text, indexed: true),
                    Attribute("secretIdentity", .text, indexed: true),
                    Attribute("birthdate", .date, optional: true),
                    Attribute("sex", .text, optional: true),
                    Attribute("favoriteColor", .text, optional: true),
                ],
                derived: [
                    .initial("nameInitial", of: "name"),
                    .initial("secretIdentityInitial", of: "secretIdentity", column: "secret_identity"),
                ]
            )
        ]
    )

    /// What a first launch puts in an empty store.
    public static let sampleHeroes = [
        Hero(
            name: "Batman",
            secretIdentity: "Bruce Wayne",
            birthdate: "1939-05-27",
            sex: "Male",
            favoriteColor: "Black"
        ),
        Hero(
            name: "Superman",
            secretIdentity: "Clark Kent",
            birthdate: "1938-04-18",
            sex: "Male",
            favoriteColor: "Blue"
        ),
        Hero(
            name: "Wonder Woman",
            secretIdentity: "Diana Prince",
            birthdate: "1941-10-21",
            sex: "Female",
            favoriteColor: "Red"
        ),
        Hero(
            name: "Spider-Man",
            secretIdentity: "Peter Parker",
            birthdate: "1962-08-15",
            sex: "Male",
            favoriteColor: "Red"
        ),
        Hero(
            name: "Storm",
            secretIdentity: "Ororo Munroe",
            birthdate: "1975-05-01",
            sex: "Female",
            favoriteColor: "White"
        ),
        Hero(
            name: "Iron Man",
            secretIdentity: "Tony Stark",
            birthdate: "1963-03-01",
            sex: "Male",
            favoriteColor: "Gold"
        ),
        Hero(
            name: "Black Widow",
            secretIdentity: "Natasha Romanoff",
            birthdate: "1964-04-01",
            sex: "Female",
            favoriteColor: "Black"
        ),
        Hero(
            name: "The Flash",
            secretIdentity: "Barry Allen",
            birthdate: "1956-10-01",
            sex: "Male",
            favoriteColor: "Red"
        ),
    ]

    /// The store at `path`, with the sample heroes when it is empty.
    public static func openStore(at path: String) throws -> Store {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let store = try Store(path: path, model: model)
        let context = ObjectContext(store: store)
        if try context.fetch("Hero", limit: 1).isEmpty {
            for hero in sampleHeroes { context.insert(hero) }
            try context.save()
        }
        return store
    }

    /// A tab sorted by `key`, with a section per first letter of it.
    static func tab(_ title: String, key: String, detail: String) -> ListTab {
        var tab = ListTab(
            title: title,
            entity: "Hero",
            sortDescriptors: [FetchSort(key, comparison: .caseInsensitive)],
            sectionNameKeyPath: key + "Initial"
        ) { hero in
            TableCell(style: .subtitle, title: hero.string(key) ?? "", detail: hero.string(detail) ?? "")
        }
        tab.searchKeyPaths = ["name", "secretIdentity"]
        tab.searchDescription = "by name or secret identity"
        tab.noun = ("hero", "heroes")
        tab.objectName = { "“\($0.string("name") ?? "")”" }
        return tab
    }

    /// The form that adds a hero (`hero` nil) or edits one; Ctrl-S saves in one change set.
    public static func form(for hero: ManagedObject?, context: ObjectContext, screen: ListScreen) -> Form {
        let current = hero.flatMap { try? $0.record(as: Hero.self) }
        let form = Form(
            title: hero == nil ? "New Hero" : "Edit Hero",
            fields: [
                .text("name", label: "Name", value: current?.name ?? ""),
                .text("secretIdentity", label: "Secret Identity", value: current?.secretIdentity ?? ""),
                .text("birthdate", label: "Birthdate", value: current?.birthdate ?? "", placeholder: "YYYY-MM-DD"),
                .text("sex", label: "Sex", value: current?.sex ?? ""),
                .text("favoriteColor", label: "Favorite Color", value: current?.favoriteColor ?? ""),
            ]
        )
        form.onSave = { [unowned form] values in
            func value(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }
            guard let name = value("name"), let identity = value("secretIdentity") else {
                form.errorMessage = "A name and a secret identity are required"
                return false
            }
            if let birthdate = value("birthdate"), StoreDate.date(from: birthdate) == nil {
                form.errorMessage = "The birthdate is not a date (YYYY-MM-DD)"
                return false
            }
            let record = Hero(
                name: name,
                secretIdentity: identity,
                birthdate: value("birthdate"),
                sex: value("sex"),
                favoriteColor: value("favoriteColor")
            )
            do {
                let object = hero ?? context.insert(into: "Hero")
                try context.update(object, with: record)
                try context.save(actionName: "\(hero == nil ? "Added" : "Saved") “\(name)”")
                screen.adapter.select(object.objectID)
                return true
            } catch {
                context.rollback()
                form.errorMessage = "Not saved: \(error)"
                return false
            }
        }
        return form
    }

    /// The list screen: tabs Name and Secret Identity, `a` adds, Enter edits.
    public static func makeScreen(store: Store, loop: TerminalRunLoop, animated: Bool = true) throws -> ListScreen {
        let context = ObjectContext(store: store)
        var configuration = ListScreenConfiguration(
            title: "Heroes",
            tabs: [
                tab("Name", key: "name", detail: "secretIdentity"),
                tab("Secret Identity", key: "secretIdentity", detail: "name"),
            ]
        )
        configuration.animated = animated
        configuration.detailDescription = "edit the hero"
        configuration.detailScreen = { hero, screen in form(for: hero, context: context, screen: screen) }
        configuration.keyBindings = [
            ListKeyBinding(.character("a"), keys: "a", description: "add a hero") { screen in
                screen.loop.push(form(for: nil, context: context, screen: screen))
            }
        ]
        return try ListScreen(context: context, configuration: configuration, loop: loop)
    }

    /// `--db PATH`, else `$XDG_DATA_HOME/fetchedtable-examples/heroes.sqlite`.
    public static func databasePath(arguments: [String], environment: [String: String]) -> String {
        if let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count { return arguments[index + 1] }
        return XDGBaseDirectories(environment: environment).data("fetchedtable-examples", "heroes.sqlite")
    }
}
