import Foundation
import ZIPFoundation

/// The gzip format (RFC 1952): ZIPFoundation's deflate (zlib's) between gzip's 10-byte header and
/// its trailer (the CRC-32 and the length). What the server compresses text with, and what its
/// tests read back.
public enum Gzip {
    /// `bytes` gzipped (zlib's default level).
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let input = Data(bytes)
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3] // deflate, no name, no time, Unix
        let checksum: CRC32
        do {
            checksum = try Data.compress(
                size: Int64(input.count), bufferSize: 64 * 1024,
                provider: { position, size in input.subdata(in: chunk(position, size, of: input.count)) },
                consumer: { output += $0 })
        } catch {
            preconditionFailure("deflate failed on bytes in memory: \(error)")
        }
        output += littleEndian(checksum) + littleEndian(UInt32(truncatingIfNeeded: input.count))
        return output
    }

    /// The bytes of a gzip stream as `compress` writes it (no optional header fields), or nil when
    /// it is not one, is damaged, or would be longer than `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        guard bytes.count >= 18, bytes[0] == 0x1f, bytes[1] == 0x8b, bytes[2] == 8, bytes[3] == 0 else { return nil }
        let body = Data(bytes[10..<(bytes.count - 8)])
        var output = Data()
        struct TooLong: Error {}
        guard
            let checksum = try? Data.decompress(
                size: Int64(body.count), bufferSize: 64 * 1024, skipCRC32: false,
                provider: { position, size in body.subdata(in: chunk(position, size, of: body.count)) },
                consumer: { chunk in
                    guard output.count + chunk.count <= limit else { throw TooLong() }
                    output += chunk
                })
        else { return nil }
        let trailer = Array(bytes.suffix(8))
        guard trailer == littleEndian(checksum) + littleEndian(UInt32(truncatingIfNeeded: output.count)) else { return nil }
        return [UInt8](output)
    }

    /// What a provider is asked for, within the bytes there are (the decompressor asks for whole buffers).
    private static func chunk(_ position: Int64, _ size: Int, of count: Int) -> Range<Int> {
        let start = min(max(Int(position), 0), count)
        return start..<min(start + max(size, 0), count)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
