import Foundation

/// Where an application keeps its data, cache, configuration and state, by the XDG Base
/// Directory specification: `$XDG_DATA_HOME`, `$XDG_CACHE_HOME`, `$XDG_CONFIG_HOME` and
/// `$XDG_STATE_HOME` when set to an absolute path, else `$HOME/.local/share`, `$HOME/.cache`,
/// `$HOME/.config` and `$HOME/.local/state`. A relative or empty value is invalid by the
/// specification and ignored; an unset or empty `HOME` falls back to the account's home folder.
///
///     let folders = XDGBaseDirectories(environment: ["HOME": "/home/ada", "XDG_CACHE_HOME": "tmp"])
///     folders.dataHome                        // "/home/ada/.local/share"
///     folders.cacheHome                       // "/home/ada/.cache" (a relative value is ignored)
///     folders.data("books", "books.sqlite")   // "/home/ada/.local/share/books/books.sqlite"
public struct XDGBaseDirectories: Sendable, Equatable {
    /// The user's home folder: `$HOME`, else the account's.
    public var home: String
    /// User data: `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String
    /// Caches, which can be deleted at any time: `$XDG_CACHE_HOME`, else `~/.cache`.
    public var cacheHome: String
    /// Configuration: `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String
    /// State to keep between runs that is not worth backing up (history, logs): `$XDG_STATE_HOME`, else `~/.local/state`.
    public var stateHome: String

    /// The folders `environment` names (by default the process's).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func folder(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        self.home = home
        dataHome = folder("XDG_DATA_HOME", ".local/share")
        cacheHome = folder("XDG_CACHE_HOME", ".cache")
        configHome = folder("XDG_CONFIG_HOME", ".config")
        stateHome = folder("XDG_STATE_HOME", ".local/state")
    }

    /// A path under ``dataHome``: `data("books", "books.sqlite")` is `$XDG_DATA_HOME/books/books.sqlite`.
    public func data(_ components: String...) -> String { path(dataHome, components) }

    /// A path under ``cacheHome``: `cache("books")` is `$XDG_CACHE_HOME/books`.
    public func cache(_ components: String...) -> String { path(cacheHome, components) }

    /// A path under ``configHome``: `config("books", "settings")` is `$XDG_CONFIG_HOME/books/settings`.
    public func config(_ components: String...) -> String { path(configHome, components) }

    /// A path under ``stateHome``: `state("books", "history")` is `$XDG_STATE_HOME/books/history`.
    public func state(_ components: String...) -> String { path(stateHome, components) }

    private func path(_ base: String, _ components: [String]) -> String {
        ([base] + components).joined(separator: "/")
    }
}
