import Foundation
import GRDB
import Testing

@testable import Inventory

/// What a stop, a deleted file or a full disk does to the database on disk.
@Suite("Durable storage")
struct DurableStorageTests {
    /// A fresh folder holding `zaiko.sqlite`, removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func addHousehold(_ database: AppDatabase, _ name: String) throws {
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO household (name, created_at) VALUES (?, '2026-11-22T00:00:00Z')", arguments: [name])
        }
    }

    @Test func aCleanCloseLeavesNoWALAndTheDatabaseFileAloneHoldsEveryWrite() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zaiko.sqlite")
        let database = try AppDatabase.open(at: file)
        try Self.addHousehold(database, "Written last")
        try database.close()

        let wal = folder.appendingPathComponent("zaiko.sqlite-wal").path
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walSize == 0, "the WAL still holds \(walSize) bytes after a clean close")

        // A copy of the database file alone (what a person backs up) has the last write.
        let copyFolder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: copyFolder) }
        let copy = copyFolder.appendingPathComponent("zaiko.sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        let names = try DatabaseQueue(path: copy.path).read { db in try String.fetchAll(db, sql: "SELECT name FROM household") }
        #expect(names == ["Written last"])
    }

    @Test func healthyWhileTheOpenFileIsOnDiskAndWritable() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(at: folder.appendingPathComponent("zaiko.sqlite"), healthWriteInterval: .zero)
        #expect(database.healthProblem() == nil)
        // The check commits a real write.
        let checked = try database.writer.read { db in try String.fetchOne(db, sql: "SELECT checked_at FROM health_check") }
        #expect(checked?.isEmpty == false)
    }

    @Test func aDeletedDatabaseFileIsNotHealthy() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zaiko.sqlite")
        let database = try AppDatabase.open(at: file, healthWriteInterval: .zero)
        try FileManager.default.removeItem(at: file)
        // Writes still "succeed" into the unlinked file: only the identity check can tell.
        #expect(database.healthProblem()?.contains("gone") == true)
    }

    @Test func aDatabaseFileReplacedUnderTheServerIsNotHealthy() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zaiko.sqlite")
        let database = try AppDatabase.open(at: file, healthWriteInterval: .zero)
        let older = folder.appendingPathComponent("older.sqlite")
        try FileManager.default.copyItem(at: file, to: older)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: older, to: file)
        #expect(database.healthProblem()?.contains("replaced") == true)
    }

    @Test func aDatabaseThatCannotCommitIsNotHealthy() throws {
        let database = try AppDatabase.inMemory(healthWriteInterval: .zero)
        #expect(database.healthProblem() == nil)
        // Reads still work; writes fail as on a read-only file.
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        #expect(database.healthProblem()?.contains("could not commit") == true)
        #expect(StorageFailure(DatabaseError(resultCode: .SQLITE_READONLY)) == .readOnly)
    }

    @Test func storageErrorsAreToldApartFromOthers() {
        #expect(StorageFailure(DatabaseError(resultCode: .SQLITE_FULL)) == .full)
        #expect(StorageFailure(DatabaseError(resultCode: .SQLITE_IOERR)) == .failing)
        #expect(StorageFailure(PhotoStoreError.write(ENOSPC)) == .full)
        #expect(StorageFailure(PhotoStoreError.write(EROFS)) == .readOnly)
        #expect(StorageFailure(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) == nil)
        #expect(StorageFailure(InventoryError.conflict) == nil)
    }
}

/// Shipped migrations never change: the schema v1…v6 make is fixed here. If this fails, a shipped
/// migration was edited: undo that and add a new migration instead.
@Suite struct ShippedSchemaTests {
    static let lastShipped = "v6 photos, illustrations, product memory"

    @Test func theShippedMigrationsMakeTheSchemaTheyAlwaysMade() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: Self.lastShipped)
        let schema = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name, tbl_name, sql FROM sqlite_master
                    WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY type, name
                    """
            ).map { "\($0["type"] as String) \($0["name"] as String) \($0["tbl_name"] as String)\n\($0["sql"] as String? ?? "")" }
                .joined(separator: "\n\n")
        }
        #expect(Crypto.hex(Crypto.sha256(Array(schema.utf8))) == "a9a48a58f543e1bd6089f4b0e8871291eb359dfd039742a646ae27b5baf4b949", "schema now:\n\(schema)")
    }

    @Test func theItemAndProductChecksAreWrittenOut() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: Self.lastShipped)
        let sql = try queue.read { db in try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('item', 'product')") }
        let units = "unit IN ('piece', 'pack', 'bottle', 'can', 'bag', 'box', 'g', 'kg', 'ml', 'L')"
        let kinds = "kind IN ('meat', 'fish', 'vegetables', 'fruit', 'dairy_eggs', 'drinks', 'seasonings', 'prepared', 'other')"
        #expect(sql.count == 2)
        for table in sql {
            #expect(table.contains(units))
            #expect(table.contains(kinds))
        }
        #expect(sql.contains { $0.contains("status IN ('unopened', 'opened', 'running_low')") })
    }
}
