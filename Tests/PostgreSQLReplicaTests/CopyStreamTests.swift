import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import Testing

@testable import PostgreSQLReplica

/// A copy received and decoded on a thread of its own, written by the calling thread: every
/// row arrives once, in the server's order, however the batches fall; a writer that stops
/// stops the copy, and the connection is the caller's again, usable.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct CopyStreamTests {
    static func stream(of rows: Int, rowsPerBatch: Int) throws -> (CopyStream, PostgresConnection, String) {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, note text);
            INSERT INTO events (note) SELECT 'note ' || n FROM generate_series(1, \(rows)) AS n;
            """
        )
        let connection = try database.connect()
        let description = try #require(try Catalog.table(named: "public.events", on: connection))
        let shape = ReplicaShape(description, changeFeed: ChangeFeedConfiguration())
        let stream = CopyStream(shape: shape, order: nil, rowsPerBatch: rowsPerBatch)
        let sql = "COPY (SELECT \(shape.copySelectList) \(shape.fromClause)\(shape.keyOrder)) TO STDOUT"
        return (stream, connection, sql)
    }

    @Test func everyRowArrivesOnceInOrderAcrossBatchesAndALastPartOne() throws {
        let (stream, connection, sql) = try Self.stream(of: 1000, rowsPerBatch: 64)
        stream.start(sql, on: connection, timeout: 10, firstRowTimeout: 10)
        var ids: [Int64] = []
        var sizes: [Int] = []
        while let batch = try stream.pipe.nextFull() {
            let decoder = try #require(batch.decoder)
            sizes.append(batch.rows)
            for row in 0..<batch.rows {
                guard case .integer(let id) = decoder.fields[row * decoder.width] else {
                    Issue.record("row \(row) of a batch has no integer id")
                    continue
                }
                ids.append(id)
            }
            stream.pipe.recycle(batch)
        }
        #expect(ids == Array(1...1000))
        #expect(sizes == Array(repeating: 64, count: 15) + [40])
        #expect(try connection.query("SELECT count(*) FROM events").int64(row: 0, column: 0) == 1000)
    }

    @Test func aWriterThatStopsStopsTheCopyAndTheConnectionAnswersAfter() throws {
        let (stream, connection, sql) = try Self.stream(of: 20_000, rowsPerBatch: 64)
        stream.start(sql, on: connection, timeout: 10, firstRowTimeout: 10)
        let first = try #require(try stream.pipe.nextFull())
        #expect(first.rows == 64)
        // The writer failed here: the copy's thread stops at its next batch and lets go of the connection.
        stream.pipe.cancelAndWait()
        #expect(try connection.query("SELECT 41 + 1").int64(row: 0, column: 0) == 42)
    }
}
