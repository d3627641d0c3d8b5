import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// A tab changed at run time (fetchedtable's `o` and `S`): through the pickers or
/// ``ListScreen/reconfigureTab(_:)``, refetched with the filter, the selection kept.
@Suite struct ListScreenReconfigureTests {
    @Test func reconfigureTabSortsAndSectionsAnewKeepingTheSelectionAndTheFilter() throws {
        let f = try ListScreenFixture()
        try f.list.applyFilter(try FetchPredicate("year >= \"1900\""), text: "year >= \"1900\"")
        f.press(.down)
        let selected = try #require(f.selectedTitle)
        try f.list.reconfigureTab { tab in
            tab.sortDescriptors = [FetchSort("title")]
            tab.sectionNameKeyPath = nil
        }
        let titles = (0..<f.list.adapter.controller.numberOfObjects).map {
            f.list.adapter.controller.object(at: IndexPath(row: $0, section: 0)).string("title") ?? ""
        }
        #expect(titles == ["Count Zero", "Dune", "Kindred", "Neuromancer", "Solaris", "The Cyberiad"])
        #expect(f.selectedTitle == selected)
        #expect(f.list.filterText == "year >= \"1900\"")
        #expect(f.list.tab.sectionNameKeyPath == nil)
    }

    @Test func aSectionKeyTheSortDoesNotOrderByIsRefusedOnTheStatusLineAndTheTabStays() throws {
        let f = try ListScreenFixture()
        f.list.showSectionPicker(titles: ["none", "author"], selected: 0) { index, tab in
            tab.sectionNameKeyPath = index == 1 ? "author" : nil  // the sort is by year: refused
        }
        let frame = f.press(.down, .enter)
        #expect(frame.contains("Cannot section by author"), "\(frame)")
        #expect(f.list.tab.sectionNameKeyPath == "year")
    }

    @Test func theSortPickerChoosesAColumnAndItsDirection() throws {
        let f = try ListScreenFixture()
        f.list.showSortPicker(keys: ["title", "author"], selected: 0, ascending: true) { index, ascending, tab in
            tab.sortDescriptors = [FetchSort(["title", "author"][index], ascending: ascending)]
            tab.sectionNameKeyPath = nil
        }
        let picker = f.press()
        #expect(picker.contains("Sort by"))
        #expect(picker.contains("ascending (Tab changes)"))
        f.press(.tab, .enter)  // title, descending
        let first = f.list.adapter.controller.object(at: IndexPath(row: 0, section: 0)).string("title")
        #expect(first == "The Cyberiad")
        #expect(f.list.tab.sortDescriptors == [FetchSort("title", ascending: false)])
    }

    @Test func aSortChosenWithThePickerLandsAtTheTopNotAtTheOldSelection() throws {
        let f = try ListScreenFixture()
        f.press(.end)
        #expect(f.selectedTitle == "Emma")
        f.list.showSortPicker(keys: ["title", "author"], selected: 0, ascending: true) { index, ascending, tab in
            tab.sortDescriptors = [FetchSort(["title", "author"][index], ascending: ascending)]
            tab.sectionNameKeyPath = nil
        }
        let frame = f.press(.enter)
        #expect(f.selectedTitle == "Count Zero")
        #expect(f.list.positionText == "1/8")
        #expect(f.list.table.scrollOffset == 0)
        #expect(frame.contains("Count Zero"))
    }

    @Test func aTabsOwnPredicateStaysUnderEveryFilter() throws {
        var tab = ListTab(title: "Old", entity: "Book", sortDescriptors: [FetchSort("year")]) { _ in
            TableCell(title: "")
        }
        tab.predicate = try FetchPredicate("year < \"1900\"")
        #expect(tab.fetchRequest(filter: nil).predicate == tab.predicate)
        let narrowed = try #require(tab.fetchRequest(filter: try FetchPredicate("author == \"Austen\"")).predicate)
        #expect(narrowed == (try FetchPredicate("year < \"1900\"")).and(try FetchPredicate("author == \"Austen\"")))
    }
}
