import Foundation
import GRDB
import TestSupport
import Testing

@testable import Backups
@testable import Inventory

@Suite("Backup and restore round trip")
struct BackupRoundTripTests {
    @Test("every table's rows and every photo's bytes come back identical")
    func roundTrip() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(30, photos: 6)
        try server.addProductWithPhoto()
        let (archive, manifest) = try server.backup()

        #expect(manifest.formatVersion == 1)
        #expect(manifest.schemaVersion == AppDatabase.knownMigrations.last)
        #expect(manifest.zaikoVersion == "test")
        #expect(manifest.rowCounts["item"] == 30)
        #expect(manifest.rowCounts["photo"] == 7)
        #expect(manifest.photoFileCount == 14)
        #expect(try BackupRestore.verify(archive: archive) == manifest)
        let mode = try FileManager.default.attributesOfItem(atPath: archive.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let target = server.folder.appending("restored")
        let outcome = try BackupRestore.restore(archive: archive, into: target, replace: false)
        #expect(outcome.movedAside == nil)
        #expect(try dump(file: target.appendingPathComponent("zaiko.sqlite")) == dump(server.database.writer))
        let photoNames = try server.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT key, format FROM photo").flatMap { ArchiveLayout.photoFiles(key: $0["key"], format: $0["format"]) }
        }
        #expect(photoNames.count == 14)
        for name in photoNames {
            let original = try Data(contentsOf: server.photosURL.appendingPathComponent(name))
            let restored = try Data(contentsOf: target.appendingPathComponent("photos").appendingPathComponent(name))
            #expect(original == restored, "photo \(name)")
        }
        #expect(listing(target.appendingPathComponent("photos")).count == 14)
        // The restored folder opens as a server's data folder.
        let reopened = try AppDatabase.open(at: target.appendingPathComponent("zaiko.sqlite"))
        #expect(try reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 30)
        try reopened.close()
    }

    @Test("a photo file left on disk without a row is not backed up; a row without files that nothing uses is dropped")
    func strayPhotos() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(2, photos: 1)
        let stray = server.photosURL.appendingPathComponent(String(repeating: "a", count: 32) + "-512.jpg")
        try Data([1, 2, 3]).write(to: stray)
        try server.database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO photo (key, household_id, format, created_at) VALUES (?, ?, 'jpeg', '2026-01-01T00:00:00Z')",
                arguments: [String(repeating: "b", count: 32), server.fixture.household.householdId])
        }
        let (archive, manifest) = try server.backup()
        #expect(manifest.photoFileCount == 2)
        #expect(manifest.rowCounts["photo"] == 1)
        #expect(!manifest.files.contains { $0.path.contains("aaaa") })
        _ = try BackupRestore.verify(archive: archive)
    }

    @Test("a photo an item uses but missing from the photos folder stops the backup with one sentence")
    func usedPhotoMissing() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(1, photos: 1)
        for name in listing(server.photosURL) { try FileManager.default.removeItem(at: server.photosURL.appendingPathComponent(name)) }
        #expect {
            try server.backup()
        } throws: { error in
            guard case BackupError.photoMissing = error else { return false }
            return true
        }
        #expect(listing(server.folder.appending("backups")).isEmpty)
    }

    @Test("a photo only a recipe uses, missing from the photos folder, stops the backup too")
    func recipePhotoMissing() throws {
        let server = try ServerData()
        defer { server.close() }
        let store = try PhotoStore(directory: server.photosURL, database: server.database)
        let key = try store.save(large: randomBytes(2000), small: randomBytes(300), format: "jpeg", in: server.fixture.household)
        try server.database.writer.write { db in
            var recipe = Recipe(householdId: server.fixture.household.householdId, name: "カレー", photo: key)
            try recipe.insert(db)
        }
        for name in listing(server.photosURL) { try FileManager.default.removeItem(at: server.photosURL.appendingPathComponent(name)) }
        #expect {
            try server.backup()
        } throws: { error in
            guard case BackupError.photoMissing = error else { return false }
            return true
        }
    }

    @Test("a backup never overwrites an existing file")
    func destinationExists() throws {
        let server = try ServerData()
        defer { server.close() }
        let (archive, _) = try server.backup()
        let before = try Data(contentsOf: archive)
        #expect(throws: BackupError.destinationExists(archive.path)) { try server.backup() }
        #expect(try Data(contentsOf: archive) == before)
        #expect(listing(archive.deletingLastPathComponent()) == ["backup.zip"])
    }

    @Test("into a folder holding data only with replace, which moves the data aside and keeps the backups folder")
    func replace() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(3, photos: 1)
        let (archive, _) = try server.backup()
        let target = server.folder.appending("target")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("backups"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: target.appendingPathComponent("zaiko.sqlite"))
        try Data("kept".utf8).write(to: target.appendingPathComponent("backups/older.zip"))

        #expect(throws: BackupError.targetNotEmpty(target.path)) { try BackupRestore.restore(archive: archive, into: target, replace: false) }
        #expect(try Data(contentsOf: target.appendingPathComponent("zaiko.sqlite")) == Data("old".utf8))

        let outcome = try BackupRestore.restore(archive: archive, into: target, replace: true, now: utc("2026-11-22T21:40:12Z"))
        let aside = try #require(outcome.movedAside)
        #expect(aside.lastPathComponent == "target.before-restore-20261122-214012")
        #expect(try Data(contentsOf: aside.appendingPathComponent("zaiko.sqlite")) == Data("old".utf8))
        #expect(try Data(contentsOf: target.appendingPathComponent("backups/older.zip")) == Data("kept".utf8))
        #expect(try dump(file: target.appendingPathComponent("zaiko.sqlite"))["item"]?.count == 3)
    }

    @Test("an empty folder (or one with an empty uploads folder) takes a restore without replace")
    func emptyTarget() throws {
        let server = try ServerData()
        defer { server.close() }
        let (archive, _) = try server.backup()
        let target = server.folder.appending("empty")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("uploads"), withIntermediateDirectories: true)
        _ = try BackupRestore.restore(archive: archive, into: target, replace: false)
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("zaiko.sqlite").path))
    }
}
