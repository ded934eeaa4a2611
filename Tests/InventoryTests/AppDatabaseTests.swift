import Foundation
import GRDB
import Testing

@testable import Inventory

@Suite("AppDatabase and the first schema")
struct AppDatabaseTests {
    func household(_ db: Database, _ name: String) throws -> Household {
        try Household.Draft(name: name).insertAndFetch(db, as: Household.self)
    }

    @Test func migratesAnEmptyDatabaseToTheCurrentSchema() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name")
            let expected: Set = [
                "calendar_feed", "folder", "household", "item", "item_event", "login_throttle", "member", "photo", "product", "push_channel", "push_message",
                "session", "single_use_link",
            ]
            #expect(expected.isSubset(of: tables), "missing: \(expected.subtracting(tables))")
            let applied = try Schema.migrator.appliedIdentifiers(db)
            #expect(applied == Set(Schema.migrator.migrations))
            let itemColumns = Set(try db.columns(in: "item").map(\.name))
            for column in [
                "name", "photo", "quantity", "unit", "kind", "note", "barcode", "due", "remind_at", "status", "urgent", "version", "updated_at", "deleted_at",
                "illustration",
            ] {
                #expect(itemColumns.contains(column), "item.\(column) is missing")
            }
        }
    }

    @Test func upgradesADatabaseFromEveryEarlierVersionKeepingItsData() throws {
        let migrations = Schema.migrator.migrations
        for (index, version) in migrations.enumerated() where index < migrations.count - 1 {
            let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
            try Schema.migrator.migrate(queue, upTo: version)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO household (id, name, created_at) VALUES (1, 'Old', '2026-01-01T00:00:00Z')")
                try db.execute(sql: "INSERT INTO folder (id, household_id, name, kind, created_at) VALUES (1, 1, 'Fridge', 'stock', '2026-01-01T00:00:00Z')")
                try db.execute(
                    sql:
                        "INSERT INTO item (household_id, folder_id, name, created_at, updated_at) VALUES (1, 1, 'Milk', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')"
                )
                try db.execute(
                    sql:
                        "INSERT INTO member (household_id, name, login, password_hash, role, created_at) VALUES (1, 'A', 'a', 'x', 'owner', '2026-01-01T00:00:00Z')"
                )
                try db.execute(
                    sql:
                        "INSERT INTO session (member_id, token_hash, csrf_token, created_at, last_seen_at, expires_at) VALUES (1, x'00', 'c', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')"
                )
            }
            let upgraded = try AppDatabase(queue)
            let (item, sessions, complete) = try upgraded.writer.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT name FROM item"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session"),
                    try Schema.migrator.hasCompletedMigrations(db)
                )
            }
            #expect(item == "Milk", "from \(version)")
            #expect(sessions == 1, "from \(version)")
            #expect(complete)
        }
    }

    @Test func upgradingToV5KeepsRemindersToComeAndMarksThoseLongPast() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: "v4 folder item counts, due dates by folder")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO household (id, name, created_at) VALUES (1, 'Old', '2026-01-01T00:00:00Z')")
            try db.execute(sql: "INSERT INTO folder (id, household_id, name, kind, created_at) VALUES (1, 1, 'Fridge', 'stock', '2026-01-01T00:00:00Z')")
            for (name, remind) in [("Past", "2000-01-01T09:00:00Z"), ("Future", "2999-01-01T09:00:00Z")] {
                try db.execute(
                    sql: """
                        INSERT INTO item (household_id, folder_id, name, due, remind_at, created_at, updated_at)
                        VALUES (1, 1, ?, '2999-12-31', ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                        """, arguments: [name, remind])
            }
        }
        let upgraded = try AppDatabase(queue)
        let pending = try upgraded.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM item WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at")
        }
        #expect(pending == ["Future"])
    }

    @Test func anItemCannotPointToAnotherHouseholdsFolder() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let ours = try household(db, "Ours")
            let theirs = try household(db, "Theirs")
            let theirFridge = try Folder.Draft(householdId: theirs.id, name: "Fridge", kind: .stock).insertAndFetch(db, as: Folder.self)
            let intruder = Item.Draft(householdId: ours.id, folderId: theirFridge.id, name: "Milk")
            #expect(throws: DatabaseError.self) { try intruder.insert(db) }
            let fine = try Item.Draft(householdId: theirs.id, folderId: theirFridge.id, name: "Milk").insertAndFetch(db, as: Item.self)
            #expect(fine.id.rawValue > 0)
        }
    }

    @Test func deletingAHouseholdDeletesEverythingItOwns() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let home = try household(db, "Home")
            let other = try household(db, "Grandparents")
            for owner in [home, other] {
                let folder = try Folder.Draft(householdId: owner.id, name: "Pantry", kind: .stock).insertAndFetch(db, as: Folder.self)
                try Item.Draft(householdId: owner.id, folderId: folder.id, name: "Rice").insert(db)
                try db.execute(
                    sql:
                        "INSERT INTO member (household_id, name, login, password_hash, role, created_at) VALUES (?, 'A', ?, 'x', 'owner', '2026-01-01T00:00:00Z')",
                    arguments: [owner.id, "login\(owner.id)"])
            }
            _ = try Household.deleteOne(db, key: home.id)
            for table in ["folder", "item", "member"] {
                let left = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE household_id = ?", arguments: [home.id])
                #expect(left == 0, "\(table) rows survived")
                let kept = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE household_id = ?", arguments: [other.id])
                #expect(kept == 1, "the other household lost \(table) rows")
            }
        }
    }

    @Test func constraintsRefuseImpossibleItems() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let home = try household(db, "Home")
            let folder = try Folder.Draft(householdId: home.id, name: "Fridge", kind: .stock).insertAndFetch(db, as: Folder.self)
            let bad: [Item.Draft] = [
                Item.Draft(householdId: home.id, folderId: folder.id, name: ""),
                Item.Draft(householdId: home.id, folderId: folder.id, name: String(repeating: "x", count: 101)),
                Item.Draft(householdId: home.id, folderId: folder.id, name: "Milk", quantity: -1),
                // A reminder needs a due date.
                Item.Draft(householdId: home.id, folderId: folder.id, name: "Milk", remindAt: "2026-11-23T09:00:00Z"),
            ]
            for item in bad {
                #expect(throws: DatabaseError.self, "\(item) was accepted") { try item.insert(db) }
            }
            // Codes the enums cannot spell, written over a valid item's.
            let milk = try Item.Draft(householdId: home.id, folderId: folder.id, name: "Milk").insertAndFetch(db, as: Item.self)
            for (column, code) in [("unit", "barrel"), ("kind", "rock"), ("status", "eaten"), ("due", "tomorrow")] {
                #expect(throws: DatabaseError.self, "\(column) \(code) was accepted") {
                    try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = ?", arguments: [code, milk.id])
                }
            }
        }
    }

    @Test func anItemRowWithAnUnknownCodeFailsToReadWithoutCrashing() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let home = try household(db, "Home")
            let folder = try Folder.Draft(householdId: home.id, name: "Fridge", kind: .stock).insertAndFetch(db, as: Folder.self)
            let milk = try Item.Draft(householdId: home.id, folderId: folder.id, name: "Milk", unit: .L, kind: .dairyEggs, status: .runningLow).insertAndFetch(
                db, as: Item.self)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [milk.id]))
            #expect(try Item(row: row) == milk)
            // What a newer version might have written, which the schema's CHECKs would refuse here.
            for (column, code) in [("unit", "barrel"), ("kind", "rock"), ("status", "eaten"), ("due", "tomorrow")] {
                var values: [String: (any DatabaseValueConvertible)?] = [:]
                for (name, value) in row { values[name] = value }
                values[column] = code
                #expect(throws: (any Error).self, "\(column) \(code) was read") { try Item(row: Row(values)) }
            }
        }
    }

    @Test func opensOnDiskWithWALFullSyncAndForeignKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(at: folder.appendingPathComponent("zaiko.sqlite"))
        let (journal, synchronous, foreignKeys) = try database.writer.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
            )
        }
        #expect(journal == "wal")
        #expect(synchronous == 2) // FULL
        #expect(foreignKeys == 1)
        // Commits happen on the writer connection: its own setting is the one that makes them durable
        // (GRDB's WAL set-up turns it to NORMAL after prepareDatabase ran).
        let writerSynchronous = try database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(writerSynchronous == 2) // FULL
        #expect(database.healthProblem() == nil)
        // Opening the same file again finds the schema already migrated.
        try database.writer.close()
        let reopened = try AppDatabase.open(at: folder.appendingPathComponent("zaiko.sqlite"))
        #expect(reopened.healthProblem() == nil)
    }

    @Test func refusesADamagedDatabaseInsteadOfRepairingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zaiko.sqlite")
        try Data(repeating: 0x5a, count: 8192).write(to: file)
        #expect {
            _ = try AppDatabase.open(at: file)
        } throws: { error in
            guard case InventoryError.corruptDatabase = error else { return false }
            return "\(error)".contains("damaged")
        }
    }

    @Test func listQueriesUseTheirIndexes() throws {
        let database = try AppDatabase.inMemory()
        let plans = try database.writer.read { db -> [String] in
            func plan(_ sql: String) throws -> String {
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: " | ")
            }
            return [
                try plan("SELECT * FROM item WHERE folder_id = 1 AND deleted_at IS NULL ORDER BY due IS NULL, due, name LIMIT 50"),
                try plan("SELECT * FROM item WHERE folder_id = 1 AND deleted_at IS NULL ORDER BY urgent DESC, name LIMIT 50"),
            ]
        }
        #expect(plans[0].contains("item_stock_order"), "\(plans[0])")
        #expect(!plans[0].contains("TEMP B-TREE"), "stock order sorts in memory: \(plans[0])")
        #expect(plans[1].contains("item_shopping_order"), "\(plans[1])")
        #expect(!plans[1].contains("TEMP B-TREE"), "shopping order sorts in memory: \(plans[1])")
    }
}

@Suite struct CryptoTests {
    @Test func hashesWithSHA256() {
        #expect(Crypto.hex(Crypto.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func makesDistinctURLSafeTokens() {
        let tokens = (0..<100).map { _ in Crypto.token() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }
}
