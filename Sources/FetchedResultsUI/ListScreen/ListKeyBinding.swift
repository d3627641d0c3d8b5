import Foundation
import TerminalUI

/// A key an app adds to a ``ListScreen`` (`a` to add a row, `c` to show a
/// chart), with the line the help overlay shows for it.
///
/// The screen offers it a key after the table's modal states (the Delete
/// button, an index jump) and before its own keys, so an app may also take
/// over one of those.
///
///     let add = ListKeyBinding(.character("a"), keys: "a", description: "add a note") { screen in
///         screen.loop.push(NoteEditor(context: screen.context))
///     }
///     configuration.keyBindings = [add]
public struct ListKeyBinding {
    /// The events that trigger it.
    public var events: [InputEvent]
    /// The keys as the help shows them ("a", "Ctrl-E").
    public var keys: String
    /// What it does, for the help.
    public var description: String
    /// Runs on the key, with the screen.
    public var action: (ListScreen) -> Void
    /// Where the help lists it (default: under "Commands").
    public var helpPlacement = HelpPlacement.commands

    /// Where a binding's line goes in the help overlay, which should fit the
    /// smallest terminal the app supports (an 80×24 overlay shows 21 lines).
    ///
    ///     chart.helpPlacement = .section("Screen")        // under the screen's "Screen" heading
    ///     update.helpPlacement = .sharingLine(with: "u")  // "u  U  undo the last change; U: update"
    public enum HelpPlacement: Equatable {
        /// Under a "Commands" heading of the app's own keys.
        case commands
        /// At the end of the help's section of that heading ("Browse", "Change",
        /// "Find", "Screen"); under "Commands" when there is none.
        case section(String)
        /// On the line of the built-in key `keys` ("u"), after it: the keys joined,
        /// the description appended ("; U: update"); under "Commands" when there is none.
        case sharingLine(with: String)
    }

    /// A binding of `events`.
    public init(
        _ events: InputEvent...,
        keys: String,
        description: String,
        action: @escaping (ListScreen) -> Void
    ) {
        self.events = events
        self.keys = keys
        self.description = description
        self.action = action
    }
}
