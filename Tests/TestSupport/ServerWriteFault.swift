import Foundation

/// A PostgreSQL server's own refusal of writes, made to order: while the flag table
/// `write_fault` holds a row, every row written to the table ``harness(on:)`` was run for
/// (insert, update, delete — by any session) raises that row's SQLSTATE with its message, as
/// PostgreSQL raises them itself on a full disk (`disk_full`, 53100) or when a concurrent
/// transaction got in the way (`serialization_failure`, 40001).
///
///     try database.psql(schema + ServerWriteFault.harness(on: "items"))
///     try database.psql(ServerWriteFault.diskFull.arm)   // every write of items fails
///     try database.psql(ServerWriteFault.disarm)
public enum ServerWriteFault: String, CaseIterable, Sendable, CustomStringConvertible {
    case diskFull, serializationFailure

    public var description: String { rawValue }

    /// The SQLSTATE the server raises.
    public var sqlState: String {
        switch self {
        case .diskFull: "53100"
        case .serializationFailure: "40001"
        }
    }

    /// The server's own words for it.
    public var message: String {
        switch self {
        case .diskFull: "could not extend file \"base/16384/16385\": No space left on device"
        case .serializationFailure: "could not serialize access due to concurrent update"
        }
    }

    /// The flag table, and the trigger on `table` that raises the flagged fault.
    public static func harness(on table: String) -> String {
        """
        CREATE TABLE write_fault (sqlstate text NOT NULL, message text NOT NULL);
        CREATE FUNCTION write_fault() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE fault write_fault;
        BEGIN
            SELECT * INTO fault FROM write_fault LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION USING ERRCODE = fault.sqlstate, MESSAGE = fault.message;
            END IF;
            RETURN COALESCE(NEW, OLD);
        END $$;
        CREATE TRIGGER write_fault BEFORE INSERT OR UPDATE OR DELETE ON \(table)
            FOR EACH ROW EXECUTE FUNCTION write_fault();

        """
    }

    /// SQL that makes the table's writes fail with this fault.
    public var arm: String {
        "DELETE FROM write_fault; INSERT INTO write_fault VALUES ('\(sqlState)', '\(message.replacingOccurrences(of: "'", with: "''"))');"
    }

    /// SQL that lets the table's writes through again.
    public static let disarm = "DELETE FROM write_fault;"
}
