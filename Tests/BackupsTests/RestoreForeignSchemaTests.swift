import Foundation
import GRDB
import TestSupport
import Testing

@testable import Backups
@testable import Inventory

/// A backup whose database carries schema objects Zaiko's migrations do not make (a trigger, a
/// view, a table, an altered index) is refused before anything is written: such objects would run
/// in the live server. Genuine backups of every schema this build knows still restore.
@Suite("Restore refuses schema objects Zaiko does not make")
struct RestoreForeignSchemaTests {
    /// A live data folder, and a backup of another server whose database `plant` changed; the
    /// backup is restored over the live folder with `--replace`. The error, after checking that the
    /// live folder and everything beside it are exactly as they were.
    func refusal(_ plant: String) throws -> BackupError? {
        let live = try ServerData()
        defer { live.close() }
        try live.addItems(3)
        let hostile = try ServerData()
        defer { hostile.close() }
        try hostile.addItems(2)
        try hostile.database.writer.writeWithoutTransaction { db in try db.execute(sql: plant) }
        let (archive, _) = try hostile.backup()

        let before = try dump(live.database.writer)
        let beside = listing(live.folder.url)
        let files = listing(live.dataURL)
        var caught: BackupError?
        do {
            _ = try BackupRestore.restore(archive: archive, into: live.dataURL, replace: true)
        } catch let error as BackupError {
            caught = error
        }
        #expect(try dump(live.database.writer) == before, "the live database changed")
        #expect(listing(live.folder.url) == beside, "something was left beside the live folder")
        #expect(listing(live.dataURL) == files, "the live folder changed")
        if let caught {
            #expect(caught.description.hasSuffix("nothing was restored."))
            #expect(!caught.description.contains("\n"))
        }
        return caught
    }

    @Test("a trigger that makes a newly signed-in viewer an owner")
    func plantedTrigger() throws {
        let error = try refusal(
            """
            CREATE TRIGGER promote_at_sign_in AFTER INSERT ON session BEGIN
                UPDATE member SET role = 'owner' WHERE id = NEW.member_id;
            END
            """)
        #expect(error == .foreignSchemaObject("trigger", "promote_at_sign_in"))
        #expect(error?.description.contains("trigger named \"promote_at_sign_in\"") == true)
    }

    @Test("a view over the password hashes")
    func plantedView() throws {
        #expect(try refusal("CREATE VIEW hashes AS SELECT login, password_hash FROM member") == .foreignSchemaObject("view", "hashes"))
    }

    @Test("an extra table")
    func extraTable() throws {
        #expect(try refusal("CREATE TABLE extra (id INTEGER PRIMARY KEY, note TEXT)") == .foreignSchemaObject("table", "extra"))
    }

    @Test("an index of Zaiko's name over other columns")
    func alteredIndex() throws {
        let error = try refusal("DROP INDEX session_by_member; CREATE INDEX session_by_member ON session(member_id, expires_at)")
        #expect(error == .foreignSchemaObject("index", "session_by_member"))
    }

    @Test("an index Zaiko makes, dropped")
    func droppedIndex() throws {
        #expect(try refusal("DROP INDEX session_by_member") == .missingSchemaObject("index", "session_by_member"))
    }

    /// A database migrated up to each migration this build knows, backed up and restored.
    @Test(arguments: Schema.migrator.migrations)
    func aGenuineBackupOfEverySchemaRestores(_ migration: String) throws {
        let folder = try TemporaryFolder("zaiko-backups")
        defer { folder.remove() }
        let queue = try DatabaseQueue(path: folder.appending("old.sqlite").path)
        try Schema.migrator.migrate(queue, upTo: migration)
        // The statistics SQLite keeps for itself after `PRAGMA optimize` are not a foreign object.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "ANALYZE") }
        let archive = folder.appending("old.zip")
        _ = try BackupArchive.write(source: queue, photosDirectory: folder.appending("no-photos"), to: archive, zaikoVersion: "old", now: Date())
        try queue.close()
        let outcome = try BackupRestore.restore(archive: archive, into: folder.appending("data"), replace: false)
        #expect(outcome.manifest.schemaVersion == migration)
        #expect(outcome.schemaVersion == AppDatabase.knownMigrations.last)
    }

    /// The released database kept as a dump (made by that release's own SQLite) restores too.
    @Test func theReleasedV9DatabaseRestores() throws {
        let folder = try TemporaryFolder("zaiko-backups")
        defer { folder.remove() }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/released-schemas/v9.sql")
        let queue = try DatabaseQueue(path: folder.appending("v9.sqlite").path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: try String(contentsOf: fixture, encoding: .utf8)) }
        // The photo its rows use, as files.
        let photos = folder.appending("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ArchiveLayout.photoFiles(key: "d5c7d4e6066b9ca6d30a27c1ee767c55", format: "jpeg") {
            try Data(randomBytes(100)).write(to: photos.appendingPathComponent(name))
        }
        let archive = folder.appending("v9.zip")
        _ = try BackupArchive.write(source: queue, photosDirectory: photos, to: archive, zaikoVersion: "v9", now: Date())
        try queue.close()
        let outcome = try BackupRestore.restore(archive: archive, into: folder.appending("data"), replace: false)
        #expect(outcome.manifest.schemaVersion == "v9 household search")
    }
}
