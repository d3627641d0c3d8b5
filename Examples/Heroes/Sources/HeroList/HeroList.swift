import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// A hero, as the table `hero` holds one: the one place the schema is declared (the model is
/// built from it).
public struct Hero: EntityRecord, Codable, Equatable, Sendable {
    /// The attributes, by name: in sorts, predicates and section keys as in the entity.
    public enum CodingKeys: String, CodingKey { case name, secretIdentity, birthdate, sex, favoriteColor }
    public typealias Columns = CodingKeys
    /// `Hero`, in the table `hero` (name, secret_identity, birthdate, sex, favorite_color), with the
    /// initials of its two keys as derived attributes (the sections of the two tabs).
    public static let entity = Entity(
        "Hero",
        attributes: [
            Attribute(Columns.name.stringValue, .text, indexed: true),
            Attribute(Columns.secretIdentity.stringValue, .text, indexed: true),
            Attribute(Columns.birthdate.stringValue, .date, optional: true),
            Attribute(Columns.sex.stringValue, .text, optional: true),
            Attribute(Columns.favoriteColor.stringValue, .text, optional: true),
        ],
        derived: [
            .initial("nameInitial", of: Columns.name.stringValue),
            .initial("secretIdentityInitial", of: Columns.secretIdentity.stringValue, column: "secret_identity"),
        ]
    )
    public var name: String
    public var secretIdentity: String
    public var birthdate: String?
    public var sex: String?
    public var favoriteColor: String?
}

/// The model, the sample heroes, the tabs and the hero form of `heroes`.
public enum HeroList {
    /// One entity, ``Hero``.
    public static let model = Model(version: 1, applicationID: 0x4845_524f, records: [Hero.self])

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
            let byName = tab("Name", key: .name, detail: .secretIdentity)
            var configuration = ListScreenConfiguration(
                title: "Heroes",
                tabs: [byName, tab("Secret Identity", key: .secretIdentity, detail: .name)]
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
    static func tab(_ title: String, key: Hero.Columns, detail: Hero.Columns) -> ListTab {
        let text = { (hero: Hero, column: Hero.Columns) in column == .name ? hero.name : hero.secretIdentity }
        var tab = ListTab(
            title: title,
            records: Hero.self,
            sortDescriptors: [FetchSort(key.stringValue, comparison: .caseInsensitive)],
            sectionNameKeyPath: key.stringValue + "Initial",
            name: { "“\($0.name)”" }
        ) { hero in
            TableCell(style: .subtitle, title: text(hero, key), detail: text(hero, detail))
        }
        tab.searchKeyPaths = [Hero.Columns.name.stringValue, Hero.Columns.secretIdentity.stringValue]
        tab.searchDescription = "by name or secret identity"
        tab.noun = ("hero", "heroes")
        return tab
    }
}
