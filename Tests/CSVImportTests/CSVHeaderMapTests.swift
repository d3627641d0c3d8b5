import Testing

@testable import CSVImport

@Suite struct CSVHeaderMapTests {
    @Test(arguments: [
        ("Bank Name\u{a0}", "bank name"),
        ("Bank Name†", "bank name"),
        ("  BANK  NAME ", "bank name"),
        ("CERT #", "cert"),
        ("Fund  Sort ascending", "fund"),
        ("Fund Sort descending", "fund"),
        ("\u{feff}Bank Name", "bank name"),
        ("Closing Date\u{a0}", "closing date"),
    ])
    func headerCellsAreNormalized(cell: String, normalized: String) {
        #expect(CSVHeaderMap.normalize(cell) == normalized)
    }

    @Test func aliasesAndVariantsFindTheirColumns() throws {
        let columns = [
            CSVColumn("Bank Name", aliases: ["Bank"]), CSVColumn("State", aliases: ["ST"]),
            CSVColumn("Cert"), CSVColumn("Fund", required: false), CSVColumn("Updated Date", required: false),
        ]
        let map = try CSVHeaderMap(header: ["bank", "Extra", "ST", "CERT #", "Fund  Sort ascending"], columns: columns)
        #expect(map.index(of: "Bank Name") == 0)
        #expect(map.index(of: "State") == 2)
        #expect(map.index(of: "Cert") == 3)
        #expect(map.index(of: "Fund") == 4)
        #expect(map.index(of: "Updated Date") == nil)
    }

    @Test func missingRequiredColumnsAreAllNamed() {
        let columns = [
            CSVColumn("Bank Name"), CSVColumn("Cert"), CSVColumn("Closing Date"), CSVColumn("Fund", required: false),
        ]
        #expect(throws: CSVError.missingColumns(["Cert", "Closing Date"], found: ["Bank Name", "City"])) {
            try CSVHeaderMap(header: ["Bank Name", "City"], columns: columns)
        }
    }
}
