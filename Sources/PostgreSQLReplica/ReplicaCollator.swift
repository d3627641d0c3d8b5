import CICU
import Foundation
import PostgreSQLClient

#if canImport(Glibc)
import Glibc
#endif

/// The sort keys of one server collation, made on this machine: ICU's for an ICU collation (the
/// library PostgreSQL's are, `libicu`), the C library's (`strxfrm_l`) for a libc one. A key is
/// the collation's sort key, then — for a deterministic collation, which PostgreSQL completes
/// with a comparison of the bytes — the text's own bytes, so that equal keys mean equal texts.
///
/// A libc locale this machine lacks (`locale -a`) is taken from ICU for the same language
/// instead: the same order for letters, which may differ in punctuation and spaces.
///
/// Not thread-safe (ICU's collators are not): one per thread that makes keys.
final class ReplicaCollator {
    private let collation: ColumnCollation
    private var icu: OpaquePointer?
    private var libc: locale_t?
    private var units: [UInt16] = []
    private var buffer: [UInt8] = []

    init(_ collation: ColumnCollation) {
        self.collation = collation
        if collation.provider == .libc, let locale = newlocale(LC_COLLATE_MASK, collation.locale, nil) {
            libc = locale
        } else {
            icu = ReplicaCollator.openICU(collation.provider == .icu ? collation.locale : collation.locale)
        }
    }

    deinit {
        if let icu { cicu_collator_close(icu) }
        if let libc { freelocale(libc) }
    }

    /// Appends the key of `text` (UTF-8, without trailing spaces when `trimming`) to `key`.
    func append(_ text: UnsafeRawBufferPointer, trimming: Bool, to key: inout [UInt8]) {
        var end = text.count
        if trimming { while end > 0 && text[end - 1] == 0x20 { end -= 1 } }
        let bytes = UnsafeRawBufferPointer(rebasing: text[0..<end])
        if let libc {
            appendLibc(bytes, locale: libc, to: &key)
        } else if let icu {
            appendICU(bytes, collator: icu, to: &key)
        }
        if collation.isDeterministic { key.append(contentsOf: bytes) }
    }

    // MARK: Steps

    /// ICU's collator for a PostgreSQL ICU locale: a BCP 47 tag (`en-US`, `und-u-ks-level2`) or
    /// an ICU locale ID (`en_US`, `de@collation=phonebook`); a libc name (`en_US.UTF-8`) as its language.
    private static func openICU(_ locale: String) -> OpaquePointer? {
        var id = [CChar](repeating: 0, count: 256)
        var name = locale
        if let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }  // en_US.UTF-8 → en_US
        if !name.contains("_"), !name.contains("@"), cicu_locale_for_tag(name, &id, Int32(id.count)) >= 0 {
            return cicu_collator_open(id)
        }
        return cicu_collator_open(name)
    }

    private func appendICU(_ text: UnsafeRawBufferPointer, collator: OpaquePointer, to key: inout [UInt8]) {
        units.removeAll(keepingCapacity: true)
        units.append(contentsOf: String(decoding: text, as: UTF8.self).utf16)
        if buffer.count < 64 + units.count * 4 { buffer = [UInt8](repeating: 0, count: 64 + units.count * 4) }
        var length = units.withUnsafeBufferPointer { units in
            buffer.withUnsafeMutableBufferPointer { out in
                cicu_sort_key(collator, units.baseAddress, Int32(units.count), out.baseAddress, Int32(out.count))
            }
        }
        if Int(length) > buffer.count {
            buffer = [UInt8](repeating: 0, count: Int(length))
            length = units.withUnsafeBufferPointer { units in
                buffer.withUnsafeMutableBufferPointer { out in
                    cicu_sort_key(collator, units.baseAddress, Int32(units.count), out.baseAddress, Int32(out.count))
                }
            }
        }
        // The key ends with its zero byte (none inside): a key that is a prefix of another sorts first.
        key.append(contentsOf: buffer[0..<Int(max(length, 0))])
    }

    private func appendLibc(_ text: UnsafeRawBufferPointer, locale: locale_t, to key: inout [UInt8]) {
        let string = [CChar](unsafeUninitializedCapacity: text.count + 1) { cString, count in
            for index in 0..<text.count { cString[index] = CChar(bitPattern: text[index]) }
            cString[text.count] = 0
            count = text.count + 1
        }
        var capacity = max(64, text.count * 4)
        while true {
            var out = [CChar](repeating: 0, count: capacity)
            let length = strxfrm_l(&out, string, capacity, locale)
            if length < capacity {
                for index in 0..<length { key.append(UInt8(bitPattern: out[index])) }
                key.append(0)  // strxfrm's output has no zero byte: the end sorts first, as ICU's
                return
            }
            capacity = length + 1
        }
    }
}

/// The keys of a shape's order columns, made from the texts the server sends
/// (``ReplicaOrder/sourceSQL``): collators opened on first use, one set per thread that makes keys.
final class ReplicaOrderKeys {
    private let orders: [ReplicaOrder]
    private var collators: [Int: ReplicaCollator] = [:]

    init(_ orders: [ReplicaOrder]) { self.orders = orders }

    /// Appends the key of order column `index` for the server's text `text` (nil: NULL) to `key`.
    func append(order index: Int, text: UnsafeRawBufferPointer?, to key: inout [UInt8]) {
        guard let text else {
            key.append(ReplicaOrder.nullKey)
            return
        }
        switch orders[index].kind {
        case .decimal:
            DecimalKey.append(text, to: &key)
        case .bytes:
            key.append(0)
            ByteaKey.appendBytes(ofHex: text, to: &key)
        case .collation(let collation, let trims):
            key.append(0)
            let collator = collators[index] ?? ReplicaCollator(collation)
            collators[index] = collator
            collator.append(text, trimming: trims, to: &key)
        }
    }

    /// The key of order column `index` for `text`.
    func key(order index: Int, text: String?) -> [UInt8] {
        var key: [UInt8] = []
        guard var text else {
            append(order: index, text: nil, to: &key)
            return key
        }
        text.withUTF8 { append(order: index, text: UnsafeRawBufferPointer($0), to: &key) }
        return key
    }
}

/// `bytea`'s hex text (`\x4d6f`) as its bytes.
enum ByteaKey {
    static func appendBytes(ofHex text: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        var index = text.count >= 2 && text[0] == UInt8(ascii: "\\") && text[1] == UInt8(ascii: "x") ? 2 : 0
        while index + 1 < text.count {
            key.append(nibble(text[index]) << 4 | nibble(text[index + 1]))
            index += 2
        }
    }

    private static func nibble(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: 0
        }
    }
}
