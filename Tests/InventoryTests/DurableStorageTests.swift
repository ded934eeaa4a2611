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

/// Shipped migrations never change: the schema each one leaves behind is fixed here, one checksum
/// per migration. If this fails, a shipped migration was edited: undo that and add a new migration
/// instead. A new migration adds its line when it ships (the failure prints the checksum).
@Suite struct ShippedSchemaTests {
    static let lastShipped = "v6 photos, illustrations, product memory"

    /// The sha256 of `schema(after:)` for every migration, in order.
    static let shipped: [(migration: String, checksum: String)] = [
        ("v1 households, members, sessions, folders, items", "e5319dba95de44492a0926c0121790011c88973b0d730930e4b623384675c9c4"),
        ("v2 single-use links, login throttling, remembered sessions", "72af09247ef5e6118562fd60a0fd72aaeaabf2b8bb59e527f3531698255f8851"),
        ("v3 item history, folder trash, search text", "90746ce339ae34d886bff979d9184df17aeaabdd3e891f4638c2a8dbd38578f1"),
        ("v4 folder item counts, due dates by folder", "5f840c5a4efb4f43148ad9cb1b178c256a7f84faaa1127f17905ad32a0e108a4"),
        ("v5 reminders, calendar feeds, push channels", "4627fe56a01acd9c3335b98a0804f6447f5242b426c604d1976686c7fd6b9cd8"),
        ("v6 photos, illustrations, product memory", "a9a48a58f543e1bd6089f4b0e8871291eb359dfd039742a646ae27b5baf4b949"),
        ("v7 health check", "26b4ce5bb746e08b844c34c6c0083e98033bbb424d8d457a52d4f4b27323b2a7"),
        ("v8 starter folders named in each reader's language", "54d9caff3a228797337887e878320640445bf171f6dce1479240e7e778272729"),
        ("v9 household search", "ff1c11474072032cbed7b082b60f8013eaa4cf9cfea1e56f5fcf8a18cbb32bed"),
        ("v10 backup status", "75b05e2217f07f88941c76df60c6d6be23e2e61eee290d16d739e7eb77bd3b6b"),
        ("v11 recipes and cooking", "ce6e944e19eea817e82d44ba5ed6296ee84534734c4c09cab9fda034500a4d0d"),
        ("v12 search text with composed voiced marks", "ce6e944e19eea817e82d44ba5ed6296ee84534734c4c09cab9fda034500a4d0d"),
        ("v13 what can we make: ingredient indexes and recipes version", "e2fe13187b6f71e76d3ce7c167b3621007c0f202981e9965f7dca7e90fcbaf71"),
        ("v14 trusted sign-in devices, members' fetches to the home network", "0376fdc46125b95a4a1bcbec5a514aa3f46a47e84260c9e9492189d174683122"),
        ("v15 history names folders by id", "81d7cbb0a5f8b1da2340ba1284c864bde0ccd3c1d80e37f2962ea990224e77e9"),
        ("v16 change feed, in the basket", "9f955ae7b0b3e267c4941e420a962a00b384c0fd6b9a0e8b4c62e392c300a57e"),
        ("v17 actions sent again from a phone apply once", "48df74bbd80727ad5925090cff9e58d8e334343715cd2788dcf73d1230bd832a"),
        ("v18 shelf life learned per product", "47cff69b559ff8b2503fe0d24485702890121000170911392a03befb761aa23e"),
        ("v19 keep rules: what to keep in stock", "a9b2d8249f7769dc3d292b79ae3fd04d991fefd0f9f239a9693789cd87e552fc"),
        ("v20 use and waste ledger", "b8f253c6d2eb4dd183432b2535d96258dccea6a109e13eff89f4bc136c9aa651"),
        ("v21 the meal plan", "672f21581b73a0b8efce9e2bd6e009d5aa74e006512187ae8f2e8478d13b5353"),
        ("v22 the change feed records meals", "6ebf8b03bf7759ab3132f715e018dd3fef746e8bde23b0fbc96f9753b63cb731"),
        ("v23 the − / + step learned from use, shelf lives set by hand", "97f126d2ee58cf6dcb4373fde5a3a09cf8f70aa865834f9b22a3e71943cc3110"),
        ("v24 personal access tokens for the API, idempotent API writes", "4707f31380b9757ea7b23c851608ea65346c869ae2e0cacfb4ae01d95fd835d0"),
        ("v25 an idempotent API write is marked done in its own transaction", "d6f7f84f90f677db30838a2d82ab336dfeb092942fc9b215b98a644ce688843d"),
    ]

    /// Every table, index and trigger with its SQL, once the migrations up to `migration` ran.
    static func schema(after migration: String) throws -> String {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: migration)
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name, tbl_name, sql FROM sqlite_master
                    WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY type, name
                    """
            ).map { "\($0["type"] as String) \($0["name"] as String) \($0["tbl_name"] as String)\n\($0["sql"] as String? ?? "")" }
                .joined(separator: "\n\n")
        }
    }

    @Test func everyMigrationIsListedInOrder() {
        #expect(Schema.migrator.migrations == Self.shipped.map(\.migration))
    }

    @Test(arguments: shipped.map(\.migration))
    func eachShippedMigrationMakesTheSchemaItAlwaysMade(_ migration: String) throws {
        let schema = try Self.schema(after: migration)
        let checksum = Self.shipped.first { $0.migration == migration }?.checksum
        #expect(Crypto.hex(Crypto.sha256(Array(schema.utf8))) == checksum, "schema after \(migration):\n\(schema)")
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
