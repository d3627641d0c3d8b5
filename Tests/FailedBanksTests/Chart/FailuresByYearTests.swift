import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FailedBanksKit

/// Golden files of the failedbanks screens: `Tests/FailedBanksTests/Golden/<name>.txt`
/// (``GoldenFiles``: `UPDATE_GOLDEN=1` rewrites them; a missing file is an error that says so).
enum BanksGolden {
    static let files = GoldenFiles(
        directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden")
    )

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = files.mismatch(actual + "\n", named: name) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }
}

/// "Failures by year": `c` in the browser, and `failedbanks chart`.
@Suite struct FailuresByYearTests {
    /// The harness's banks by year: 2025: 1, 2024: 3, 2023: 5, 2020: 2, 2013: 1, 2009: 1.
    static func harness(width: Int = 80, height: Int = 24, blocks: Bool = false) throws -> BrowserHarness {
        var options = BrowserOptions()
        options.usesBlocks = blocks
        return try BrowserHarness(width: width, height: height, options: options)
    }

    var chartScreen: (BrowserHarness) -> FailuresByYearScreen? = { $0.browser.loop.topView as? FailuresByYearScreen }

    @Test func theChartAt80x24WithNoColorIsOneRowPerYearNewestFirst() throws {
        let h = try Self.harness()
        let screen = h.press(.character("c"))
        BanksGolden.check(screen, "chart-nocolor-80x24")
        let lines = screen.lines
        #expect(lines[0].contains("Failures by year"))
        #expect(lines[2].contains("2025 #") && lines[2].hasSuffix(" 1"))
        #expect(lines[4].contains("2023 ") && lines[4].hasSuffix(" 5"))
        // The largest year fills the bar area: 80 − 2 margins − "2023" − 2 spaces − one digit.
        #expect(lines[4].filter { $0 == "#" }.count == 80 - 2 - 4 - 2 - 1)
    }

    @Test func theChartAt40x12WithNoColor() throws {
        let h = try Self.harness(width: 40, height: 12)
        BanksGolden.check(h.press(.character("c")), "chart-nocolor-40x12")
    }

    @Test func eighthBlocksDrawSubCellLengths() throws {
        let h = try Self.harness(blocks: true)
        let screen = h.press(.character("c"))
        BanksGolden.check(screen, "chart-blocks-80x24")
        #expect(screen.contains("████"))
        // Narrow terminals fall back to #.
        let narrow = try Self.harness(width: 40, height: 12, blocks: true)
        #expect(!narrow.press(.character("c")).contains("█"))
        #expect(BarChart.barText(length: 2.5, usesBlocks: true) == "██▌")
        #expect(BarChart.barText(length: 0.125, usesBlocks: true) == "▏")
        #expect(BarChart.barText(length: 3.875, usesBlocks: true) == "███▉")
        #expect(BarChart.barText(length: 2.5, usesBlocks: false) == "###")
        #expect(BarChart.barText(length: 0.2, usesBlocks: false) == "#")
        #expect(BarChart.barText(length: 0, usesBlocks: true) == "")
    }

    @Test func anotherProcesssDeleteShrinksTheBarInFrames() throws {
        let h = try Self.harness()
        h.press(.character("c"))
        let db = try Database(path: h.store.path)
        try db.execute("DELETE FROM failed_bank_info WHERE name = 'First Bank of Ohio'")  // a 2024 bank: 3 → 2
        h.browser.pollExternalChanges()
        var frames: [String] = []
        let start = h.clock.now
        for offset in [0.0, 0.1, 0.2, 0.4] {
            h.clock.now = start + offset
            h.browser.loop.draw()
            let rows = h.text.lines[2...7].joined(separator: "\n")
            frames.append("t=+\(offset) s\n" + rows)
        }
        BanksGolden.check(frames.joined(separator: "\n"), "chart-delete-frames")
        let widths = frames.map { frame in frame.split(separator: "\n")[2].filter { $0 == "#" }.count }
        #expect(widths == widths.sorted(by: >) && widths.first! > widths.last!, "the 2024 bar shrinks: \(widths)")
        #expect(h.text.lines[3].hasSuffix(" 2"))
        #expect(chartScreen(h)?.controller.numberOfObjects == 12)
    }

    @Test func aDeleteInTheBrowsersContextReachesTheChart() throws {
        let h = try Self.harness()
        h.press(.character("c"))
        let screen = try #require(chartScreen(h))
        let context = h.browser.context
        let bank = try #require(screen.controller.sections.first { $0.name == "2025" }?.objects.first)
        context.delete(bank)
        try context.save()
        let text = h.press()
        #expect(!text.contains("2025"), "the emptied year's row goes:\n\(text)")
        #expect(screen.chart.bars.map(\.label) == (2009...2024).reversed().map(String.init))
        #expect(screen.chart.bars.first { $0.label == "2022" }?.value == 0)
    }

    @Test func enterJumpsToTheYearsSectionInTheDateTab() throws {
        let h = try Self.harness()
        h.press(.tab)  // the Name tab: the jump switches back to Date
        h.press(.character("c"))
        let screen = h.press(.down, .down, .down, .down, .down)  // 2025 → 2024 → 2023 → 2022 → 2021 → 2020
        #expect(chartScreen(h)?.chart.selectedBar?.label == "2020", "\(screen)")
        let list = h.press(.enter)
        BanksGolden.check(list, "chart-jump-80x24")
        #expect(h.browser.tab == .date)
        // The section's header as high as the content allows (2020 is near the end), its first bank selected.
        #expect(list.lines.contains { $0.hasPrefix(" 2020 (2) ") }, "\(list)")
        #expect(h.selectedName == "Almena State Bank")
        #expect(h.browser.loop.topView === h.browser.list)
    }

    @Test func everyYearOfTheRangeIsABarAQuietYearAZeroWithoutBar() throws {
        let h = try Self.harness()
        let screen = h.press(.character("c"))
        #expect(chartScreen(h)?.chart.bars.map(\.label) == (2009...2025).reversed().map(String.init))
        // 2022 had no failure: its row is the year and 0, no bar.
        let quiet = try #require(screen.lines.first { $0.hasPrefix(" 2022 ") }, "\(screen)")
        #expect(quiet.trimmingCharacters(in: .whitespaces) == "2022  0", "\(screen)")
        #expect(!quiet.contains("#"))
        // Banks without a closing date stay last, after the gap-free years.
        #expect(
            FailuresByYear.withQuietYears([
                .init(label: "2012", value: 3), .init(label: "2010", value: 1), .init(label: "—", value: 2),
            ]) == [
                .init(label: "2012", value: 3), .init(label: "2011", value: 0), .init(label: "2010", value: 1),
                .init(label: "—", value: 2),
            ]
        )
        // Enter on a quiet year says so, and the list is shown.
        h.press(.down, .down, .down)  // 2025 → 2024 → 2023 → 2022
        #expect(chartScreen(h)?.chart.selectedBar?.label == "2022")
        let list = h.press(.enter)
        #expect(list.contains("No banks closed in 2022"), "\(list)")
        #expect(h.browser.loop.topView === h.browser.list)
    }

    @Test func theRealListsQuietYearsAreInTheChart() throws {
        let store = try UpdateCommandTests.BundledStore()
        var output = ""
        let status = ChartCommand.run(
            ["--db", store.path],
            environment: ["NO_COLOR": "1"],
            width: 80,
            output: { output += $0 },
            errorOutput: { _ in }
        )
        #expect(status == 0)
        let rows = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for year in ["2005", "2006", "2018", "2021", "2022"] {
            #expect(rows.contains("\(year)  0"), "no row of 0 for \(year):\n\(output)")
        }
        let years = rows.compactMap { row in row.split(separator: " ").first.flatMap { Int($0) } }
        #expect(years == Array((years.last ?? 0)...(years.first ?? 0)).reversed(), "a year is missing:\n\(output)")
    }

    @Test func escReturnsToTheList() throws {
        let h = try Self.harness()
        let before = h.text
        h.press(.character("c"))
        #expect(h.press(.escape) == before)
    }

    @Test func aFilterAppliesToTheChartAndTheTitleSaysSo() throws {
        let h = try Self.harness()
        try h.browser.applyFilter(try FetchPredicate("state == \"CA\""), text: "state == \"CA\"")
        let screen = h.press(.character("c"))
        #expect(screen.lines[0].contains("Failures by year — filter: state == \"CA\""), "\(screen)")
        #expect(
            chartScreen(h)?.chart.bars
                == [.init(label: "2023", value: 2)]
                + (2010...2022).reversed().map { .init(label: String($0), value: 0) }
                + [.init(label: "2009", value: 1)]
        )
    }

    @Test func theChartCommandPrintsTheSameChart() throws {
        let h = try Self.harness()
        var output = ""
        var errors: [String] = []
        let status = ChartCommand.run(
            ["--db", h.store.path],
            environment: ["NO_COLOR": "1"],
            width: 40,
            output: { output += $0 },
            errorOutput: { errors.append($0) }
        )
        #expect(status == 0, "\(errors)")
        BanksGolden.check(output, "chart-command-nocolor-40")
        #expect(output.hasPrefix("Failures by year\n\n 2025 "))
        var filtered = ""
        #expect(
            ChartCommand.run(
                ["--db", h.store.path, "--where", "state == \"KS\""],
                environment: [:],
                width: 80,
                output: { filtered += $0 },
                errorOutput: { errors.append($0) }
            ) == 0
        )
        #expect(
            filtered.hasPrefix(
                "Failures by year — filter: state == \"KS\"\n\n 2023 "
                    + String(repeating: "█", count: 80 - 2 - 4 - 2 - 1) + " 1\n"
            ),
            "\(filtered)"
        )
        #expect(
            ChartCommand.run(
                ["--db", h.store.path, "--where", "nope == 1"],
                environment: [:],
                width: 80,
                output: { _ in },
                errorOutput: { errors.append($0) }
            ) == 64
        )
    }
}
