import FetchedResults
import Foundation

/// A fetched results controller's results and change batches as the apps' `watch`
/// commands print them: JSON Lines, one form for every app.
///
/// First a snapshot, `{"type":"snapshot","sections":[{"name":"2025","ids":[12,7]}]}`; then one
/// line per batch, in the controller's order (section changes, then object changes; old
/// coordinates for deletes and move sources, new ones for inserts and move destinations,
/// both for updates; `counts` are the row counts of every section after the batch):
///
///     {"type":"batch","sections":[{"change":"delete","index":3},{"change":"insert","index":0,"name":"2026"}],
///      "objects":[{"change":"delete","id":17,"from":[2,4]},{"change":"insert","id":99,"to":[0,0]}],"counts":[1,12]}
///
///     print(ResultsJSONLines.snapshot(controller))
///     controller.onChange = { batch in print(ResultsJSONLines.batch(batch)) }
public enum ResultsJSONLines {
    /// `{"type":"snapshot","sections":[{"name":"2025","ids":[12,7]}]}`
    public static func snapshot(_ controller: FetchedResultsController) -> String {
        var s = "{\"type\":\"snapshot\",\"sections\":["
        for (i, section) in controller.sections.enumerated() {
            if i > 0 { s += "," }
            s += "{\"name\":\(JSONText.string(section.name)),\"ids\":["
            s += section.objects.objectIDs.map { String($0.rowID) }.joined(separator: ",")
            s += "]}"
        }
        return s + "]}"
    }

    /// `{"type":"batch","sections":[…],"objects":[…],"counts":[…]}`
    public static func batch(_ batch: ChangeBatch) -> String {
        func path(_ p: IndexPath?) -> String? { p.map { "[\($0[0]),\($0[1])]" } }
        let sections = batch.sectionChanges.map { c -> String in
            var s = "{\"change\":\"\(c.change.rawValue)\",\"index\":\(c.index)"
            if c.change == .insert { s += ",\"name\":\(JSONText.string(c.name))" }
            return s + "}"
        }
        let objects = batch.objectChanges.map { c -> String in
            var s = "{\"change\":\"\(c.change.rawValue)\",\"id\":\(c.id.rowID)"
            if let from = path(c.from) { s += ",\"from\":\(from)" }
            if let to = path(c.to) { s += ",\"to\":\(to)" }
            return s + "}"
        }
        return
            "{\"type\":\"batch\",\"sections\":[\(sections.joined(separator: ","))],\"objects\":[\(objects.joined(separator: ","))],"
            + "\"counts\":[\(batch.counts.map(String.init).joined(separator: ","))]}"
    }
}
