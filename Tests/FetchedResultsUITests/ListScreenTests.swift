import FaultInjection
@_spi(Benchmark) import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// The generic list screen over a small model, rendered into the in-memory
/// screen: golden frames of what a person sees, and each key doing what the
/// help says.
@Suite struct ListScreenTests {
    @Test func firstFrameShowsTitleTabsSectionsIndexAndPosition() throws {
        let f = try ListScreenFixture()
        let (ok, message) = matchesGolden(f.text, "list-first-frame")
        #expect(ok, "\(message)")
        #expect(f.list.positionText == "1/8")
    }

    @Test func tabSwitchesOrderAndSectionsAndKeepsTheSelection() throws {
        let f = try ListScreenFixture()
        f.press(.down)  // Neuromancer (1984), after Count Zero (1986)
        #expect(f.selectedTitle == "Neuromancer")
        let frame = f.press(.tab)
        #expect(f.list.tabIndex == 1)
        #expect(f.selectedTitle == "Neuromancer")
        let (ok, message) = matchesGolden(frame, "list-author-tab")
        #expect(ok, "\(message)")
        f.press(.character("1"))
        #expect(f.list.tabIndex == 0)
        f.press(.backTab)
        #expect(f.list.tabIndex == 1)
    }

    @Test func searchMatchesTheConfiguredKeyPathsThroughTheControllerAndNWraps() throws {
        let f = try ListScreenFixture()
        f.press(.character("/"))
        let typed = f.type("lem")  // author Lem: Solaris, The Cyberiad
        #expect(f.selectedTitle == "The Cyberiad")  // 1965, before Solaris (1961)
        #expect(typed.contains("1 of 2"))
        let (ok, message) = matchesGolden(typed, "list-search")
        #expect(ok, "\(message)")
        f.press(.enter)
        f.press(.character("n"))
        #expect(f.selectedTitle == "Solaris")
        let wrapped = f.press(.character("n"))
        #expect(f.selectedTitle == "The Cyberiad")
        #expect(wrapped.contains("wrapped to the top"))
        f.press(.character("N"))
        #expect(f.selectedTitle == "Solaris")
        // Titles too, any case; Esc returns to where the search began.
        f.press(.character("g"))
        f.press(.character("/"))
        f.type("EMMA")
        #expect(f.selectedTitle == "Emma")
        f.press(.escape)
        #expect(f.selectedTitle == "Count Zero")
        f.press(.character("/"))
        #expect(f.type("zzz").contains("no match"))
    }

    @Test func searchRunsOncePerBurstOfKeysNotOncePerKey() throws {
        let f = try ListScreenFixture()
        f.press(.character("/"))
        let before = f.list.searchCount
        // A paste: six characters arrive before the next frame.
        for character in "gibson" { f.loop.dispatch(.character(character)) }
        #expect(f.list.searchCount == before, "nothing searched before the frame")
        f.loop.draw()
        #expect(f.list.searchCount == before + 1)
        #expect(f.selectedTitle == "Count Zero")
        #expect(f.text.contains("1 of 2"))
        // Typed key by key, frame by frame: one search each.
        f.press(.escape, .character("/"))
        let start = f.list.searchCount
        f.type("lem")
        #expect(f.list.searchCount == start + 3)
    }

    @Test func aTextExtendingOneWithoutMatchesIsNotSearchedAgain() throws {
        let f = try ListScreenFixture()
        f.press(.character("/"))
        f.type("qq")
        let searched = f.list.searchCount
        #expect(f.type("q").contains("no match"))
        #expect(f.list.searchCount == searched, "\"qqq\" cannot match where \"qq\" did not")
        f.press(.backspace, .backspace, .backspace)
        #expect(f.type("d").contains("1 of 3"))  // Kindred, Dune, The Cyberiad: searched again
        #expect(f.list.searchCount == searched + 1)
    }

    @Test func aFilterLongerThanTheMaximumSaysItIsTooLong() throws {
        let f = try ListScreenFixture(width: 80)
        f.press(.character("\\"))
        for character in "title == \"" + String(repeating: "a", count: 1_000) { f.loop.dispatch(.character(character)) }
        f.loop.draw()
        #expect(f.text.contains("the filter is too long: at most 1000 characters"))
    }

    @Test func searchInATabAfterAFilterOnlyFindsFilteredMatches() throws {
        let f = try ListScreenFixture()
        f.press(.character("\\"))
        f.type("year >= \"1900\"")
        let filtered = f.press(.enter)
        #expect(f.list.positionText == "1/6")
        #expect(filtered.contains("6 books match"))
        f.press(.tab)  // Author tab, still filtered
        #expect(f.list.positionText.hasSuffix("/6"))
        f.press(.character("/"))
        let typed = f.type("austen")
        #expect(typed.contains("no match"), "Austen's books are before 1900")
        f.press(.escape)
        f.press(.escape)  // clears the filter
        #expect(f.list.positionText.hasSuffix("/8"))
    }

    @Test func filterErrorsShowWhereTheyAre() throws {
        let f = try ListScreenFixture()
        f.press(.character("\\"))
        let text = f.type("year == ")
        #expect(text.lines[13].contains("^"))
        f.press(.enter)
        #expect(f.list.filter == nil)
        f.press(.escape)
        f.press(.character("\\"))
        #expect(f.type("isbn == 5").contains("unknown key path \"isbn\""))
    }

    @Test func aDeleteAnsweredLaterSaysItIsOnItsWayAndTheRowStays() throws {
        let f = try ListScreenFixture(answersDeletesLater: true)
        f.press(.down)  // Neuromancer
        #expect(f.press(.character("d")).contains("Delete"))
        let sent = f.press(.enter)
        #expect(f.extraKeyTitles == ["Neuromancer"], "the app's delete was called")
        #expect(sent.contains("Deleting “Neuromancer”…"), "\(sent)")
        #expect(!sent.contains("u to undo"))
        #expect(f.list.positionText.hasSuffix("/8"), "the row stays until the store has the change")
        #expect(f.context.undoActionName == nil)
        // Marked until the app says the store answered: dim, ↻ at its left.
        let lines = sent.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.hasPrefix("↻Neuromancer") }, "\(sent)")
        #expect(try #require(f.screen.lastFrame)[1, row].attributes.contains(.dim))
        f.list.deleteAnswered(row: try #require(f.list.selectedObject).objectID)
        let answered = f.press(.character("x")).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(answered[row].hasPrefix(" Neuromancer"))
    }

    @Test func deleteSavesWithAnActionNameAndUndoSaysWhatTheContextUndid() throws {
        let f = try ListScreenFixture()
        f.press(.down)  // Neuromancer
        #expect(f.press(.character("d")).contains("Delete"))
        let deleted = f.press(.enter)
        #expect(deleted.contains("Deleted “Neuromancer” — u to undo"))
        #expect(f.list.positionText.hasSuffix("/7"))
        #expect(f.context.undoActionName == "Deleted “Neuromancer”")
        let (ok, message) = matchesGolden(deleted, "list-deleted")
        #expect(ok, "\(message)")

        let restored = f.press(.character("u"))
        #expect(restored.contains("Undone: Deleted “Neuromancer”"))
        #expect(f.selectedTitle == "Neuromancer")
        #expect(f.list.positionText == "2/8")
        #expect(f.press(.character("u")).contains("Nothing to undo"))
        f.press(.delete, .escape)
        #expect(f.list.positionText.hasSuffix("/8"))
    }

    /// A delete the disk refuses says why in words (no SQL) and leaves the row; `d` again deletes it.
    @Test func aDeleteThatFailsSaysWhyAndLeavesTheRowAndDeletingAgainWorks() throws {
        FaultInjection.install()
        let f = try ListScreenFixture(width: 80)
        f.press(.down)  // Neuromancer
        #expect(f.press(.character("d")).contains("Delete"))
        let (frame, report) = FaultInjection.inject(Fault(.write, .diskFull, n: 1), under: f.directory.path) {
            f.press(.enter)
        }
        #expect(report.fired)
        #expect(
            (try? frame.get())?.contains("Could not delete “Neuromancer”: the disk is full") == true,
            "\((try? frame.get()) ?? "")"
        )
        #expect(f.list.positionText.hasSuffix("/8"))
        #expect(f.context.undoActionName == nil)
        f.press(.character("d"))
        #expect(f.press(.enter).contains("Deleted “Neuromancer” — u to undo"))
        #expect(f.list.positionText.hasSuffix("/7"))
        let (undone, undoReport) = FaultInjection.inject(Fault(.write, .ioError, n: 1), under: f.directory.path) {
            f.press(.character("u"))
        }
        #expect(undoReport.fired)
        #expect(
            (try? undone.get())?.contains("Could not undo: the file could not be written (") == true,
            "\((try? undone.get()) ?? "")"
        )
        #expect(f.press(.character("u")).contains("Undone: Deleted “Neuromancer”"))
        #expect(f.list.positionText.hasSuffix("/8"))
    }

    /// Another program changed the book after the list read it: the delete deletes nothing, says
    /// so naming the book, and offers to delete it as it is now (was: "Could not delete
    /// “Neuromancer”: Book/4 was changed by another program since it was read (author): reload
    /// and reapply the changes, or overwrite", and nothing to do about it).
    @Test func aDeleteOfABookAnotherProgramChangedAsksAndDeletesItAsItIsNow() throws {
        let f = try ListScreenFixture(width: 100)
        f.press(.down)  // Neuromancer
        try Database(path: f.store.path).execute("UPDATE book SET author = 'W. Gibson' WHERE title = 'Neuromancer'")
        #expect(f.press(.character("d")).contains("Delete"))
        let frame = f.press(.enter)
        #expect(frame.contains("Not deleted: “Neuromancer” was changed by another program"), "\(frame)")
        #expect(f.context.undoActionName == nil)
        let picker = try #require(f.loop.topView as? ChoicePicker)
        #expect(picker.choices == ["Delete it as it is now", "Keep it"])
        #expect(f.press(.enter).contains("Deleted “Neuromancer” — u to undo"))
        #expect(f.list.positionText.hasSuffix("/7"))
        #expect(
            try Database(path: f.store.path).scalar("SELECT count(*) FROM book WHERE title = 'Neuromancer'")
                == .integer(0)
        )
        #expect(f.press(.character("u")).contains("Undone: Deleted “Neuromancer”"))
        #expect(
            try Database(path: f.store.path).scalar("SELECT author FROM book WHERE title = 'Neuromancer'")
                == .text("W. Gibson")
        )
    }

    @Test func readOnlyRefusesDeleteAndUndoAndSaysWhy() throws {
        let f = try ListScreenFixture(width: 80, readOnly: true)
        #expect(f.text.lines[0].contains("read-only"))
        let frame = f.press(.character("d"))
        #expect(!frame.contains(" Delete "))
        #expect(frame.contains("Delete is disabled: opened read-only for the test"))
        #expect(f.press(.character("u")).contains("Undo is disabled"))
    }

    @Test func enterPushesTheAppsDetailScreenAndEscGoesBack() throws {
        let f = try ListScreenFixture()
        let detail = f.press(.enter)
        #expect(detail.contains("Book: Count Zero"))
        #expect(detail.contains("by Gibson"))
        #expect(f.loop.topView is BookScreen)
        f.press(.escape)
        #expect(f.loop.topView === f.list)
    }

    @Test func appKeyBindingsRunAndAreInTheHelp() throws {
        let f = try ListScreenFixture(width: 100, height: 40)
        f.press(.down)
        #expect(f.press(.character("x")).contains("Marked"))
        #expect(f.extraKeyTitles == ["Neuromancer"])
        let help = f.press(.character("?"))
        for (keys, _) in ListScreenKeys.bindings(for: f.list.configuration)
        where !keys.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(help.contains(keys), "\(keys) listed")
        }
        #expect(
            ListScreenKeys.bindings(for: f.list.configuration).contains {
                $0.keys == "x" && $0.description == "mark the book"
            }
        )
        f.press(.character("q"))
        #expect(f.loop.topView === f.list)
    }

    @Test func anAppsBindingOfABuiltInKeyIsListedOnceInItsPlace() throws {
        let f = try ListScreenFixture()
        var configuration = f.list.configuration
        var undo = ListKeyBinding(.character("u"), keys: "u", description: "undo the last delete (on the server)") {
            _ in
        }
        undo.helpPlacement = .section("Change")
        configuration.keyBindings.append(undo)
        let lines = ListScreenKeys.bindings(for: configuration)
        #expect(lines.filter { $0.keys == "u" }.map(\.description) == ["undo the last delete (on the server)"])
        let change = try #require(lines.firstIndex { $0.keys.isEmpty && $0.description == "Change" })
        #expect(lines[change + 2].keys == "u", "in the built-in key's place: \(lines)")
    }

    @Test func anotherProcessesInsertAppearsOnThePoll() throws {
        let f = try ListScreenFixture()
        let other = try Database(path: f.store.path)
        try other.execute("INSERT INTO book(title, author, year) VALUES ('Binti', 'Okorafor', '2015')")
        f.list.pollExternalChanges()
        let frame = f.press(.character("g"))
        #expect(frame.contains("2015 (1)"))
        #expect(f.selectedTitle == "Binti")
        #expect(f.list.positionText == "1/9")
    }

    @Test func showingAnotherContextReplacesTheListAndDropsWhatBelongedToTheOldOne() throws {
        let f = try ListScreenFixture()
        let path = f.directory.path("other.sqlite")
        let other = try Store(path: path, model: ListScreenFixture.model)
        let writer = ObjectContext(store: other)
        let book = writer.insert(into: "Book")
        book["title"] = "Binti"
        book["author"] = "Okorafor"
        book["year"] = "2015"
        try writer.save()
        f.press(.down, .enter)  // a detail screen of the old store
        #expect(f.loop.topView is BookScreen)
        try f.list.show(context: ObjectContext(store: other), readOnlyReason: "the new file is read-only")
        let frame = f.press()
        #expect(f.loop.topView === f.list)
        #expect(frame.contains("2015 (1)") && frame.contains("Binti") && !frame.contains("Neuromancer"))
        #expect(f.list.positionText == "1/1")
        #expect(frame.lines[0].contains("read-only"))
        #expect(f.list.tabsToWarm == [1])
        // Polls read the new store.
        try Database(path: path).execute("INSERT INTO book(title, author, year) VALUES ('Lagoon', 'Okorafor', '2014')")
        f.list.pollExternalChanges()
        #expect(f.press().contains("Lagoon"))
    }

    @Test func willPollCanSkipAPoll() throws {
        final class Gate {
            var open = false
            var asked = 0
        }
        let gate = Gate()
        let f = try ListScreenFixture(willPoll: { _ in
            gate.asked += 1
            return gate.open
        })
        try Database(path: f.store.path).execute(
            "INSERT INTO book(title, author, year) VALUES ('Binti', 'Okorafor', '2015')"
        )
        f.list.pollExternalChanges()
        #expect(!f.press().contains("2015 (1)"), "the poll was skipped")
        gate.open = true
        f.list.pollExternalChanges()
        #expect(f.press().contains("2015 (1)"))
        #expect(gate.asked == 2)
    }

    @Test func withoutACacheTheFirstFrameIsThePreviewThenTheFullResults() throws {
        let f = try ListScreenFixture(cache: false)
        // The fixture drew once: the preview, then (after that frame) the full fetch.
        #expect(!f.list.isLoading)
        #expect(f.text.contains("1986 (1)"))
        #expect(f.list.positionText == "1/8")
    }

    @Test func theOtherTabsCacheIsWarmedInTheBackground() throws {
        let f = try ListScreenFixture()
        #expect(f.list.tabsToWarm == [1])
        for _ in 0..<500 where !f.list.tabsToWarm.isEmpty || !f.store.readerConnectionIsFree {
            f.list.warmNextTab()
            usleep(10_000)
        }
        #expect(f.list.tabsToWarm.isEmpty)
        f.list.switchTab(to: 1)
        #expect(f.list.adapter.controller.lastFetchUsedCache)
    }
}

extension Store {
    /// True when the second connection is not lent out (a background job has finished).
    fileprivate var readerConnectionIsFree: Bool {
        guard let lease = acquireReaderConnection() else { return false }
        lease.release()
        return true
    }
}

extension String {
    var lines: [String] { components(separatedBy: "\n") }
}
