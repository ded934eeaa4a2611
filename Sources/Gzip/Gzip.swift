import CZlibDeflate

/// The gzip format (RFC 1952) through the system's zlib, which writes gzip's header and trailer
/// itself. What the server compresses text with, and what its tests read back.
public enum Gzip {
    /// zlib's own default, for files compressed once and sent many times (public files).
    public static let defaultLevel: Int32 = 6

    /// `bytes` gzipped at `level` (1, fastest, to 9, smallest), in one call: the output buffer is
    /// zlib's bound for the input, so it never grows.
    public static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        var stream = z_stream()
        guard zaiko_deflate_init(&stream, level) == Z_OK else { preconditionFailure("zlib refused deflate level \(level)") }
        defer { deflateEnd(&stream) }
        // zlib's bound counts the stream's wrapper too (gzip's header and trailer here).
        let capacity = Int(deflateBound(&stream, uLong(bytes.count)))
        return [UInt8](unsafeUninitializedCapacity: capacity) { output, written in
            bytes.withUnsafeBufferPointer { input in
                // zlib's next_in is not const without ZLIB_CONST; deflate only reads through it.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(capacity)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { preconditionFailure("deflate did not finish within its bound") }
            }
            written = Int(stream.total_out)
        }
    }

    /// The bytes of a gzip stream, or nil when it is not one, is damaged or truncated, or would be
    /// longer than `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard zaiko_inflate_init(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: limit + 1)
        let result = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        // One byte more than the limit was room to tell "exactly the limit" from "longer".
        guard result == Z_STREAM_END, stream.avail_in == 0, Int(stream.total_out) <= limit else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
