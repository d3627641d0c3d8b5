import PostgreSQLClient
import Testing

/// ``QueryText``: `:name` parameters made `$n` outside quotes and comments (a `::` cast kept),
/// the first word, where a second statement starts, and a positional parameter of the text's own.
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

    @Test func aPositionalParameterWrittenInTheTextIsFoundOutsideQuotesAndComments() {
        // `:who` becomes `$1` too: a `$1` of the text's own would silently be given its value.
        let both = QueryText("SELECT $1 AS b, :who AS a")
        #expect(both.positionalParameterOffset == 7)
        #expect(both.sql == "SELECT $1 AS b, $1 AS a")
        #expect(QueryText("SELECT a FROM t WHERE b = :who OR c = $12").positionalParameterOffset == 38)
        #expect(
            QueryText("SELECT '$1', \"$1\", $$ $1 $$, x$1, $tag$$1$tag$ -- $1\n/* $1 */").positionalParameterOffset
                == nil
        )
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
