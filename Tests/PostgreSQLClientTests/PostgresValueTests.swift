import PostgreSQLClient
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct PostgresValueTests {
    @Test func typesAreDecodedAsAPersonReadsThem() throws {
        let database = try TestDatabase()
        let connection = try database.connect(timeZone: "Asia/Kolkata")
        let row = try connection.query(
            """
            SELECT 1::smallint, 2::int, 9223372036854775807::bigint, 12345678901234567890.000001::numeric,
                   'héllo'::text, 'x'::varchar(3), true, false, DATE '2024-02-29',
                   TIMESTAMP '2024-03-01 12:30:00.5', TIMESTAMPTZ '2024-01-01 00:00:00+00',
                   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid,
                   '{"b": [1, 2], "a": "x y"}'::jsonb, '{ "k" : [ 1 , 2 ] }'::json,
                   ARRAY[1, 2, NULL]::int[], ARRAY['a b', 'c"d', '']::text[], ARRAY[[1, 2], [3, 4]],
                   '\\x0102ff'::bytea, NULL::int, 1.5::float8, '1 day'::interval
            """
        ).rows[0]
        let expected: [PostgresValue] = [
            .integer(1), .integer(2), .integer(Int64.max), .numeric("12345678901234567890.000001"),
            .text("héllo"), .text("x"), .boolean(true), .boolean(false), .date("2024-02-29"),
            .timestamp("2024-03-01 12:30:00.5"), .timestampWithTimeZone("2024-01-01 05:30:00+05:30"),
            .uuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), .json(#"{"a":"x y","b":[1,2]}"#), .json(#"{"k":[1,2]}"#),
            .array([.integer(1), .integer(2), .null]), .array([.text("a b"), .text("c\"d"), .text("")]),
            .array([.array([.integer(1), .integer(2)]), .array([.integer(3), .integer(4)])]),
            .bytes([1, 2, 255]), .null, .real(1.5), .text("1 day"),
        ]
        #expect(row == expected)
        #expect(
            row.map(\.displayText) == [
                "1", "2", "9223372036854775807", "12345678901234567890.000001", "héllo", "x", "true", "false",
                "2024-02-29", "2024-03-01 12:30:00.5", "2024-01-01 05:30:00+05:30",
                "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", #"{"a":"x y","b":[1,2]}"#, #"{"k":[1,2]}"#, "{1,2,NULL}",
                #"{"a b","c\"d",""}"#, "{{1,2},{3,4}}", "3 bytes", "NULL", "1.5", "1 day",
            ]
        )
    }

    @Test func valuesRoundTripAsParameters() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        let values: [PostgresValue] = [
            .bytes([0, 1, 254]), .array([.text("a b"), .null, .text("NULL")]), .boolean(true),
            .numeric("0.10"), .timestampWithTimeZone("2024-01-01 00:00:00+00"),
        ]
        let row = try connection.query(
            "SELECT $1::bytea, $2::text[], $3::bool, $4::numeric, $5::timestamptz",
            values: values
        )
        .rows[0]
        #expect(row == values)
    }

    @Test func integersAreReadWithoutMakingStrings() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        let result = try connection.query(
            "SELECT * FROM (VALUES (0::bigint), (-42), (9223372036854775807), (-9223372036854775808), (NULL)) v"
        )
        #expect((0..<result.rowCount).map { result.int64(row: $0, column: 0) } == [0, -42, .max, .min, nil])
    }
}
