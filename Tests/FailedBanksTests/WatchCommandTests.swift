import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// `failedbanks watch` run in-process and driven step by step.
///
/// Watch asks `shouldStop` on every tick, just before it polls the store. The
/// driver runs the next step there (a write through another connection, as
/// another process would), so the poll that follows sees exactly that step's
/// changes; after the last step has been polled, it stops watch. The poll
/// interval is 0, so a run takes milliseconds.
///
///     let run = try WatchRun(["--db", path], steps: [{ try shell.execute("DELETE FROM failed_bank_info WHERE id = 3") }])
///     run.initial      // [the snapshot line]
///     run.afterStep[0] // the batch line(s) printed for the delete
struct WatchRun {
    var status: Int32
    /// The lines printed before the first step: the snapshot.
    var initial: [String] = []
    /// The lines printed by the poll after each step (fewer entries when watch ended early).
    var afterStep: [[String]] = []
    var errors: [String] = []

    /// Every line, in order.
    var lines: [String] { initial + afterStep.flatMap { $0 } }

    init(_ arguments: [String], steps: [() throws -> Void]) throws {
        final class Lines { var all: [String] = [] }
        let printed = Lines()
        var segments: [[String]] = []
        var taken = 0
        var tick = 0
        var stepError: (any Error)?
        var errors: [String] = []
        status = WatchCommand.run(
            arguments,
            output: {
                printed.all.append($0)
                return true
            },
            errorOutput: { errors.append($0) },
            shouldStop: {
                segments.append(Array(printed.all[taken...]))
                taken = printed.all.count
                defer { tick += 1 }
                guard tick < steps.count else { return true }
                do { try steps[tick]() } catch {
                    stepError = error
                    return true
                }
                return false
            },
            pollInterval: 0
        )
        if let stepError { throw stepError }
        if taken < printed.all.count { segments.append(Array(printed.all[taken...])) }
        initial = segments.first ?? []
        afterStep = Array(segments.dropFirst())
        self.errors = errors
    }
}

/// `failedbanks watch`: its contract (README, "failedbanks"), one rule per test.
@Suite struct WatchCommandTests {
    /// Row ids 1…4. By date: 2025 [1, 2], 2024 [3], 2023 [4].
    static let banks: [CommandTestStore.Bank] = [
        .init("Alpha Bank", "Austin", "TX", "2025-06-27", cert: 1),  // 1
        .init("Beta Bank", "Fresno", "CA", "2025-01-10", cert: 2),  // 2
        .init("Gamma Bank", "Peoria", "IL", "2024-11-08", cert: 3),  // 3
        .init("Delta Bank", "Dallas", "TX", "2023-05-01", cert: 4),  // 4
    ]
    static let snapshot =
        #"{"type":"snapshot","sections":[{"name":"2025","ids":[1,2]},{"name":"2024","ids":[3]},{"name":"2023","ids":[4]}]}"#

    /// SQL inserting bank 5 ("Epsilon Bank", ID) closed on `closeDate`: its info and details rows.
    static func epsilonRows(closing closeDate: String) -> String {
        """
        INSERT INTO failed_bank_info(name, city, state) VALUES ('Epsilon Bank', 'Boise', 'ID');
        INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('\(closeDate)', 5, last_insert_rowid());
        """
    }

    /// The same in one transaction.
    static func insertEpsilon(_ closeDate: String) -> String {
        "BEGIN;\n" + epsilonRows(closing: closeDate) + "COMMIT;"
    }

    let store: CommandTestStore
    /// A second connection, writing raw SQL as the `sqlite3` shell does.
    let shell: Database

    init() throws {
        store = try CommandTestStore("watch", banks: Self.banks)
        shell = try store.connection()
    }

    /// Runs watch over the test store with `arguments`, one SQL script per step.
    func watch(_ arguments: [String] = [], sql steps: String...) throws -> WatchRun {
        try WatchRun(["--db", store.path] + arguments, steps: steps.map { sql in { try shell.execute(sql) } })
    }

    /// The state rebuilt from watch's lines (snapshot + batches, by rule 4 of FetchedResults.docc/ChangeBatches.md) is what `list` prints now.
    func expectAgreesWithList(
        _ run: WatchRun,
        _ arguments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let watched = try WatchedState(jsonLines: run.lines.joined(separator: "\n"))
        #expect(watched.problems.isEmpty, "\(watched.problems)", sourceLocation: sourceLocation)
        let listed = try WatchedState.Section.list(
            fromJSON: ListRun(["--db", store.path, "--format", "json"] + arguments).output
        )
        #expect(watched.sections == listed, sourceLocation: sourceLocation)
    }

    // MARK: The snapshot

    @Test("the first line is the snapshot: every section's name and its row ids in order")
    func snapshotLine() throws {
        let run = try watch()
        #expect(run.status == 0)
        #expect(run.initial == [Self.snapshot])
        #expect(run.afterStep.isEmpty)
        #expect(run.errors.isEmpty)
    }

    @Test("the snapshot follows --sort and --where")
    func snapshotFollowsSortAndWhere() throws {
        #expect(
            try watch(["--sort", "name"]).initial
                == [
                    #"{"type":"snapshot","sections":[{"name":"A","ids":[1]},{"name":"B","ids":[2]},{"name":"D","ids":[4]},{"name":"G","ids":[3]}]}"#
                ]
        )
        #expect(
            try watch(["--sort", "state", "--where", "state != 'IL'"]).initial
                == [#"{"type":"snapshot","sections":[{"name":"CA","ids":[2]},{"name":"TX","ids":[1,4]}]}"#]
        )
        #expect(try watch(["--where", "state == 'NY'"]).initial == [#"{"type":"snapshot","sections":[]}"#])
    }

    @Test("nothing changed: no line after the snapshot")
    func quietStoreStaysQuiet() throws {
        let run = try watch(sql: "SELECT 1", "SELECT 2")
        #expect(run.afterStep == [[], []])
    }

    // MARK: Batches

    @Test("an insert into a new year: one batch line with the section insert, the object insert and the new counts")
    func insertIntoNewYearSection() throws {
        let run = try watch(sql: Self.insertEpsilon("2026-02-01"))
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"insert","index":0,"name":"2026"}],"objects":[{"change":"insert","id":5,"to":[0,0]}],"counts":[1,2,1,1]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    @Test("an insert into an existing year: an object insert only")
    func insertIntoExistingSection() throws {
        let run = try watch(sql: Self.insertEpsilon("2025-03-01"))
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[],"objects":[{"change":"insert","id":5,"to":[0,1]}],"counts":[3,1,1]}"#
                ]
            ]
        )
    }

    @Test(
        "a delete that empties a section: the section delete (old index, no name), the object delete (old coordinates)"
    )
    func deleteEmptyingSection() throws {
        let run = try watch(sql: "DELETE FROM failed_bank_info WHERE id = 3")
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":1}],"objects":[{"change":"delete","id":3,"from":[1,0]}],"counts":[2,1]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    @Test("a new closing date in another year moves the bank: from old coordinates to new ones")
    func moveBetweenYears() throws {
        let run = try watch(sql: "UPDATE failed_bank_details SET close_date = '2024-12-01' WHERE info_id = 2")
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[],"objects":[{"change":"move","id":2,"from":[0,1],"to":[1,0]}],"counts":[1,2,1]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    @Test("a move out of an emptied year into a new one deletes the old section and inserts the new")
    func moveCreatingAndEmptyingSections() throws {
        let run = try watch(sql: "UPDATE failed_bank_details SET close_date = '2026-03-03' WHERE info_id = 4")
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":2},{"change":"insert","index":0,"name":"2026"}],"objects":[{"change":"move","id":4,"from":[2,0],"to":[0,0]}],"counts":[1,2,1]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    @Test(
        "a change that leaves the bank in place is an update with both coordinates, for its own row or its details row"
    )
    func update() throws {
        let run = try watch(
            sql: "UPDATE failed_bank_info SET city = 'Round Rock' WHERE id = 1",
            "UPDATE failed_bank_details SET fund = 10538 WHERE info_id = 3"
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[],"objects":[{"change":"update","id":1,"from":[0,0],"to":[0,0]}],"counts":[2,1,1]}"#
                ],
                [
                    #"{"type":"batch","sections":[],"objects":[{"change":"update","id":3,"from":[1,0],"to":[1,0]}],"counts":[2,1,1]}"#
                ],
            ]
        )
    }

    @Test("one transaction is one batch line: section deletes, then inserts; object deletes, inserts, moves, updates")
    func mixedBatchOrder() throws {
        let run = try watch(
            sql: """
                BEGIN;
                DELETE FROM failed_bank_info WHERE id = 3;
                INSERT INTO failed_bank_info(name, city, state) VALUES ('Epsilon Bank', 'Boise', 'ID');
                INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2026-02-01', 5, last_insert_rowid());
                UPDATE failed_bank_details SET close_date = '2025-03-01' WHERE info_id = 4;
                UPDATE failed_bank_info SET city = 'Round Rock' WHERE id = 1;
                COMMIT;
                """
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":1},{"change":"delete","index":2},{"change":"insert","index":0,"name":"2026"}],"#
                        + #""objects":[{"change":"delete","id":3,"from":[1,0]},{"change":"insert","id":5,"to":[0,0]},"#
                        + #"{"change":"move","id":4,"from":[2,0],"to":[1,1]},{"change":"update","id":1,"from":[0,0],"to":[1,0]}],"counts":[1,3]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    @Test("--where: a change outside the filter prints nothing; entering and leaving it are an insert and a delete")
    func filteredBatches() throws {
        let arguments = ["--where", "state == 'TX'"]
        let run = try watch(
            arguments,
            sql: "UPDATE failed_bank_info SET city = 'Modesto' WHERE id = 2",
            "UPDATE failed_bank_info SET state = 'TX' WHERE id = 2",
            "UPDATE failed_bank_info SET state = 'OK' WHERE id = 4"
        )
        #expect(
            run.initial == [#"{"type":"snapshot","sections":[{"name":"2025","ids":[1]},{"name":"2023","ids":[4]}]}"#]
        )
        #expect(
            run.afterStep == [
                [],
                [#"{"type":"batch","sections":[],"objects":[{"change":"insert","id":2,"to":[0,1]}],"counts":[2,1]}"#],
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":1}],"objects":[{"change":"delete","id":4,"from":[1,0]}],"counts":[2]}"#
                ],
            ]
        )
        try expectAgreesWithList(run, arguments)
    }

    @Test("--sort name: a rename across initials moves the bank between letter sections")
    func nameSortMove() throws {
        let arguments = ["--sort", "name"]
        let run = try watch(arguments, sql: "UPDATE failed_bank_info SET name = '1st Alpha Bank' WHERE id = 1")
        #expect(
            run.afterStep == [
                [
                    ##"{"type":"batch","sections":[{"change":"delete","index":0},{"change":"insert","index":0,"name":"#"}],"objects":[{"change":"move","id":1,"from":[0,0],"to":[0,0]}],"counts":[1,1,1,1]}"##
                ]
            ]
        )
        try expectAgreesWithList(run, arguments)
    }

    // MARK: Other writers

    @Test("a save by another store connection (another failedbanks process) is printed as a batch")
    func changeByAnotherStore() throws {
        let other = try Store(path: store.path, model: BrowserModel.model)
        let context = ObjectContext(store: other)
        let run = try WatchRun(
            ["--db", store.path],
            steps: [
                {
                    let bank = try #require(
                        try context.fetch(FailedBankModel.info, where: "id = ?", [.integer(3)]).first
                    )
                    context.delete(bank)
                    try context.save()
                }
            ]
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":1}],"objects":[{"change":"delete","id":3,"from":[1,0]}],"counts":[2,1]}"#
                ]
            ]
        )
    }

    @Test(
        "a change made by the sqlite3 shell, another process, is printed as a batch",
        .enabled(if: BrowserFixture.sqlite3 != nil, "no sqlite3 shell")
    )
    func changeBySQLiteShell() throws {
        let sqlite3 = try #require(BrowserFixture.sqlite3)
        let path = store.path
        let run = try WatchRun(
            ["--db", path],
            steps: [
                {
                    let result = try ProcessRunner.run(
                        sqlite3,
                        [path, "UPDATE failed_bank_details SET close_date = '2024-12-01' WHERE info_id = 2;"]
                    )
                    #expect(result.status == 0, "\(result.standardError)")
                }
            ]
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[],"objects":[{"change":"move","id":2,"from":[0,1],"to":[1,0]}],"counts":[1,2,1]}"#
                ]
            ]
        )
    }

    /// Counted in polls, not in seconds: on a loaded machine a thread may wait seconds for a core, but
    /// the batch must still come from the first poll that can see the commit (the poll interval,
    /// 100 ms by default, is what bounds the latency in time).
    @Test("a change committed by another connection at any moment is printed by the next poll")
    func latency() throws {
        final class Clock: @unchecked Sendable {
            private let lock = NSLock()
            private var _ticks = 0, _committedAtTick: Int?, _failure: String?
            var ticks: Int { lock.withLock { _ticks } }
            var committedAtTick: Int? { lock.withLock { _committedAtTick } }
            var failure: String? { lock.withLock { _failure } }
            func tick() { lock.withLock { _ticks += 1 } }
            func commit() { lock.withLock { _committedAtTick = _ticks } }
            func fail(_ message: String) { lock.withLock { _failure = message } }
        }
        let clock = Clock()
        let path = store.path
        let sql = Self.insertEpsilon("2026-02-01")
        var printedAtTick: Int?
        var writerStarted = false
        let started = Date()
        let status = WatchCommand.run(
            ["--db", path],
            output: { line in
                if line.contains(#""type":"batch""#) && printedAtTick == nil { printedAtTick = clock.ticks }
                return true
            },
            errorOutput: { _ in },
            shouldStop: {
                if !writerStarted {
                    writerStarted = true
                    // Mid-way between two polls, as another process would write.
                    Thread {
                        usleep(150_000)
                        do {
                            try Database(path: path).execute(sql)
                            clock.commit()
                        } catch {
                            clock.fail("\(error)")
                        }
                    }.start()
                }
                if printedAtTick != nil || clock.failure != nil || Date().timeIntervalSince(started) > 120 {
                    return true
                }
                clock.tick()  // the poll that follows is number `ticks`
                return false
            }
        )
        #expect(status == 0)
        #expect(clock.failure == nil)
        let committed = try #require(clock.committedAtTick)
        let printed = try #require(printedAtTick, "no batch line within 120 s")
        // A commit made during poll `committed` is seen by that poll or the next one.
        #expect(printed <= committed + 1, "committed during poll \(committed), printed by poll \(printed)")
    }

    // MARK: Resets

    @Test("after a bulk write (reset marker), the refetch diffed against what was printed: a batch line")
    func bulkWriteResetPrintsABatch() throws {
        let other = try Store(path: store.path, model: BrowserModel.model)
        let run = try WatchRun(
            ["--db", store.path],
            steps: [
                { try other.bulkWrite { db in try db.execute(Self.epsilonRows(closing: "2026-02-01")) } },
                { try other.bulkWrite { _ in } },
                { try self.shell.execute("DELETE FROM failed_bank_info WHERE id = 3") },
            ]
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"insert","index":0,"name":"2026"}],"objects":[{"change":"insert","id":5,"to":[0,0]}],"counts":[1,2,1,1]}"#
                ],
                [],
                [
                    #"{"type":"batch","sections":[{"change":"delete","index":2}],"objects":[{"change":"delete","id":3,"from":[2,0]}],"counts":[1,2,1]}"#
                ],
            ],
            "a reset is a batch like any other; one that changes nothing visible prints nothing"
        )
        try expectAgreesWithList(run)
    }

    @Test("a watcher whose history position was pruned gets a reset: the refetch's batch line")
    func prunedHistoryPrintsABatch() throws {
        let other = try Store(path: store.path, model: BrowserModel.model)
        other.historyLimit = 1  // keep only the newest history entry
        let context = ObjectContext(store: other)
        let run = try WatchRun(
            ["--db", store.path],
            steps: [
                {
                    let info = context.insert(into: FailedBankModel.info)
                    info["name"] = .text("Epsilon Bank")
                    info["city"] = .text("Boise")
                    info["state"] = .text("ID")
                    let details = context.insert(into: FailedBankModel.details)
                    details["closeDate"] = .text("2026-02-01")
                    details["cert"] = .integer(5)
                    info.setRelated(details, for: "details")
                    try context.save()
                }
            ]
        )
        #expect(
            run.afterStep == [
                [
                    #"{"type":"batch","sections":[{"change":"insert","index":0,"name":"2026"}],"objects":[{"change":"insert","id":5,"to":[0,0]}],"counts":[1,2,1,1]}"#
                ]
            ]
        )
        try expectAgreesWithList(run)
    }

    // MARK: Ending and errors

    @Test("watch ends with status 0 when its reader goes away (the output fails)")
    func readerGone() throws {
        var polls = 0
        let status = WatchCommand.run(
            ["--db", store.path],
            output: { _ in false },
            errorOutput: { _ in },
            shouldStop: {
                polls += 1
                return polls > 100
            },
            pollInterval: 0
        )
        #expect(status == 0)
        #expect(polls == 0, "no polling once the snapshot could not be written")
    }

    @Test("a --where that does not parse is a usage error (64) naming the column; nothing is printed")
    func badPredicate() throws {
        let run = try watch(["--where", "state == 'TX' AND"])
        #expect(run.status == 64)
        #expect(run.lines.isEmpty)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.contains("watch: --where: column 18: ") == true, "\(run.errors)")
        #expect(
            try watch(["--where", "zipCode == 1"]).errors.first?.contains(
                "watch: --where: unknown key path \"zipCode\""
            ) == true
        )
        #expect(try watch(["--where", "zipCode == 1"]).status == 64)
    }

    @Test("no store at --db: exit 66, nothing printed, no file created")
    func missingStore() throws {
        let path = store.scratch.path("missing.sqlite")
        let run = try WatchRun(["--db", path], steps: [])
        #expect(run.status == 66)
        #expect(run.lines.isEmpty)
        #expect(run.errors.first?.contains("\(path): no store there") == true, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("--help prints the usage and exits 0; --format is not an option of watch")
    func helpAndUnknownOption() throws {
        let help = try watch(["--help"])
        #expect(help.status == 0)
        #expect(help.lines.count == 1 && help.lines[0].contains("failedbanks watch"))
        let format = try watch(["--format", "json"])
        #expect(format.status == 64)
        #expect(format.errors.first?.contains("unknown option '--format'") == true, "\(format.errors)")
    }
}
