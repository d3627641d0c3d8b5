import CLIKit
import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import SQLiteStore

/// `fetchedtable list FILE [options] [--format text|json|csv]`
///
/// Prints the table's rows the way the browser shows them — ordered and sectioned by a
/// ``FetchedResultsController`` with the same request — in the formats of every app's
/// `list` (``ResultsListWriter``): JSON `{"sections":[{"name":…,"indexTitle":…,"objects":[{"id":…,<columns>…}]}]}`
/// (`_rowid` the row id — `__rowid` when a column is named `_rowid`, see ``ResultsListWriter/identityKey(avoiding:)`` —
/// then every column under its own name, as stored, a boolean column's as `true`/`false`), CSV `section,_rowid,<columns>`,
/// text a line per section (`Math (3 rows)`) and `  title, subtitle, …` per row. `--columns` chooses
/// the columns of all three, in its order (text: `  A, B, …` per row).
/// The file is opened read-only: listing never writes it.
///
///     TableListCommand.run(["school.sqlite", "--table", "student", "--sort", "subject, number", "--format", "json"])
package enum TableListCommand {
    /// Runs the subcommand with `arguments` (after `list`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        ListProcess.run { output, errorOutput, escapesForTerminal in
            run(arguments, output: output, errorOutput: errorOutput, escapesForTerminal: escapesForTerminal)
        }
    }

    /// The same with the output going to `output` and messages (one line each) to `errorOutput`, for tests;
    /// `escapesForTerminal` as ``ResultsListWriter/escapesForTerminal`` (a terminal reads the output).
    static func run(
        _ arguments: [String],
        output: (String) -> Void,
        errorOutput: (String) -> Void,
        escapesForTerminal: Bool = false
    ) -> Int32 {
        FetchedTableCommand.run(
            spec: TableOptions.listSpec,
            arguments: arguments,
            help: { output($0 + "\n") },
            errorOutput: errorOutput
        ) { parsed in
            var options = try TableOptions(parsed)
            guard let format = ResultsListWriter.Format(rawValue: (options.format ?? "text").lowercased()) else {
                throw OptionError("--format must be text, json or csv, not '\(options.format ?? "")'")
            }
            if options.track {
                throw OptionError(
                    "--track: list prints the rows once and installs nothing; use watch --track, or the browser"
                )
            }
            options.readOnly = true
            if options.postgres != nil && options.query == nil {
                let (_, opening) = try PostgresOpening.open(options, command: "fetchedtable list")
                guard let opening else { return ExitStatus.usage }
                return try TableListCommand.listPostgres(opening, options: options, format: format, output: output)
            }
            let (opened, controller) = try TableFetch.openAndFetch(options, command: "fetchedtable list")
            var writer = makeWriter(opened, chosen: options.columns)
            writer.escapesForTerminal = escapesForTerminal
            do {
                try writer.write(controller, format: format, output: output)
            } catch {
                throw TableDatabase.refusal(error, path: options.file)
            }
            return ExitStatus.ok
        }
    }

    /// The writer of `opened`'s columns (it reads the rows from the controller's store a batch at a time):
    /// every column, or those `--columns` chose in their order.
    static func makeWriter(_ opened: OpenedTable, chosen: [String]? = nil) -> ResultsListWriter {
        // Every column under its own name; the row's identity under a key no column has (`_rowid`).
        let columns = chosen ?? opened.query.columns.map(\.name)
        // A CSV file's numbers as written (companion columns), read after the columns' own values.
        let written = columns.indices.compactMap { index in
            opened.query.writtenForms[columns[index]].map { (index: index, companion: $0) }
        }
        let keys = columns + written.map(\.companion)
        var writer = ResultsListWriter(columns: columns, keyPaths: keys, noun: ("row", "rows"))
        for (offset, form) in written.enumerated() { writer.writtenForms[form.index] = columns.count + offset }
        writer.idKey = ResultsListWriter.identityKey(avoiding: columns)
        let types = columns.map { name in opened.query.columns.first { $0.name == name }?.type ?? .text }
        let shown = chosen ?? [opened.query.titleKey] + opened.query.subtitleKeys
        let positions = shown.compactMap { columns.firstIndex(of: $0) }
        let writtenAt = writer.writtenForms
        writer.textLine = { _, values in
            "  "
                + positions.map { position in
                    if let at = writtenAt[position], case .text(let text) = values[at] {
                        return text
                    }
                    return DisplayText.of(values[position], type: types[position])
                }
                .joined(separator: ", ")
        }
        return writer
    }
}

/// The common start of `list` and `watch`: the file opened, the table chosen, the options
/// checked against its columns, the controller fetched.
enum TableFetch {
    /// Opens the table `options` name and fetches it.
    static func openAndFetch(_ options: TableOptions, command: String) throws -> (OpenedTable, FetchedResultsController)
    {
        let database = try TableDatabase.open(options: options)
        guard let table = try database.soleTable(options.table, command: command) else {
            throw FetchedTableError.usage("\(command): choose a table with --table (\(database.tableListPhrase))")
        }
        let opened = try database.open(table, options: options)
        let controller = makeController(opened.query, context: ObjectContext(store: opened.store))
        do {
            // A query's first run is in its order by row id: fetched without a read of the table.
            let presorted = try database.querySource?.firstRunRows.map(controller.performFetch(presorted:))
            if presorted != true { try controller.performFetch() }
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        return (opened, controller)
    }

    /// The controller of `query`: its request, sections and index titles, as the browser's tab.
    static func makeController(_ query: TableQuery, context: ObjectContext) -> FetchedResultsController {
        let request = FetchRequest(
            entity: query.table,
            predicate: query.predicate,
            sortDescriptors: query.sortDescriptors
        )
        let controller = FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: query.section?.keyPath
        )
        if let provider = TableListTab.indexTitle(for: query.section) {
            controller.sectionIndexTitleProvider = provider
        }
        return controller
    }
}
