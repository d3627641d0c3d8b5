import FailedBanksKit
@_spi(Benchmark) import FetchedResults
import Foundation
import SQLiteStore

/// The fetch every controller measurement uses: the app's Date tab —
/// `details.closeDate` newest first, then name case-insensitively (the
/// controller adds the id), sections by year (`details.closeYear`), batch
/// size 20 — and the plain SQL that returns the same ids in the same order.
///
///     let controller = BankFetch.controller(context: ObjectContext(store: store))
///     try controller.performFetch()
enum BankFetch {
    static var request: FetchRequest {
        var request = FetchRequest(entity: FailedBankModel.info)
        request.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false),
            FetchSort("name", comparison: .caseInsensitive),
        ]
        request.fetchBatchSize = 20
        return request
    }

    static let sectionNameKeyPath = "details.closeYear"

    /// The reference query of `raw_query_s`: the same ids in the same order.
    static let rawSQL = """
        SELECT t0.id FROM failed_bank_info AS t0
        LEFT JOIN failed_bank_details AS t1 ON t1.info_id = t0.id
        ORDER BY t1.close_date DESC, t0.name COLLATE NOCASE, t0.id
        """

    static func controller(
        context: ObjectContext,
        cacheName: String? = nil,
        cacheDirectory: String? = nil
    ) -> FetchedResultsController {
        FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: sectionNameKeyPath,
            cacheName: cacheName,
            cacheDirectory: cacheDirectory
        )
    }

    /// Runs the reference query through `database` and returns the ids in order.
    static func rawIDs(_ database: Database, expected: Int) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(expected)
        try database.forEachRow(rawSQL) { row in ids.append(row.int64(at: 0)) }
        return ids
    }

    /// The controller's ids in order (no objects loaded).
    static func ids(of controller: FetchedResultsController) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(controller.numberOfObjects)
        for section in 0..<controller.numberOfSections {
            for row in 0..<controller.numberOfObjects(inSection: section) {
                ids.append(controller.objectID(at: IndexPath(row: row, section: section))?.rowID ?? -1)
            }
        }
        return ids
    }

    /// Notes under `group` when the controller's ids are not the raw query's (where they first
    /// differ), or when there are not `rows` of them (`holding`: "the store holds 9 banks").
    static func noteDisagreement(
        of controller: FetchedResultsController,
        with rawIDs: [Int64],
        rows: Int,
        group: String,
        holding: (Int) -> String,
        in results: inout BenchResults
    ) {
        let ids = ids(of: controller)
        if ids != rawIDs {
            let firstDifference = zip(ids, rawIDs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            results.note(
                "\(group): the controller's ids differ from the raw query's (\(ids.count) vs \(rawIDs.count) ids, "
                    + "first difference at \(firstDifference.map(String.init) ?? "the end"))"
            )
        }
        if rawIDs.count != rows { results.note("\(group): \(holding(rawIDs.count)), not \(rows)") }
    }
}
