import Foundation
import TerminalUI
import Testing

@testable import FetchedResultsUI

/// The table list of a database of a thousand tables finds a name as it is typed: `/`, then
/// any part of it in any case selects the first that holds it (shown on screen), `n` the next,
/// Enter keeps the selection (a second Enter opens it), Esc goes back to where it was.
@Suite struct ChoiceListFindingTests {
    static func list(on terminal: TestTerminal) -> (ChoiceListScreen, Chosen) {
        let items = (1...1000).map {
            ChoiceListScreen.Item(title: String(format: "table_%04d", $0), detail: "\($0) rows")
        }
        let list = ChoiceListScreen(title: "big", items: items, loop: terminal.loop)
        let chosen = Chosen()
        list.onChoose = { chosen.indexes.append($0) }
        terminal.loop.push(list)
        return (list, chosen)
    }

    final class Chosen { var indexes: [Int] = [] }

    @Test func slashFindsANameAsItIsTypedAndEnterOpensIt() {
        let terminal = TestTerminal(width: 60, height: 12)
        let (list, chosen) = Self.list(on: terminal)
        _ = terminal.press(.character("/"))
        let screen = terminal.type("E_0734")
        #expect(list.selectedIndex == 733)
        #expect(screen.contains("table_0734") && screen.contains("/E_0734"), "\(screen)")
        _ = terminal.press(.enter)
        #expect(chosen.indexes.isEmpty, "Enter keeps the match")
        _ = terminal.press(.enter)
        #expect(chosen.indexes == [733])
    }

    @Test func nFindsTheNextEscGoesBackAndAMissSaysSo() {
        let terminal = TestTerminal(width: 60, height: 12)
        let (list, _) = Self.list(on: terminal)
        _ = terminal.press(.character("/"))
        _ = terminal.type("99")
        #expect(list.selectedIndex == 98)  // table_0099
        _ = terminal.press(.enter, .character("n"))
        #expect(list.selectedIndex == 198)  // table_0199
        _ = terminal.press(.character("N"))
        #expect(list.selectedIndex == 98)
        _ = terminal.press(.character("/"))
        let missed = terminal.type("zz")
        #expect(missed.contains("no name holds it"), "\(missed)")
        _ = terminal.press(.escape)
        #expect(list.selectedIndex == 98, "Esc: the selection before")
        #expect(!terminal.text.contains("/zz"))
    }
}
