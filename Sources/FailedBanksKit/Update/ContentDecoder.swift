import CZlib
import Foundation

/// Unpacks a response body as it arrives, in pieces of at most 64 KiB handed to a sink that can
/// stop it at any piece: `identity` passes the bytes through, `gzip` (one member or several) and
/// `deflate` (zlib's format) go through zlib's streaming inflate.
///
/// A compressed body is unpacked only as far as the sink takes it, so a small body that would
/// unpack to gigabytes costs the cap and no more, in memory and in time.
///
///     let decoder = try ContentDecoder(contentEncoding: "gzip")
///     let more = try decoder.decode(chunk) { piece in body.append(piece) }   // false: the sink stopped
///     try decoder.finish()   // throws when the compressed stream had not ended
final class ContentDecoder {
    /// Why a body cannot be unpacked.
    enum Failure: Error, Equatable {
        /// A `Content-Encoding` other than identity, gzip and deflate.
        case unsupported(String)
        /// zlib refused the bytes (its message).
        case damaged(String)
        /// The body ended inside the compressed stream.
        case endedEarly
    }

    /// The encodings read: nil (identity) or zlib's window bits for it.
    private let windowBits: Int32?
    /// The encoding's name as the server wrote it, for messages.
    let name: String
    private var stream: UnsafeMutablePointer<z_stream>?
    private let output: UnsafeMutableRawBufferPointer
    private var ended = false
    private static let pieceSize = 64 << 10

    /// Reads `contentEncoding` (nil, empty or `identity`: nothing to unpack); throws ``Failure/unsupported(_:)``.
    init(contentEncoding: String?) throws(Failure) {
        let token = (contentEncoding ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        name = token
        switch token {
        case "", "identity": windowBits = nil
        case "gzip", "x-gzip": windowBits = 15 + 32
        case "deflate": windowBits = 15
        default: throw .unsupported(contentEncoding ?? token)
        }
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: windowBits == nil ? 0 : Self.pieceSize, alignment: 1)
        guard let windowBits else { return }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream, windowBits) == Z_OK else {
            stream.deallocate()
            output.deallocate()
            throw .damaged("zlib could not start")
        }
        self.stream = stream
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        output.deallocate()
    }

    /// True when the body is compressed.
    var isCompressed: Bool { windowBits != nil }

    /// Unpacks `input` into `sink`, piece by piece; returns false as soon as `sink` does (the rest
    /// is not unpacked). Bytes after the end of a deflate stream are ignored; after a gzip member, a
    /// next member is read.
    func decode(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        guard let stream else { return input.isEmpty || sink(input) }
        guard let base = input.baseAddress, !input.isEmpty else { return true }
        if ended {
            guard windowBits == 15 + 32 else { return true }
            guard inflateReset(stream) == Z_OK else { throw .damaged("zlib could not read the next member") }
            ended = false
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(output.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0, !sink(UnsafeRawBufferPointer(rebasing: output[..<produced])) { return false }
            switch status {
            case Z_OK:
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return true }
            case Z_BUF_ERROR:
                return true
            case Z_STREAM_END:
                ended = true
                guard stream.pointee.avail_in > 0, windowBits == 15 + 32 else { return true }
                guard inflateReset(stream) == Z_OK else { throw .damaged("zlib could not read the next member") }
                ended = false
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .damaged(message)
            }
        }
    }

    /// Checks that a compressed body ended where its stream ends; throws ``Failure/endedEarly``.
    func finish() throws(Failure) {
        if stream != nil && !ended { throw .endedEarly }
    }
}
