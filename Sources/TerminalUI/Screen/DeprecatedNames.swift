// The backends' former names, kept for one release: a backend was called a
// "screen", the word the views (`ListScreen`, `ChoiceListScreen`) also use.

/// The former name of ``Backend``.
@available(*, deprecated, renamed: "Backend")
public typealias Screen = Backend

/// The former name of ``TerminalBackend``.
@available(*, deprecated, renamed: "TerminalBackend")
public typealias TerminalScreen = TerminalBackend

/// The former name of ``CursesBackend``.
@available(*, deprecated, renamed: "CursesBackend")
public typealias CursesScreen = CursesBackend

/// The former name of ``MemoryBackend``.
@available(*, deprecated, renamed: "MemoryBackend")
public typealias MemoryScreen = MemoryBackend
