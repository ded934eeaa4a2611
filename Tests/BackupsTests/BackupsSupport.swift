import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing
import ZIPFoundation

@testable import Backups
@testable import Inventory

/// A household on a real database file with real photo files, in a folder of its own.
struct ServerData {
    let folder: TemporaryFolder
    let database: AppDatabase
    let fixture: Fixture

    var dataURL: URL { folder.appending("data") }
    var photosURL: URL { dataURL.appendingPathComponent("photos") }

    init() throws {
        folder = try TemporaryFolder("zaiko-backups")
        try FileManager.default.createDirectory(at: folder.appending("data"), withIntermediateDirectories: true)
        database = try AppDatabase.open(at: folder.appending("data").appendingPathComponent("zaiko.sqlite"))
        fixture = try Fixture(database: database)
    }

    func close() {
        try? database.close()
        folder.remove()
    }

    /// Registers `count` items named `<prefix>-<n>`, the first `photos` of them with a photo of their own.
    @discardableResult
    func addItems(_ count: Int, prefix: String = "item", photos: Int = 0) throws -> [Int64] {
        let owner = try fixture.owner
        let folderId = try fixture.firstFolder(.stock)
        let drafts = (0..<count).map { index -> ItemInput in
            var draft = ItemInput()
            draft.name = "\(prefix)-\(index) 牛乳"
            draft.note = "note \(index)"
            return draft
        }
        let ids = try fixture.items.register(drafts, into: folderId, in: owner.household, by: owner.memberId, timeZone: .gmt)
        let store = try PhotoStore(directory: photosURL, database: database)
        for id in ids.prefix(photos) {
            let key = try store.save(large: randomBytes(3000), small: randomBytes(500), format: "jpeg", in: owner.household)
            try database.writer.write { db in try db.execute(sql: "UPDATE item SET photo = ? WHERE id = ?", arguments: [key, id]) }
        }
        return ids
    }

    /// A product remembered with a photo of its own (products reference photos too).
    func addProductWithPhoto(barcode: String = "4901234567894") throws {
        let store = try PhotoStore(directory: photosURL, database: database)
        let key = try store.save(large: randomBytes(2000), small: randomBytes(300), format: "webp", in: fixture.household)
        try database.writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO product (household_id, barcode, name, photo, kind, unit, updated_at) VALUES (?, ?, 'お茶', ?, 'drinks', 'bottle', '2026-11-22T10:00:00Z')",
                arguments: [fixture.household.householdId, barcode, key])
        }
    }

    func backup(to name: String = "backup.zip") throws -> (URL, BackupManifest) {
        let url = folder.appending("backups").appendingPathComponent(name)
        let manifest = try BackupArchive.write(database: database, photosDirectory: photosURL, to: url, zaikoVersion: "test")
        return (url, manifest)
    }
}

func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

/// Every table's rows, each rendered as text and sorted: equal dumps mean equal databases.
func dump(_ reader: any DatabaseReader) throws -> [String: [String]] {
    try reader.read { db in
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var result: [String: [String]] = [:]
        for table in tables {
            result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map(\.description).sorted()
        }
        return result
    }
}

func dump(file: URL) throws -> [String: [String]] {
    let queue = try DatabaseQueue(path: file.path)
    defer { try? queue.close() }
    return try dump(queue)
}

/// The entries of a ZIP as (path, bytes), in order.
func entries(of archive: URL) throws -> [(path: String, data: Data)] {
    let zip = try Archive(url: archive, accessMode: .read)
    return try zip.map { entry in
        var data = Data()
        _ = try zip.extract(entry) { data.append($0) }
        return (entry.path, data)
    }
}

/// Writes a new ZIP from (path, bytes) pairs: an archive tampered with on purpose.
func writeZip(_ items: [(path: String, data: Data)], to url: URL) throws {
    let zip = try Archive(url: url, accessMode: .create)
    for item in items {
        try zip.addEntry(with: item.path, type: .file, uncompressedSize: Int64(item.data.count), compressionMethod: .deflate) { position, size in
            item.data.subdata(in: Int(position)..<min(Int(position) + size, item.data.count))
        }
    }
}

func manifest(in items: [(path: String, data: Data)]) throws -> BackupManifest {
    try JSONDecoder().decode(BackupManifest.self, from: try #require(items.first { $0.path == "manifest.json" }).data)
}

func replacingManifest(_ items: [(path: String, data: Data)], _ change: (inout BackupManifest) -> Void) throws -> [(path: String, data: Data)] {
    var manifest = try manifest(in: items)
    change(&manifest)
    let encoded = try manifest.encoded()
    return items.map { $0.path == "manifest.json" ? ($0.path, encoded) : $0 }
}

/// The names in a folder (to show a refused restore left nothing behind).
func listing(_ folder: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

func sha256(_ data: Data) -> String {
    var hasher = SHA256Stream.Hasher()
    hasher.update(data)
    return hasher.finish()
}
