import Foundation
import GRDB

/// The two sizes every photo is kept in.
public enum PhotoSize: Int, Sendable, CaseIterable {
    case large = 512
    case small = 128
}

/// Photos on disk under `<data>/photos/`, named by the server (`<key>-512.jpg`), with one `photo`
/// row each. Files are written to a temporary name, synced and renamed before the row is
/// committed, so a row never points to a missing file; files without a row (a crash between the
/// two) and photos nothing uses any more are removed by `collectGarbage`.
public struct PhotoStore: Sendable {
    public let directory: URL
    let database: AppDatabase
    let clock: WallClock
    /// A photo uploaded into a form that was not saved yet (another draft had a problem) waits this long.
    public static let pendingGrace: TimeInterval = 24 * 3600

    public init(directory: URL, database: AppDatabase, clock: WallClock = .system) throws {
        self.directory = directory
        self.database = database
        self.clock = clock
        // Photos are the household's own: the folder and files are for Zaiko's account only.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    public static func isWellFormedKey(_ key: String) -> Bool {
        key.utf8.count == 32 && key.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func fileExtension(_ format: String) -> String { format == "webp" ? "webp" : "jpg" }

    public func url(key: String, format: String, size: PhotoSize) -> URL {
        directory.appendingPathComponent("\(key)-\(size.rawValue).\(Self.fileExtension(format))")
    }

    /// Stores both sizes for the household and returns the new photo's key.
    public func save(large: [UInt8], small: [UInt8], format: String, in scope: HouseholdScope) throws -> String {
        let key = try writeFiles(large: large, small: small, format: format)
        do {
            try database.writer.write { db in try insertRow(db, key: key, format: format, householdId: scope.householdId) }
        } catch {
            removeFiles(key: key, format: format)
            throw error
        }
        return key
    }

    /// The file of one of the household's photos; `.notFound` for another household's or an unknown key.
    public func file(key: String, size: PhotoSize, in scope: HouseholdScope) throws -> URL {
        guard Self.isWellFormedKey(key) else { throw InventoryError.notFound }
        let format = try database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT format FROM photo WHERE key = ? AND household_id = ?", arguments: [key, scope.householdId])
        }
        guard let format else { throw InventoryError.notFound }
        return url(key: key, format: format, size: size)
    }

    /// True when `key` names a photo of this household (a form may only point at its own).
    static func belongs(_ db: Database, key: String, householdId: Household.ID) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM photo WHERE key = ? AND household_id = ?", arguments: [key, householdId]) ?? false
    }

    /// Removes photos that no item, product or recipe (items and recipes in the trash too) uses and
    /// that are older than the grace period, then files on disk without a row. At start
    /// (`everyOrphan`) every file without a row goes; while serving, only those older than the
    /// grace, since a save may be between its rename and its commit. Returns how many files were removed.
    @discardableResult
    public func collectGarbage(everyOrphan: Bool = false) throws -> Int {
        let now = clock.now()
        let unused = try database.writer.write { db -> [Row] in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT key, format FROM photo
                    WHERE created_at < ?
                      AND NOT EXISTS (SELECT 1 FROM item WHERE item.photo = photo.key)
                      AND NOT EXISTS (SELECT 1 FROM product WHERE product.photo = photo.key)
                      AND NOT EXISTS (SELECT 1 FROM recipe WHERE recipe.photo = photo.key)
                    """, arguments: [Timestamp(now.addingTimeInterval(-Self.pendingGrace))])
            for row in rows { try db.execute(sql: "DELETE FROM photo WHERE key = ?", arguments: [row["key"] as String]) }
            return rows
        }
        var removed = 0
        for row in unused {
            for size in PhotoSize.allCases {
                if (try? FileManager.default.removeItem(at: url(key: row["key"], format: row["format"], size: size))) != nil { removed += 1 }
            }
        }
        let known = Set(try database.writer.read { db in try String.fetchAll(db, sql: "SELECT key FROM photo") })
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let key = String(file.lastPathComponent.prefix { $0 != "-" && $0 != "." })
            if known.contains(key) { continue }
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            if everyOrphan || modified < now.addingTimeInterval(-Self.pendingGrace) {
                if (try? FileManager.default.removeItem(at: file)) != nil { removed += 1 }
            }
        }
        return removed
    }

    /// Writes to a temporary name, syncs, and renames over `target`: a reader sees the whole file or none.
    static func writeDurably(_ bytes: [UInt8], to target: URL, in directory: URL) throws {
        let temporary = directory.appendingPathComponent(".tmp-\(Crypto.hex(Crypto.randomBytes(8)))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PhotoStoreError.write(errno) }
        // The errno of the step that failed: ENOSPC or EROFS tell the member the disk is full or read-only.
        var failure: Int32?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil, rename(temporary.path, target.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary.path)
            throw PhotoStoreError.write(failure)
        }
    }

    /// Makes the renames themselves durable.
    static func syncDirectory(_ directory: URL) throws {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PhotoStoreError.write(errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw PhotoStoreError.write(errno) }
    }
}

public enum PhotoStoreError: Error, Equatable {
    case write(Int32)
}
