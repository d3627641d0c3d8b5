import PostgreSQLClient

/// One column of a replica: the server column it copies, and how its values
/// are kept in the SQLite file — as a person reads them.
///
/// | PostgreSQL | replica column | held as |
/// |---|---|---|
/// | `smallint`, `integer`, `bigint`, `oid` | `INTEGER` | the number |
/// | `real`, `double precision` | `REAL` | the number |
/// | `numeric`, `money` | `TEXT` | the server's text, exact (`2.50`, `$1,234.50`) |
/// | `boolean` | `BOOLEAN` | 1 or 0 (shown `yes`/`no`, `true`/`false` in JSON) |
/// | `date` | `DATE` | `YYYY-MM-DD` |
/// | `timestamp` | `TIMESTAMP` | `YYYY-MM-DD HH:MM:SS[.ffffff]` |
/// | `timestamptz` | `TIMESTAMP` | the same, in the terminal's time zone (no offset) |
/// | `uuid`, `text`, `varchar`, `char`, others | `TEXT` | the server's text |
/// | `json`, `jsonb` | `TEXT` | compact JSON (no whitespace outside strings) |
/// | arrays | `TEXT` | PostgreSQL's text form (`{1,2,NULL}`) |
/// | `bytea` | `TEXT` | its size (`16 bytes`) |
///
/// NULL is NULL in every column. A domain is kept as the type it is over. `real` and
/// `double precision` keep `NaN` as the text `NaN` (SQLite would make it NULL), which SQLite
/// sorts after every number, as PostgreSQL does; `Infinity` and `-Infinity` are the infinite
/// numbers.
///
/// A column whose kept values SQLite would sort otherwise than the server — `numeric`, `money`,
/// enums, text under a collation that is not byte order — has an order column beside it
/// (``orderColumn``) whose keys sort as the server's `ORDER BY`.
///
///     let column = ReplicaColumn(ColumnDescription(…"ts", typeName: "timestamp with time zone"…))
///     column.storage        // .timestamp
///     column.declaredType   // "TIMESTAMP"
public struct ReplicaColumn: Hashable, Sendable {
    /// How a column's values are kept in the replica.
    package enum Storage: String, Hashable, Sendable {
        /// An integer.
        case integer
        /// A floating-point number.
        case real
        /// Text as the server prints it (numeric, uuid, text, arrays…).
        case text
        /// Compact JSON text.
        case json
        /// 1 or 0.
        case boolean
        /// `YYYY-MM-DD`.
        case date
        /// `YYYY-MM-DD HH:MM:SS[.ffffff]`, local time for `timestamptz`.
        case timestamp
        /// The value's size in bytes, as text (`16 bytes`).
        case byteSize
    }

    /// The column's name, the same on the server and in the replica.
    public let name: String
    /// Its type as PostgreSQL writes it (`bigint`, `timestamp with time zone`, `integer[]`).
    public let postgresType: String
    /// Its type's OID on the server.
    public let typeOID: UInt32
    /// How its values are kept.
    package let storage: Storage
    /// The replica's column of keys that sort as the server orders this column's values
    /// (BLOB, never NULL: NULL's key is above every other, as PostgreSQL sorts it), or nil
    /// when SQLite sorts the kept values as the server does. Sort by it, not by the column.
    public internal(set) var orderColumn: String?
    /// How its order column's keys are made.
    let order: ReplicaOrder?
    /// The OID of its type, or of the type its domain is over.
    let baseTypeOID: UInt32

    /// The column of the replica for the server column `column`.
    public init(_ column: ColumnDescription) {
        name = column.name
        postgresType = column.typeName
        typeOID = column.typeOID
        baseTypeOID = column.valueTypeOID
        isTimestampWithTimeZone = column.isTimestampWithTimeZone
        storage = ReplicaColumn.storage(forType: baseTypeOID, name: column.typeName)
        order = ReplicaOrder(for: column)
    }

    /// The type the replica's `CREATE TABLE` declares: `INTEGER`, `REAL`,
    /// `TEXT`, `BOOLEAN`, `DATE` or `TIMESTAMP`. SQLiteStore's catalog reads
    /// a column's kind from it (a `BOOLEAN` column is shown as yes/no).
    package var declaredType: String {
        switch storage {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text, .json, .byteSize: "TEXT"
        case .boolean: "BOOLEAN"
        case .date: "DATE"
        case .timestamp: "TIMESTAMP"
        }
    }

    /// Whether it is `timestamp with time zone` (or a domain over it): copied in the replica's
    /// time zone (``PostgresReplica/timeZone``, the terminal's by default), without an offset,
    /// so that a person reading it should be told the zone once.
    package let isTimestampWithTimeZone: Bool

    private static func storage(forType oid: UInt32, name: String) -> Storage {
        switch oid {
        case TypeOID.int8, TypeOID.int2, TypeOID.int4, TypeOID.oid: .integer
        case TypeOID.float4, TypeOID.float8: .real
        case TypeOID.bool: .boolean
        case TypeOID.date: .date
        case TypeOID.timestamp, TypeOID.timestamptz: .timestamp
        case TypeOID.json, TypeOID.jsonb: .json
        case TypeOID.bytea: .byteSize
        default: .text
        }
    }
}
