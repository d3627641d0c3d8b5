import CLIKit
import TerminalUI

extension BankBrowser {
    /// `c`: pushes "Failures by year" over the list, with the filter in effect; Enter there
    /// comes back to that year's section in the Date tab.
    func showChart() {
        guard !isLoading else { return }
        do {
            let screen = try FailuresByYearScreen(
                context: context,
                filter: filter,
                filterText: filterText,
                clock: loop.clock,
                usesBlocks: options.usesBlocks
            )
            screen.animatesChanges = options.animated
            if let year = currentYear { screen.chart.select(label: year) }
            screen.onJump = { [unowned self] year in self.jump(toYear: year) }
            loop.push(screen)
        } catch {
            statusLine.showMessage("Could not chart the banks: \(ErrorReason.text(of: error))", at: now, style: .error)
        }
    }

    /// The year of the selected bank (the Date tab's section), to select it in the chart.
    var currentYear: String? {
        guard tab == .date, let section = table.selection?.section, section < adapter.controller.numberOfSections else {
            return nil
        }
        let name = adapter.controller.sections[section].name
        return name.isEmpty ? "—" : name
    }

    /// Shows `year`'s section ("—": banks without a closing date) at the top of the Date tab.
    func jump(toYear year: String) {
        if tab != .date { switchTab(to: .date) }
        let name = year == "—" ? "" : year
        guard let index = adapter.controller.sections.firstIndex(where: { $0.name == name }) else {
            statusLine.showMessage("No banks closed in \(year)", at: now)
            return
        }
        table.scrollToSection(index)
    }
}
