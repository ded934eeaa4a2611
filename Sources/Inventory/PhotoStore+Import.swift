import Foundation
import GRDB

/// Photos for an import: the files are written before the import's one transaction, their rows
/// are inserted inside it, and the files are removed again if it fails (the same order `save`
/// keeps, split so many photos share one transaction).
extension PhotoStore {
    /// Writes both sizes under a new key, durably; no row yet. Returns the key.
    public func writeFiles(large: [UInt8], small: [UInt8], format: String) throws -> String {
        let key = Crypto.hex(Crypto.randomBytes(16))
        do {
            for (size, bytes) in [(PhotoSize.large, large), (.small, small)] {
                try Self.writeDurably(bytes, to: url(key: key, format: format, size: size), in: directory)
            }
            try Self.syncDirectory(directory)
        } catch {
            removeFiles(key: key, format: format)
            throw error
        }
        return key
    }

    /// The row for files written by `writeFiles`, inside the caller's transaction.
    public func insertRow(_ db: Database, key: String, format: String, householdId: Int64) throws {
        try db.execute(
            sql: "INSERT INTO photo (key, household_id, format, created_at) VALUES (?, ?, ?, ?)",
            arguments: [key, householdId, format, Timestamp.string(from: clock.now())])
    }

    /// Both files of a key whose row was never committed.
    public func removeFiles(key: String, format: String) {
        for size in PhotoSize.allCases { try? FileManager.default.removeItem(at: url(key: key, format: format, size: size)) }
    }
}
