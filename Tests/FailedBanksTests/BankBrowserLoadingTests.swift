@_spi(Benchmark) import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
@_spi(Benchmark) import TerminalUI
import TestSupport
import Testing

@testable import FailedBanksKit

/// A screen that keeps the text of every frame presented.
private final class FrameRecorder: Backend {
    let width: Int
    let height: Int
    private(set) var frames: [String] = []
    /// Times the run loop waited for input (each wait answers `q`).
    private(set) var waits = 0

    init(width: Int = 80, height: Int = 24) {
        self.width = width
        self.height = height
    }

    func present(_ canvas: Canvas) { frames.append(canvas.text) }
    func nextEvent(timeoutMilliseconds: Int?) -> InputEvent? {
        waits += 1
        return .character("q")
    }
}

/// A store with the harness's banks and an empty cache directory.
private final class LoadingFixture {
    let directory = TemporaryDirectory("fb-loading")
    let store: Store
    var cacheDirectory: String { directory.path("cache") }

    init() throws {
        let path = directory.path("banks.sqlite")
        store = try Store(path: path, model: BrowserModel.model)
        try BrowserHarness.writeBanks(to: store)
    }

    func browser(on screen: Backend, options: BrowserOptions = BrowserOptions()) throws -> BankBrowser {
        try BankBrowser(
            store: store,
            options: options,
            backend: screen,
            clock: TestClock(now: 100),
            cacheDirectory: cacheDirectory
        )
    }
}

/// The first launch over a store without a valid results cache: a provisional
/// first page at once, the full results right after it.
@Suite struct BankBrowserLoadingTests {
    @Test func withoutACacheTheFirstFrameIsThePreviewAndTheNextTheFullResults() throws {
        let f = try LoadingFixture()
        let screen = FrameRecorder()
        let browser = try f.browser(on: screen)
        #expect(browser.isLoading)
        #expect(browser.adapter == nil, "no fetch has run yet")

        browser.loop.draw()
        #expect(!browser.isLoading)
        #expect(screen.frames.count == 2)
        // Frame 1: the newest banks under their years, without counts, and "Loading…".
        let first = screen.frames[0].lines
        #expect(first[2].hasPrefix(" 2025 (…)"))
        #expect(first[3].contains("Pulaski Savings Bank"))
        #expect(first[4].contains("Chicago, IL"))
        #expect(first[5].hasPrefix(" 2024 (…)"))
        #expect(first[6].contains("The First National Bank of Lindsay"))
        #expect(first[23].hasSuffix("Loading…"))
        #expect(!screen.frames[0].contains("(1)") && !screen.frames[0].contains("/13"))
        // Frame 2: the full fetch, with counts, the position and the year index.
        let second = screen.frames[1].lines
        #expect(second[2].hasPrefix(" 2025 (1)"))
        #expect(second[3].contains("Pulaski Savings Bank"))
        #expect(second[5].hasPrefix(" 2024 (3)"))
        #expect(second[23].hasSuffix("1/13"))
        #expect(second.contains { $0.hasSuffix("2009") })
        #expect(browser.adapter.selectedObject?.string("name") == "Pulaski Savings Bank")
    }

    @Test func withAValidCacheTheFirstFrameIsTheFullResults() throws {
        let f = try LoadingFixture()
        let firstLaunch = try f.browser(on: FrameRecorder())
        firstLaunch.loop.draw()  // the fetch writes the cache
        let screen = FrameRecorder()
        let browser = try f.browser(on: screen)
        #expect(!browser.isLoading)
        #expect(browser.adapter.controller.lastFetchUsedCache)
        browser.loop.draw()
        #expect(screen.frames.count == 1)
        #expect(screen.frames[0].lines[2].hasPrefix(" 2025 (1)"))
        #expect(screen.frames[0].lines[23].hasSuffix("1/13"))
    }

    @Test func theOtherTabsCachesAreFilledInTheBackgroundSoTheFirstSwitchReadsThem() throws {
        let f = try LoadingFixture()
        let browser = try f.browser(on: FrameRecorder())
        browser.loop.draw()  // the preview, then the full fetch
        #expect(browser.tabsToWarm == [.name, .state])
        // The ticker warms one tab at a time; wait for each to finish (a generous deadline, not a count of ticks).
        let deadline = Date().addingTimeInterval(60)
        while (!browser.tabsToWarm.isEmpty || !f.store.hasReaderConnectionFree) && Date() < deadline {
            browser.warmNextTab()
            usleep(10_000)
        }
        #expect(browser.tabsToWarm.isEmpty)
        browser.switchTab(to: .name)
        #expect(browser.tab == .name)
        #expect(browser.adapter.controller.lastFetchUsedCache)
        browser.switchTab(to: .state)
        #expect(browser.adapter.controller.lastFetchUsedCache)
    }

    @Test func keysDuringLoadingAreIgnoredAndQStillQuits() throws {
        let f = try LoadingFixture()
        let screen = FrameRecorder()
        let browser = try f.browser(on: screen)
        for key: InputEvent in [
            .down, .pageDown, .character("d"), .enter, .tab, .character("/"), .character("\\"), .character("u"),
        ] {
            #expect(browser.handle(key) == .ignored, "\(key)")
        }
        // Ignored by the browser, q reaches the run loop's fallback, which quits.
        #expect(browser.handle(.character("q")) == .ignored)
        browser.switchTab(to: .name)
        #expect(browser.tab == .date)
        browser.loop.draw()
        #expect(browser.adapter.selectedObject?.string("name") == "Pulaski Savings Bank")
        #expect(browser.adapter.controller.numberOfObjects == 13)
        #expect(!browser.loop.views.contains { $0 is ObjectDetailScreen })
        // Loaded: keys act again.
        #expect(browser.handle(.down) == .handled)
        #expect(browser.positionText == "2/13")
        browser.switchTab(to: .name)
        #expect(browser.tab == .name)
    }

    @Test func anotherSortTabLoadsTheSameWay() throws {
        let f = try LoadingFixture()
        let screen = FrameRecorder()
        var options = BrowserOptions()
        options.sort = .state
        let browser = try f.browser(on: screen, options: options)
        #expect(browser.isLoading)
        browser.loop.draw()
        let first = screen.frames[0].lines
        let second = screen.frames[1].lines
        #expect(first[2].hasPrefix(" CA (…)"))
        #expect(second[2].hasPrefix(" CA (3)"))
        #expect(first[3].contains("1st Centennial Bank") && second[3].contains("1st Centennial Bank"))
    }

    @Test func aDeferredFetchThatFailsQuitsWithItsErrorForTheLauncher() throws {
        let f = try LoadingFixture()
        let screen = FrameRecorder()
        let browser = try f.browser(on: screen)
        #expect(browser.isLoading)
        // The table goes away between the first frame and the fetch.
        try f.store.database.execute("ALTER TABLE failed_bank_details RENAME TO gone")
        #expect(browser.run() == .quit)
        #expect(screen.waits == 0, "quit before waiting for a key")
        #expect(browser.loadError != nil)
        #expect(browser.isLoading)
        #expect(browser.adapter == nil)
    }
}

extension Store {
    /// True when the second connection is not lent out (a background job has finished).
    fileprivate var hasReaderConnectionFree: Bool {
        guard let lease = acquireReaderConnection() else { return false }
        lease.release()
        return true
    }
}
