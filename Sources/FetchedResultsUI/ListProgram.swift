import BaseDirectories
import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// A whole program that is one ``ListScreen`` over a store of its own: the part every small app
/// would otherwise copy. It takes `--db PATH` (else a file in the XDG data folder, whose folder
/// it creates), fills a new store on first launch, takes the terminal over, and returns the
/// list's exit status; each failure is one line on standard error and a `sysexits.h` status.
///
///     let books = ListProgram(name: "books", model: model) { context in
///         for book in sampleBooks { context.insert(book) }
///     } configuration: { context in
///         ListScreenConfiguration(title: "Books", tabs: [byAuthor])
///     }
///     exit(books.run())   // books [--db PATH] [--no-animation]
///
/// The statuses of ``run(arguments:environment:)``: the list's (0 after `q`, 128 + the signal
/// that ended it), 64 for a usage error, the store's (SQLiteStore's `StoreFailure.exitStatus`:
/// 73 when its folder cannot be created, 65 for a file that is not a store…) when it cannot be
/// opened or fetched from, and 1 when there is no terminal to show it on. Tests build the same list on their own backend with
/// ``openStore(at:)`` and ``makeList(store:loop:animated:)``.
public struct ListProgram {
    /// The program's name: the prefix of its messages (`books: …`) and its store's default
    /// file name (`books.sqlite`).
    public var name: String
    /// The store's model.
    public var model: Model
    /// The folder under `$XDG_DATA_HOME` that holds the store unless `--db` names one (by default ``name``).
    public var dataFolder: String
    /// The smallest terminal the list draws in; a smaller one shows a "too small" notice.
    public var minimumSize = (width: 24, height: 8)
    /// Puts the first objects in a store the program has just created (the context is saved after).
    public var firstLaunch: (ObjectContext) throws -> Void
    /// The list screen's configuration, over the context it edits.
    public var configuration: (ObjectContext) throws -> ListScreenConfiguration

    /// A program named `name` over `model`, whose new store `firstLaunch` fills and whose list
    /// `configuration` describes.
    public init(
        name: String,
        model: Model,
        dataFolder: String? = nil,
        firstLaunch: @escaping (ObjectContext) throws -> Void = { _ in },
        configuration: @escaping (ObjectContext) throws -> ListScreenConfiguration
    ) {
        self.name = name
        self.model = model
        self.dataFolder = dataFolder ?? name
        self.firstLaunch = firstLaunch
        self.configuration = configuration
    }

    /// The store's path: the value of `--db` in `arguments`, else
    /// `$XDG_DATA_HOME/<dataFolder>/<name>.sqlite` (`XDGBaseDirectories`).
    public func storePath(arguments: [String], environment: [String: String]) -> String {
        if let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count { return arguments[index + 1] }
        return XDGBaseDirectories(environment: environment).data(dataFolder, name + ".sqlite")
    }

    /// Opens the store at `path`, creating its folder; a file that was not there yet is filled
    /// by ``firstLaunch`` and saved.
    ///
    /// - Throws: the store's errors (`StoreError.cannotCreateFolder` for the folder).
    public func openStore(at path: String) throws -> Store {
        try Store.createFolder(for: path)
        let isNew = !FileManager.default.fileExists(atPath: path)
        let store = try Store(path: path, model: model)
        if isNew {
            let context = ObjectContext(store: store)
            try firstLaunch(context)
            try context.save()
        }
        return store
    }

    /// The list screen over `store`, pushed on `loop`: ``configuration`` over a new context, its
    /// animations off when `animated` is false.
    public func makeList(store: Store, loop: TerminalRunLoop, animated: Bool = true) throws -> ListScreen {
        let context = ObjectContext(store: store)
        var configuration = try configuration(context)
        configuration.animated = configuration.animated && animated
        return try ListScreen(context: context, configuration: configuration, loop: loop)
    }

    /// Runs the program with `arguments` (without the program's own path: `--db PATH`,
    /// `--no-animation`, `--help`) until the list ends; the exit status (see the type's summary).
    public func run(
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32 {
        let usage = "usage: \(name) [--db PATH] [--no-animation]"
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        if let problem = usageProblem(arguments) {
            say("\(problem)\n\(usage)")
            return 64  // EX_USAGE
        }
        let path = storePath(arguments: arguments, environment: environment)
        let store: Store
        do {
            store = try openStore(at: path)
        } catch {
            say("\(path): \(error)")
            return StoreFailure(error).exitStatus
        }
        return show(store: store, animated: !arguments.contains("--no-animation"))
    }

    /// The list on the terminal until it ends; its exit status.
    func show(store: Store, animated: Bool) -> Int32 {
        let backend: CursesBackend
        do {
            backend = try CursesBackend()
        } catch {
            say("cannot use the terminal: \(error)")
            return 1
        }
        let loop = TerminalRunLoop(backend: backend, minimumWidth: minimumSize.width, minimumHeight: minimumSize.height)
        do {
            let status = try makeList(store: store, loop: loop, animated: animated).run().exitStatus
            backend.close()
            return status
        } catch {
            backend.close()
            say("\(store.path): \(error)")
            return StoreFailure(error).exitStatus
        }
    }

    /// What is wrong with `arguments`, or nil.
    func usageProblem(_ arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--db" where index + 1 < arguments.count: index += 2
            case "--db": return "--db needs a path"
            case "--no-animation": index += 1
            default: return "unknown argument '\(arguments[index])'"
            }
        }
        return nil
    }

    /// Writes `name: message` to standard error, each line's control characters escaped by the
    /// one policy of every program's output (``DisplayText/escapingControls(_:)``): a path or an
    /// error naming a file's contents cannot drive the terminal.
    func say(_ message: String) {
        FileHandle.standardError.write(Data(errorText(message).utf8))
    }

    /// What ``say(_:)`` writes: `name: message` and a line break, each line escaped.
    package func errorText(_ message: String) -> String {
        let lines = "\(name): \(message)".split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { DisplayText.escapingControls(String($0)) }.joined(separator: "\n") + "\n"
    }
}
