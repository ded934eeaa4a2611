import Foundation
import GRDB

/// The two steps of storing a photo, for `save` and for photos that arrive with a whole household
/// (an import): the files are written first, each durably, and their rows join the transaction
/// that creates the household. If it does not commit, `removeFiles` removes the files (and
/// `collectGarbage` any a crash left).
extension PhotoStore {
    /// Writes both sizes under a new key, without a row yet. Returns the key.
    public func writeFiles(large: [UInt8], small: [UInt8], format: String) throws -> String {
        let key = Crypto.hex(Crypto.randomBytes(16))
        var written: [URL] = []
        do {
            for (size, bytes) in [(PhotoSize.large, large), (.small, small)] {
                let target = url(key: key, format: format, size: size)
                try Self.writeDurably(bytes, to: target, in: directory)
                written.append(target)
            }
            try Self.syncDirectory(directory)
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        return key
    }

    /// The row of a photo written by `writeFiles`, inside the caller's transaction; `createdAt`
    /// keeps the time the photo had where it came from (now when unknown).
    func insertRow(_ db: Database, key: String, format: String, householdId: Household.ID, createdAt: Timestamp? = nil) throws {
        try db.execute(
            sql: "INSERT INTO photo (key, household_id, format, created_at) VALUES (?, ?, ?, ?)",
            arguments: [key, householdId, format, createdAt ?? Timestamp(clock.now())])
    }

    /// Removes the files of a photo whose row never committed.
    public func removeFiles(key: String, format: String) {
        for size in PhotoSize.allCases { try? FileManager.default.removeItem(at: url(key: key, format: format, size: size)) }
    }
}
