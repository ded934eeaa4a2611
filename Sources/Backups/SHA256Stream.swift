import CSodium
import Foundation

/// sha256 of a file read in chunks (libsodium's incremental API): a large database is never held
/// in memory whole.
enum SHA256Stream {
    /// The hex digest and size of the file at `url`.
    static func digest(of url: URL) throws -> (sha256: String, size: Int64) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw BackupError.unreadableFile(url.path) }
        defer { try? handle.close() }
        var hasher = Hasher()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return (hasher.finish(), hasher.size)
    }

    /// Incremental sha256 over chunks as they come (an entry extracted from a ZIP).
    struct Hasher {
        private var state = crypto_hash_sha256_state()
        private(set) var size: Int64 = 0

        init() {
            guard sodium_init() >= 0 else { preconditionFailure("libsodium failed to initialise") }
            crypto_hash_sha256_init(&state)
        }

        mutating func update(_ data: Data) {
            size += Int64(data.count)
            data.withUnsafeBytes { buffer in
                guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return }
                _ = crypto_hash_sha256_update(&state, base, UInt64(buffer.count))
            }
        }

        mutating func finish() -> String {
            var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
            crypto_hash_sha256_final(&state, &digest)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }
}
