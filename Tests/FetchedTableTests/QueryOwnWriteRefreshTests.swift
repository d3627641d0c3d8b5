import Foundation
import SQLiteStore
import Testing

@testable import FetchedTableKit

/// A query result's re-runs after the browser's own writes (`d`, `e`, `a`, `u`, Ctrl-R on the
/// result) keep the write's message on the status line: every run until one that began after the
/// last write, however the runs and the writes interleave.
@Suite struct QueryOwnWriteRefreshTests {
    /// A run of the query that began at `began` and took a second.
    static func run(began: Date) -> QueryRefresh {
        QueryRefresh(date: began.addingTimeInterval(1), tables: ["orders"], change: QueryResultChange(), seconds: 1)
    }

    @Test func aRunAfterTheWriteFollowsItAndTheNextDoesNot() {
        let queries = QueryTabs()
        let saved = Date(timeIntervalSince1970: 1000)
        queries.ownWriteSaved = saved
        #expect(queries.followsOwnWrite(Self.run(began: saved.addingTimeInterval(0.1))))
        #expect(!queries.followsOwnWrite(Self.run(began: saved.addingTimeInterval(5))))
    }

    /// `u`, its run begins, Ctrl-R is saved while it is on: the undo's run and the redo's both
    /// follow the browser's writes ("Redone: …" stays), and the one after them does not.
    @Test func aWriteSavedWhileTheLastOnesRunIsOnIsFollowedByTheNextRun() {
        let queries = QueryTabs()
        let undo = Date(timeIntervalSince1970: 1000)
        queries.ownWriteSaved = undo
        let redo = undo.addingTimeInterval(0.5)
        queries.ownWriteSaved = redo
        #expect(queries.followsOwnWrite(Self.run(began: undo.addingTimeInterval(0.2))))
        #expect(queries.ownWriteSaved == redo, "a run that began before the redo was saved does not end it")
        #expect(queries.followsOwnWrite(Self.run(began: redo.addingTimeInterval(0.1))))
        #expect(!queries.followsOwnWrite(Self.run(began: redo.addingTimeInterval(3))))
    }

    @Test func noWriteNoRunFollowsOne() {
        #expect(!QueryTabs().followsOwnWrite(Self.run(began: Date())))
    }
}
