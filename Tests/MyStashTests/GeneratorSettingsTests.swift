import Foundation
import TerminalUI
import Testing

@testable import MyStashKit

/// What the form's Ctrl-G generates: a length and character classes (Ctrl-X g), as `add --generate` takes them.
@Suite struct GeneratorSettingsTests {
    @Test func aLineGivesTheLengthClassesAndLookAlikes() throws {
        #expect(GeneratorSettings().text == "20 luds")
        let settings = try GeneratorSettings(parsing: "32 lud look-alikes")
        #expect(settings.length == 32 && settings.classes == [.lower, .upper, .digits] && settings.allowsLookAlikes)
        #expect(settings.text == "32 lud look-alikes")
        #expect(try GeneratorSettings(parsing: settings.text) == settings)
        #expect(throws: GeneratorSettings.ParseError.self) { try GeneratorSettings(parsing: "5 luds") }
        #expect(throws: GeneratorSettings.ParseError.self) { try GeneratorSettings(parsing: "lud") }
        #expect(throws: GeneratorSettings.ParseError.self) { try GeneratorSettings(parsing: "20 xyz") }
    }

    @Test func ctrlXGSetsWhatCtrlGGeneratesInTheForm() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let app = try StashApp.onMemoryScreen(stash)
        app.send(.tab)
        app.send(.character("a"))
        for character in "Mail" { app.send(.character(character)) }
        app.send(.control("x"))
        app.send(.character("g"))
        app.loop.draw()
        #expect(app.screenText.contains("Generate") && app.screenText.contains("20 luds"), "\(app.screenText)")
        app.send(.control("u"))
        for character in "5" { app.send(.character(character)) }
        app.send(.enter)
        app.loop.draw()
        #expect(app.screenText.contains("the length is 8 to 128, not 5"), "\(app.screenText)")
        app.send(.control("u"))
        for character in "16 lu" { app.send(.character(character)) }
        app.send(.enter)
        app.loop.draw()
        #expect(!app.screenText.contains("Enter OK"), "the prompt closed: \(app.screenText)")
        #expect(app.screenText.contains(String(repeating: "•", count: 16) + " "), "\(app.screenText)")
        #expect(!app.screenText.contains(String(repeating: "•", count: 17)))
        app.send(.control("g"))  // Ctrl-G keeps the settings
        app.send(.control("s"))
        let object = try #require(try stash.context.fetch(StashModel.password).first)
        let generated = try stash.revealPassword(of: object)
        #expect(generated.count == 16 && generated.allSatisfy(\.isLetter), "\(generated)")
        #expect(generated.contains(where: \.isUppercase) && generated.contains(where: \.isLowercase))
    }
}
