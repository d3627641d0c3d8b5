import Foundation
import TerminalUI
import Testing

@testable import MyStashKit

/// The strength estimate (libzxcvbn) beside the password, and the question before a very weak one is saved.
@Suite struct PasswordStrengthTests {
    @Test func estimatesRankCommonPasswordsBelowLongRandomOnes() {
        #expect(PasswordStrength(estimating: "password").word == "very weak")
        #expect(PasswordStrength(estimating: "Tr0ub4dour&3").score >= 1)
        #expect(PasswordStrength(estimating: "x7#Fq-Lm9!pZ2@vK8wQe").word == "very strong")
        #expect(
            PasswordStrength(estimating: "alice2026", userWords: ["alice"]).bits
                < PasswordStrength(estimating: "alice2026").bits
        )
    }

    @Test func theStrengthWordAppearsAsAPasswordIsTypedAndAVeryWeakOneIsAskedAbout() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let app = try StashApp.onMemoryScreen(stash)
        for event: InputEvent in [.tab, .character("a")] { app.send(event) }
        for character in "Mail" { app.send(.character(character)) }
        app.send(.tab)
        app.send(.tab)
        for character in "password" { app.send(.character(character)) }
        app.loop.draw()
        #expect(app.screenText.contains("very weak (about 10^"), "\(app.screenText)")
        app.send(.control("s"))
        app.loop.draw()
        #expect(app.screenText.contains("Very weak (about 10^"), "\(app.screenText)")
        #expect(app.screenText.contains("Ctrl-S again saves it anyway"), "\(app.screenText)")
        #expect(try stash.names(of: .passwords).isEmpty)
        app.send(.control("s"))
        #expect(try stash.names(of: .passwords) == ["Mail"])
    }
}
