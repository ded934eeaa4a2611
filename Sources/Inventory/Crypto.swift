import CSodium
import Foundation

/// Randomness and hashes from libsodium.
public enum Crypto {
    private static let ready: Bool = sodium_init() >= 0

    /// `count` random bytes from the system's CSPRNG.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A random token, URL-safe, from `byteCount` random bytes.
    public static func token(byteCount: Int = 32) -> String {
        base64URL(randomBytes(byteCount))
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// Compares secrets without leaking through timing where they differ.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        return x.count == y.count && sodium_memcmp(x, y, x.count) == 0
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count {
                out.append(alphabet[(value >> (18 - 6 * position)) & 0x3f])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url text (`base64URL`'s), nil for anything else.
    public static func bytes(base64URL text: String) -> [UInt8]? {
        guard text.utf8.count % 4 != 1 else { return nil }
        var padded = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !padded.contains("=") else { return nil }
        padded += String(repeating: "=", count: (4 - padded.utf8.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }
}
