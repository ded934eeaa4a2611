import Foundation
import GRDB
import TestSupport
import Testing

@testable import Backups
@testable import Inventory

@Suite("Restore across schema versions")
struct RestoreSchemaTests {
    static let older = "v5 reminders, calendar feeds, push channels"

    /// A database file migrated with `migrator` (up to `upTo`), holding one household, folder and item.
    func database(at url: URL, migrator: DatabaseMigrator, upTo: String? = nil) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: url.path)
        if let upTo { try migrator.migrate(queue, upTo: upTo) } else { try migrator.migrate(queue) }
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO household (id, name, created_at) VALUES (1, 'Old home', '2025-01-01T00:00:00Z');
                    INSERT INTO folder (id, household_id, name, kind, created_at) VALUES (1, 1, 'Fridge', 'stock', '2025-01-01T00:00:00Z');
                    INSERT INTO item (household_id, folder_id, name, created_at, updated_at)
                        VALUES (1, 1, 'Milk', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
                    """)
        }
        return queue
    }

    @Test("an archive of an older schema is migrated on restore, its rows intact")
    func olderSchema() throws {
        let folder = try TemporaryFolder("zaiko-backups")
        defer { folder.remove() }
        let queue = try database(at: folder.appending("old.sqlite"), migrator: Schema.migrator, upTo: Self.older)
        let archive = folder.appending("old.zip")
        let manifest = try BackupArchive.write(
            source: queue, photosDirectory: folder.appending("no-photos"), to: archive, zaikoVersion: "0.5", now: Date())
        try queue.close()
        #expect(manifest.schemaVersion == Self.older)
        #expect(!manifest.migrations.contains("v6 photos, illustrations, product memory"))

        let target = folder.appending("data")
        let outcome = try BackupRestore.restore(archive: archive, into: target, replace: false)
        #expect(outcome.schemaVersion == AppDatabase.knownMigrations.last)
        let restored = try DatabaseQueue(path: target.appendingPathComponent("zaiko.sqlite").path)
        defer { try? restored.close() }
        let (migrations, names, hasPhotos, integrity) = try restored.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                try String.fetchAll(db, sql: "SELECT name FROM item"), try db.tableExists("photo"),
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(migrations == AppDatabase.knownMigrations)
        #expect(names == ["Milk"])
        #expect(hasPhotos)
        #expect(integrity == ["ok"])
    }

    @Test("an archive with a migration this build does not know is refused, nothing written")
    func newerSchema() throws {
        let folder = try TemporaryFolder("zaiko-backups")
        defer { folder.remove() }
        var future = Schema.migrator
        future.registerMigration("v99 from the future") { db in try db.execute(sql: "CREATE TABLE future (id INTEGER PRIMARY KEY)") }
        let queue = try database(at: folder.appending("new.sqlite"), migrator: future)
        let archive = folder.appending("new.zip")
        let manifest = try BackupArchive.write(source: queue, photosDirectory: folder.appending("no-photos"), to: archive, zaikoVersion: "9.9", now: Date())
        try queue.close()
        #expect(manifest.schemaVersion == "v99 from the future")

        let target = folder.appending("data")
        #expect(throws: BackupError.newerSchema("v99 from the future")) {
            try BackupRestore.restore(archive: archive, into: target, replace: false)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(listing(folder.url) == ["new.sqlite", "new.zip"])
        #expect(BackupError.newerSchema("v99 from the future").description.hasPrefix("The backup was made by a newer Zaiko"))
    }
}
