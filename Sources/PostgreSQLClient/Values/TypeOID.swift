/// The type OIDs of PostgreSQL's built-in types that ``PostgresValue``
/// decodes (from `pg_type.dat`; they are fixed across versions).
package enum TypeOID {
    package static let bool: UInt32 = 16
    package static let bytea: UInt32 = 17
    package static let char: UInt32 = 18
    package static let name: UInt32 = 19
    package static let int8: UInt32 = 20
    package static let int2: UInt32 = 21
    package static let int4: UInt32 = 23
    package static let text: UInt32 = 25
    package static let oid: UInt32 = 26
    package static let json: UInt32 = 114
    package static let float4: UInt32 = 700
    package static let float8: UInt32 = 701
    package static let bpchar: UInt32 = 1042
    package static let varchar: UInt32 = 1043
    package static let date: UInt32 = 1082
    package static let timestamp: UInt32 = 1114
    package static let timestamptz: UInt32 = 1184
    package static let numeric: UInt32 = 1700
    package static let uuid: UInt32 = 2950
    package static let jsonb: UInt32 = 3802

    /// Array type → element type, for the arrays of the types above.
    static let arrayElements: [UInt32: UInt32] = [
        1000: bool, 1001: bytea, 1002: char, 1003: name, 1016: int8, 1005: int2, 1007: int4, 1009: text,
        1028: oid, 199: json, 1021: float4, 1022: float8, 1014: bpchar, 1015: varchar, 1182: date,
        1115: timestamp, 1185: timestamptz, 1231: numeric, 2951: uuid, 3807: jsonb,
    ]
}
