import SQLiteStore
import Testing

@testable import FetchedResults

@Suite("Predicate parsing")
struct PredicateParserTests {
    private func tree(_ format: String, _ args: StoreValue...) throws -> PredicateTree {
        try FetchPredicate(format, arguments: args).expression
    }

    private func cmp(_ k: String, _ op: PredicateOperator, _ v: StoreValue, ci: Bool = false) -> PredicateTree {
        .comparison(PredicateComparison(.keyPath(k), op, .value(v), caseInsensitive: ci))
    }

    @Test func comparisonOperatorsAndTheirSpellings() throws {
        #expect(try tree("state == 'CA'") == cmp("state", .equal, .text("CA")))
        #expect(try tree("state = 'CA'") == cmp("state", .equal, .text("CA")))
        #expect(try tree("state != 'CA'") == cmp("state", .notEqual, .text("CA")))
        #expect(try tree("state <> 'CA'") == cmp("state", .notEqual, .text("CA")))
        #expect(try tree("details.fund < 5") == cmp("details.fund", .less, .integer(5)))
        #expect(try tree("details.fund <= 5") == cmp("details.fund", .lessOrEqual, .integer(5)))
        #expect(try tree("details.fund =< 5") == cmp("details.fund", .lessOrEqual, .integer(5)))
        #expect(try tree("details.fund > -5") == cmp("details.fund", .greater, .integer(-5)))
        #expect(try tree("details.fund >= 2.5") == cmp("details.fund", .greaterOrEqual, .real(2.5)))
        #expect(try tree("details.fund => 1e3") == cmp("details.fund", .greaterOrEqual, .real(1000)))
    }

    @Test func stringOperatorsWithModifiers() throws {
        #expect(try tree("name CONTAINS[c] 'bank'") == cmp("name", .contains, .text("bank"), ci: true))
        #expect(try tree("name beginswith 'First'") == cmp("name", .beginsWith, .text("First")))
        #expect(try tree("name ENDSWITH \"Bank\"") == cmp("name", .endsWith, .text("Bank")))
        #expect(try tree("name LIKE[c] 'f*t?'") == cmp("name", .like, .text("f*t?"), ci: true))
        #expect(try tree("state ==[c] 'ca'") == cmp("state", .equal, .text("ca"), ci: true))
    }

    @Test func betweenAndInTakeBracedLists() throws {
        #expect(
            try tree("details.closeDate BETWEEN {2008-01-01, 2009-12-31}")
                == .comparison(
                    PredicateComparison(
                        .keyPath("details.closeDate"),
                        .between,
                        list: [.text("2008-01-01"), .text("2009-12-31")]
                    )
                )
        )
        #expect(
            try tree("state IN {'CA', 'TX', nil}")
                == .comparison(PredicateComparison(.keyPath("state"), .in, list: [.text("CA"), .text("TX"), .null]))
        )
        #expect(try tree("state IN {}") == .comparison(PredicateComparison(.keyPath("state"), .in, list: [])))
    }

    @Test func logicalOperatorsBindNotTighterThanAndTighterThanOr() throws {
        let a = cmp("a", .equal, .integer(1))
        let b = cmp("b", .equal, .integer(2))
        let c = cmp("c", .equal, .integer(3))
        #expect(try tree("a == 1 OR b == 2 AND c == 3") == .or(a, .and(b, c)))
        #expect(try tree("a == 1 || b == 2 && c == 3") == .or(a, .and(b, c)))
        #expect(try tree("(a == 1 OR b == 2) AND c == 3") == .and(.or(a, b), c))
        #expect(try tree("NOT a == 1 AND b == 2") == .and(.not(a), b))
        #expect(try tree("!(a == 1)") == .not(a))
        #expect(try tree("TRUEPREDICATE") == .alwaysTrue)
        #expect(try tree("falsepredicate OR a == 1") == .or(.alwaysFalse, a))
    }

    @Test func literalsOfEveryKind() throws {
        #expect(try tree("a == nil") == cmp("a", .equal, .null))
        #expect(try tree("a == NULL") == cmp("a", .equal, .null))
        #expect(try tree("a == true") == cmp("a", .equal, .integer(1)))
        #expect(try tree("a == NO") == cmp("a", .equal, .integer(0)))
        #expect(try tree("a == 2024-02-29") == cmp("a", .equal, .text("2024-02-29")))
        #expect(try tree("a == 2024-02-29T10:11:12Z") == cmp("a", .equal, .text("2024-02-29T10:11:12Z")))
        #expect(try tree(#"a == 'it\'s \u00e9\n'"#) == cmp("a", .equal, .text("it's é\n")))
        #expect(try tree(#"a == "say \"hi\"""#) == cmp("a", .equal, .text("say \"hi\"")))
    }

    @Test func placeholdersTakeArgumentsInOrder() throws {
        #expect(
            try tree("state == %@ AND details.closeDate >= %@", .text("CA"), .text("2020-01-01"))
                == .and(
                    cmp("state", .equal, .text("CA")),
                    cmp("details.closeDate", .greaterOrEqual, .text("2020-01-01"))
                )
        )
        #expect(
            try tree("%K BEGINSWITH[c] %@", .text("name"), .text("first"))
                == cmp("name", .beginsWith, .text("first"), ci: true)
        )
        #expect(
            try tree("state IN {%@, %@}", .text("CA"), .null)
                == .comparison(PredicateComparison(.keyPath("state"), .in, list: [.text("CA"), .null]))
        )
    }

    @Test func valueOnTheLeftIsKept() throws {
        #expect(
            try tree("5 < details.fund")
                == .comparison(PredicateComparison(.value(.integer(5)), .less, .keyPath("details.fund")))
        )
    }

    // MARK: Errors name the column and what was expected

    private func error(_ format: String, _ args: StoreValue...) -> PredicateError? {
        do {
            _ = try FetchPredicate(format, arguments: args)
            return nil
        } catch let e as PredicateError { return e } catch { return nil }
    }

    @Test func missingValueNamesColumnAndExpectation() {
        let e = error("state == ")
        #expect(e == .unexpectedToken(position: 10, expected: "a key path or a value", found: "end of input"))
        #expect(e?.description == "column 10: expected a key path or a value, found end of input")
    }

    @Test func unknownOperatorIsReported() {
        #expect(
            error("state ~ 'CA'")
                == .unexpectedToken(position: 7, expected: "a key path, value or operator", found: "\"~\"")
        )
        #expect(
            error("state IS 'CA'") == .unexpectedToken(position: 7, expected: "a comparison operator", found: "\"IS\"")
        )
    }

    @Test func unbalancedParenthesisIsReported() {
        #expect(error("(state == 'CA'") == .unexpectedToken(position: 15, expected: "\")\"", found: "end of input"))
        #expect(
            error("state == 'CA')")
                == .unexpectedToken(position: 14, expected: "AND, OR or end of input", found: "\")\"")
        )
    }

    @Test func badLiteralsAreReported() {
        #expect(error("name == 'abc") == .unterminatedString(position: 9))
        #expect(error(#"name == 'a\qb'"#) == .invalidEscape(position: 11, sequence: "\\q"))
        #expect(error("d == 2023-02-29") == .invalidDate(position: 6, text: "2023-02-29"))
        #expect(error("n == 99999999999999999999") == .invalidNumber(position: 6, text: "99999999999999999999"))
        #expect(error("n == 12abc") == .invalidNumber(position: 6, text: "12a"))
    }

    @Test func argumentCountMustMatch() {
        #expect(error("state == %@") == .missingArgument(position: 10, index: 1))
        #expect(error("state == 'CA'", .text("x")) == .unusedArguments(placeholders: 0, arguments: 1))
        #expect(error("%K == 1", .integer(3)) == .invalidKeyPathArgument(position: 1, value: .integer(3)))
    }

    @Test func diacriticModifierIsRefusedWithAReason() {
        guard case .unsupportedModifier(let p, let m, _)? = error("name CONTAINS[cd] 'e'") else {
            Issue.record("expected unsupportedModifier")
            return
        }
        #expect(p == 14)
        #expect(m == "cd")
    }

    @Test func stringOperatorsRefuseNonStringConstants() {
        #expect(
            error("name CONTAINS 5")
                == .invalidOperand(position: 15, operator: "CONTAINS", reason: "needs a string, found 5")
        )
        #expect(
            error("name LIKE city")
                == .invalidOperand(position: 11, operator: "LIKE", reason: "needs a constant pattern, not a key path")
        )
        if case .invalidOperand? = error("d BETWEEN {1}") {} else { Issue.record("BETWEEN with one value must fail") }
    }

    // MARK: Names in double quotes (issue 38.8)

    @Test func aDoubleQuotedNameFacingAValueIsAKeyPathAsSortWritesIt() throws {
        // Before: "Closing Date" was a string constant, and every row matched.
        #expect(try tree(#""Closing Date" >= 2020-01-01"#) == cmp("Closing Date", .greaterOrEqual, .text("2020-01-01")))
        #expect(try tree(#""user.email" CONTAINS 'x'"#) == cmp("user.email", .contains, .text("x")))
        #expect(
            try tree(#""Bank Name" IN {"A", 'B'}"#)
                == .comparison(PredicateComparison(.keyPath("Bank Name"), .in, list: [.text("A"), .text("B")]))
        )
        #expect(
            try tree(#"5 < "Row Count""#)
                == .comparison(PredicateComparison(.value(.integer(5)), .less, .keyPath("Row Count")))
        )
        // Facing a key path, double quotes are text, as NSPredicate reads them.
        #expect(try tree(#"state == "CA""#) == cmp("state", .equal, .text("CA")))
        #expect(
            try tree(#""CA" == state"#)
                == .comparison(PredicateComparison(.value(.text("CA")), .equal, .keyPath("state")))
        )
        // Both double-quoted: the left one names the column, the right one is text.
        #expect(try tree(#""Bank Name" == "Alpha Bank""#) == cmp("Bank Name", .equal, .text("Alpha Bank")))
        // A doubled quote is one quote, as in --sort and SQL.
        #expect(try tree(#""say ""hi""" == 'it''s'"#) == cmp(#"say "hi""#, .equal, .text("it's")))
        #expect(try tree("%K == 1", .text("first name")) == cmp("first name", .equal, .integer(1)))
    }

    @Test func aComparisonOfTwoValuesIsAnErrorNotAMatchOfEveryRow() {
        let e = error("'Closing Date' >= 2020-01-01")
        #expect(
            e
                == .comparesTwoValues(
                    position: 1,
                    left: "string \"Closing Date\"",
                    operator: ">=",
                    right: "date 2020-01-01"
                )
        )
        #expect(e?.description.contains("double quotes") == true, "\(String(describing: e))")
        if case .comparesTwoValues? = error("1 == 1") {} else { Issue.record("1 == 1 must fail") }
        if case .comparesTwoValues? = error("'x' IN {'x'}") {} else { Issue.record("'x' IN {…} must fail") }
        if case .unexpectedToken? = error(#""" == 1"#) {} else { Issue.record("an empty name must fail") }
    }
}
