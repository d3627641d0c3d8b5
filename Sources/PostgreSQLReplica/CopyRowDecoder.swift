import Foundation
import PostgreSQLClient
import SQLiteStore

/// One field of a `COPY … TO STDOUT` row, decoded for the replica: text and an order
/// column's key are ranges of the decoder's byte arena (valid until it is cleared).
enum CopyField {
    case null
    case integer(Int64)
    case real(Double)
    case text(start: Int, count: Int)
    case blob(start: Int, count: Int)
}

/// Decodes the data rows of `COPY (SELECT selectList …) TO STDOUT` (text
/// format) into the values the replica keeps, as ``ServerRow`` decodes a
/// query's rows — without a Swift string per field: each row's fields go to
/// ``fields``, their text to one byte arena, both reused from row to row.
///
/// The text format: fields separated by a tab, `\N` for NULL, and a
/// backslash before `\`, tab, newline and carriage return (`\\`, `\t`, `\n`,
/// `\r`, also `\b`, `\f`, `\v`, octal `\123` and hex `\x7F`).
struct CopyRowDecoder {
    let columns: [ReplicaColumn]
    /// The order columns' texts after the columns (``ReplicaShape/copySelectList``'s
    /// `replica_order_n`), decoded into their keys.
    let orderCount: Int
    /// Key columns after them (`replica_key_n`).
    let keyCount: Int
    /// The decoded fields of the rows since the last ``clear()``: ``width`` per row.
    private(set) var fields: [CopyField] = []
    /// The text of the fields.
    private(set) var arena: [UInt8] = []
    private let keys: ReplicaOrderKeys

    init(shape: ReplicaShape) {
        columns = shape.columns
        orderCount = shape.ordered.count
        keyCount = shape.copyKeyCount
        keys = ReplicaOrderKeys(shape.orders)
        fields.reserveCapacity(64 * (columns.count + orderCount + keyCount))
        arena.reserveCapacity(1 << 16)
    }

    /// Fields per row: the stored columns (the columns and the order columns), then the key columns.
    var width: Int { columns.count + orderCount + keyCount }

    /// The stored columns' fields per row (what the replica's INSERT binds).
    var storedWidth: Int { columns.count + orderCount }

    mutating func clear() {
        fields.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    /// Decodes one row (its bytes, with or without the final newline) and appends its fields.
    mutating func decode(_ line: UnsafeRawBufferPointer) throws(ReplicaError) {
        var end = line.count
        if end > 0 && line[end - 1] == 0x0A { end -= 1 }
        var start = 0
        var index = 0
        while index < width {
            let stop = CopyRowDecoder.index(of: 0x09, in: line, from: start, to: end)
            if stop == end && index < width - 1 {
                throw .cache(path: "", message: "a COPY row had \(index + 1) fields, not \(width)")
            }
            append(UnsafeRawBufferPointer(rebasing: line[start..<stop]), column: index)
            start = stop + 1
            index += 1
        }
    }

    /// The row `row` of the rows since ``clear()`` as a ``ServerRow`` (for tables whose rows are not named by an integer key).
    func serverRow(_ row: Int) -> ServerRow {
        let first = row * width
        let values = (0..<storedWidth).map { storeValue(fields[first + $0]) }
        let key = (0..<keyCount).map { text(fields[first + storedWidth + $0]) ?? "" }
        return ServerRow(values: values, key: key)
    }

    /// Binds the fields of the rows since ``clear()`` to parameters 1… of `statement`, leaving
    /// out the key columns, and steps it once and resets it. Text is bound without a copy:
    /// the arena does not change until the statement is reset.
    func insert(rows: Range<Int>, with statement: Statement) throws {
        try arena.withUnsafeBytes { bytes in
            var parameter: Int32 = 1
            for row in rows {
                let first = row * width
                for column in 0..<storedWidth {
                    switch fields[first + column] {
                    case .null: try statement.bindNull(at: parameter)
                    case .integer(let number): try statement.bind(number, at: parameter)
                    case .real(let number): try statement.bind(number, at: parameter)
                    case .text(let start, let count):
                        try statement.bind(
                            utf8NoCopy: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]),
                            at: parameter
                        )
                    case .blob(let start, let count):
                        try statement.bind(.blob(Array(bytes[start..<start + count])), at: parameter)
                    }
                    parameter += 1
                }
            }
            defer { statement.reset() }
            _ = try statement.step()
        }
    }

    // MARK: Steps

    private mutating func append(_ field: UnsafeRawBufferPointer, column index: Int) {
        let isNull = field.count == 2 && field[0] == 0x5C && field[1] == 0x4E  // \N
        if index >= columns.count && index < storedWidth {
            appendOrderKey(isNull ? nil : field, order: index - columns.count)
            return
        }
        if isNull {
            fields.append(.null)
            return
        }
        let storage = index < columns.count ? columns[index].storage : .text
        switch storage {
        case .integer:
            if let number = CopyRowDecoder.integer(field) {
                fields.append(.integer(number))
                return
            }
        case .boolean:
            fields.append(.integer(field.first == 0x74 ? 1 : 0))  // t
            return
        default:
            break
        }
        let start = arena.count
        if CopyRowDecoder.index(of: 0x5C, in: field, from: 0, to: field.count) < field.count {
            CopyRowDecoder.unescape(field, into: &arena)
        } else {
            arena.append(contentsOf: field)
        }
        switch storage {
        case .real:
            let text = String(decoding: arena[start...], as: UTF8.self)
            arena.removeSubrange(start...)
            if let number = Double(text), !number.isNaN {  // NaN stays text (see ``ServerRow``)
                fields.append(.real(number))
            } else {
                appendText(text)
            }
        case .json:
            let text = String(decoding: arena[start...], as: UTF8.self)
            arena.removeSubrange(start...)
            appendText(PostgresValue(serverText: text, type: columns[index].typeOID).displayText)
        case .byteSize:
            let text = String(decoding: arena[start...], as: UTF8.self)
            arena.removeSubrange(start...)
            appendText(text == "1" ? "1 byte" : "\(text) bytes")
        default:
            fields.append(.text(start: start, count: arena.count - start))
        }
    }

    /// Appends the key of order column `order` made from the server's text `field` (nil: NULL).
    private mutating func appendOrderKey(_ field: UnsafeRawBufferPointer?, order: Int) {
        var text: [UInt8] = []
        if let field {
            if CopyRowDecoder.index(of: 0x5C, in: field, from: 0, to: field.count) < field.count {
                CopyRowDecoder.unescape(field, into: &text)
            } else {
                text.append(contentsOf: field)
            }
        }
        let start = arena.count
        if field == nil {
            keys.append(order: order, text: nil, to: &arena)
        } else {
            text.withUnsafeBytes { keys.append(order: order, text: $0, to: &arena) }
        }
        fields.append(.blob(start: start, count: arena.count - start))
    }

    private mutating func appendText(_ text: String) {
        let start = arena.count
        arena.append(contentsOf: text.utf8)
        fields.append(.text(start: start, count: arena.count - start))
    }

    private func text(_ field: CopyField) -> String? {
        switch field {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let start, let count), .blob(let start, let count):
            String(decoding: arena[start..<start + count], as: UTF8.self)
        }
    }

    private func storeValue(_ field: CopyField) -> StoreValue {
        switch field {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text: .text(text(field) ?? "")
        case .blob(let start, let count): .blob(Array(arena[start..<start + count]))
        }
    }

    /// The index of the first `byte` in `bytes[start..<end]` (`memchr`), `end` when there is none.
    @inline(__always)
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), end - start)
        else { return end }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// A decimal integer (an optional minus, digits, nothing else), or nil.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        var negative = false
        if bytes.first == 0x2D {
            negative = true
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index]
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit - 0x30))
                : times.addingReportingOverflow(Int64(digit - 0x30))
            if overflowTimes || overflowSum { return nil }
            value = sum
            index += 1
        }
        return value
    }

    /// Appends `field` to `output` with COPY's backslash escapes undone.
    static func unescape(_ field: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        var index = 0
        while index < field.count {
            let byte = field[index]
            index += 1
            guard byte == 0x5C, index < field.count else {
                output.append(byte)
                continue
            }
            let next = field[index]
            index += 1
            switch next {
            case 0x62: output.append(0x08)  // \b
            case 0x66: output.append(0x0C)  // \f
            case 0x6E: output.append(0x0A)  // \n
            case 0x72: output.append(0x0D)  // \r
            case 0x74: output.append(0x09)  // \t
            case 0x76: output.append(0x0B)  // \v
            case 0x30...0x37:  // up to three octal digits
                var value = Int(next - 0x30)
                var digits = 1
                while digits < 3, index < field.count, (0x30...0x37).contains(field[index]) {
                    value = value * 8 + Int(field[index] - 0x30)
                    index += 1
                    digits += 1
                }
                output.append(UInt8(truncatingIfNeeded: value))
            case 0x78:  // \x and one or two hex digits
                var value = 0
                var digits = 0
                while digits < 2, index < field.count, let digit = CopyRowDecoder.hexDigit(field[index]) {
                    value = value * 16 + digit
                    index += 1
                    digits += 1
                }
                if digits == 0 { output.append(next) } else { output.append(UInt8(value)) }
            default: output.append(next)  // \\ and any other character stands for itself
            }
        }
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
