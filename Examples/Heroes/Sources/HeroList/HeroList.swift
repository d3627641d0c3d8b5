import FetchedResults
import FetchedResultsUI
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
}

/// The model, the sample heroes, the tabs and the hero form of `heroes`.
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

    /// What a first launch puts in the new store.
    public static let sampleHeroes: [Hero] = [
        ("Batman", "Bruce Wayne", "1939-05-27", "Male", "Black"),
        ("Superman", "Clark Kent", "1938-04-18", "Male", "Blue"),
        ("Wonder Woman", "Diana Prince", "1941-10-21", "Female", "Red"),
        ("Spider-Man", "Peter Parker", "1962-08-15", "Male", "Red"),
        ("Storm", "Ororo Munroe", "1975-05-01", "Female", "White"),
        ("Iron Man", "Tony Stark", "1963-03-01", "Male", "Gold"),
        ("Black Widow", "Natasha Romanoff", "1964-04-01", "Female", "Black"),
        ("The Flash", "Barry Allen", "1956-10-01", "Male", "Red"),
    ].map { Hero(name: $0.0, secretIdentity: $0.1, birthdate: $0.2, sex: $0.3, favoriteColor: $0.4) }

    /// `heroes [--db PATH] [--no-animation]`: tabs Name and Secret Identity, `a` adds, Enter edits;
    /// the store is `$XDG_DATA_HOME/fetchedtable-examples/heroes.sqlite` unless `--db` names one.
    public static var program: ListProgram {
        ListProgram(name: "heroes", model: model, dataFolder: "fetchedtable-examples") { context in
            for hero in sampleHeroes { context.insert(hero) }
        } configuration: { _ in
            let byName = tab("Name", key: "name", detail: "secretIdentity")
            var configuration = ListScreenConfiguration(
                title: "Heroes",
                tabs: [byName, tab("Secret Identity", key: "secretIdentity", detail: "name")]
            )
            configuration.detailDescription = "edit the hero"
            configuration.detailScreen = { hero, screen in form.form(editing: hero, in: screen) }
            configuration.keyBindings = [
                ListKeyBinding(.character("a"), keys: "a", description: "add a hero") { screen in
                    screen.loop.push(form.form(editing: nil, in: screen))
                }
            ]
            return configuration
        }
    }

    /// The form that adds a hero or edits one: Name and Secret Identity required, the birthdate a date.
    static let form = RecordForm(entity: Hero.entityName)

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
}
