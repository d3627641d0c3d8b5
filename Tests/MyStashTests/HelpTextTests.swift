import Foundation
import TerminalUI
import Testing

@testable import MyStashKit

/// What `--help` and `?` say matches what the program accepts.
@Suite struct HelpTextTests {
    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
    func theFirstLineOfHelpNamesEveryCommand() throws {
        let help = try ScriptRun.run(["--help"])
        #expect(help.status == 0)
        let lines = help.standardOutput.components(separatedBy: "\n")
        let first = try #require(lines.first)
        // The commands the help lists below (and the dispatcher runs) must all be in the usage line.
        let listed = lines.drop { $0 != "commands:" }.dropFirst().prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(listed == ["init", "list", "show", "copy", "add", "import", "export", "backup", "passwd"])
        for command in listed {
            #expect(first.contains(" \(command)"), "the first line does not name \(command): \(first)")
            #expect(try ScriptRun.run([command, "--help"]).status == 0, "\(command) --help")
        }
    }

    @Test func theUsageLineIsMadeFromTheCommandTable() {
        // Nothing typed by hand beside the table: a command added to it is in the usage line.
        let visible = MyStashCommand.program.subcommands.filter { !$0.isHidden }
        let made = "[--db PATH] [--no-animation] | " + visible.map(\.synopsis).joined(separator: " | ")
        #expect(AppCommand.spec.usage == made)
        #expect(
            AppCommand.spec.usage
                == "[--db PATH] [--no-animation] | init | list notes|passwords | show NAME | copy NAME | add NAME"
                + " | import FILE | export FILE | backup FILE | passwd"
        )
    }

    @Test func eachTabsFilterExampleInTheHelpFiltersThatTab() throws {
        let h = try StashAppTests.Harness(prepare: { temp in
            let stash = try temp.open()
            try stash.addPassword(PasswordEntry(name: "Bank", password: "pw1"))
            try stash.addPassword(PasswordEntry(name: "Alps club", password: "pw2"))
            _ = try stash.addNote(title: "Apple crumble", body: "")
            _ = try stash.addNote(title: "Banana bread", body: "")
            stash.lock()
        })
        let help = StashBrowser.helpBindings.map(\.description).joined(separator: "\n")  // what `?` shows
        for (tab, key, kept, dropped) in [
            ("1", "title", "Apple crumble", "Banana bread"), ("2", "name", "Alps club", "Bank"),
        ] {
            let example = "\(key) BEGINSWITH \"A\""
            #expect(help.contains(example), "the help has no “\(example)”: \(help)")
            h.send(.character(Character(tab)))
            h.send(.character("\\"))
            h.type(example)
            h.send(.enter)
            #expect(h.line(containing: kept) != nil, "\(h.text)")
            #expect(h.line(containing: dropped) == nil, "\(h.text)")
            h.send(.escape)
        }
    }
}
