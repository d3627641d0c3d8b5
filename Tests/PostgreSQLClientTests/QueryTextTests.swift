import PostgreSQLClient
import Testing

/// ``QueryText``: `:name` parameters made `$n` outside quotes and comments (a `::` cast kept),
/// the first word, and where a second statement starts.
struct QueryTextTests {
    @Test func namedParametersBecomePositionalOnesOutsideQuotesAndComments() {
        let text = QueryText(
            """
            SELECT ':skip', ":skip", $$ :skip $$, E'\\' :skip', x::text -- :skip
            FROM t /* :skip /* nested */ :skip */ WHERE a = :who AND b > :least OR c = :who
            """
        )
        #expect(text.parameterNames == ["who", "least"])
        #expect(text.sql.contains("WHERE a = $1 AND b > $2 OR c = $1"), "\(text.sql)")
        #expect(text.sql.contains("x::text -- :skip"))
        #expect(text.sql.contains("E'\\' :skip'"))
        #expect(text.firstWord == "SELECT")
        #expect(text.secondStatementOffset == nil)
    }

    @Test func aSecondStatementIsFoundAndATrailingSemicolonIsNot() {
        #expect(QueryText("SELECT 1; DELETE FROM t").secondStatementOffset == 10)
        #expect(QueryText("SELECT ';'; -- done\n").secondStatementOffset == nil)
        #expect(QueryText("SELECT $x$;$x$ ;  VACUUM").secondStatementOffset == 18)
        #expect(QueryText("  -- nothing\n").firstWord == nil)
        #expect(QueryText("(SELECT 1) UNION (SELECT 2)").firstWord == "(")
        #expect(QueryText("with x as (select 1) select * from x").firstWord == "WITH")
    }
}
