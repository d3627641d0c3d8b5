import FetchedResults
import SQLiteStore
import TerminalUI

extension ListTab {
    /// A tab listing the records of `Record`'s entity, its rows drawn from the decoded record.
    ///
    /// The controller still fetches identifiers only and faults objects in `fetchBatchSize`
    /// at a time for the rows being shown; a record is decoded from its row when the row is
    /// drawn, and never for a row that is not (the 100,000 others of a long list cost nothing).
    /// A row whose record does not decode (a value of the wrong kind put there by another
    /// program) is drawn as `⚠` and the reason, instead of stopping the screen.
    ///
    ///     var students = ListTab(
    ///         title: "Students", records: Student.self,
    ///         sortDescriptors: [FetchSort(Student.Columns.subject), FetchSort(Student.Columns.number)],
    ///         sectionNameKeyPath: Student.Columns.subject.stringValue,
    ///         name: { "“\($0.name)”" }
    ///     ) { student in
    ///         TableCell(style: .subtitle, title: student.name, detail: "No. \(student.number)")
    ///     }
    ///     students.searchKeyPaths = [Student.Columns.name.stringValue]
    ///
    /// `cell` is called only for the rows being drawn; `name` gives the record's name in
    /// messages ("Deleted “Ada” — u to undo"; nil: "the item", ``objectName``'s default).
    public init<Record: StoreRecord>(
        title: String,
        records: Record.Type,
        sortDescriptors: [FetchSort],
        sectionNameKeyPath: String? = nil,
        name: ((Record) -> String)? = nil,
        cell: @escaping (Record) -> TableCell
    ) {
        self.init(
            title: title,
            entity: Record.entityName,
            sortDescriptors: sortDescriptors,
            sectionNameKeyPath: sectionNameKeyPath
        ) { object in
            do { return cell(try object.record(as: Record.self)) } catch {
                return TableCell(style: .subtitle, title: "⚠", detail: "\(error)")
            }
        }
        if let name {
            objectName = { object in (try? object.record(as: Record.self)).map(name) ?? "the item" }
        }
    }

    /// A tab listing the records of `Record`'s entity as two-line rows: a title and a
    /// subtitle read from the decoded record (decoded only for the rows being drawn, as
    /// ``init(title:records:sortDescriptors:sectionNameKeyPath:name:cell:)`` does).
    ///
    ///     let byName = ListTab(
    ///         title: "Name", records: Student.self,
    ///         sortDescriptors: [FetchSort(Student.Columns.name)],
    ///         rowTitle: \.name, subtitle: { "No. \($0.number)" }
    ///     )
    public init<Record: StoreRecord>(
        title: String,
        records: Record.Type,
        sortDescriptors: [FetchSort],
        sectionNameKeyPath: String? = nil,
        rowTitle: @escaping (Record) -> String,
        subtitle: @escaping (Record) -> String
    ) {
        self.init(
            title: title,
            records: records,
            sortDescriptors: sortDescriptors,
            sectionNameKeyPath: sectionNameKeyPath,
            name: { "“\(rowTitle($0))”" }
        ) { record in
            TableCell(style: .subtitle, title: rowTitle(record), detail: subtitle(record))
        }
    }
}
