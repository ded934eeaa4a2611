import Backups
import Foundation
import GRDB
import Inventory
import TestSupport
import Testing

/// The stand-in archive until the full one is merged: a VACUUM INTO snapshot of the live file.
@Suite("Database snapshot")
struct DatabaseSnapshotTests {
    @Test func aSnapshotTakenWhileAnotherThreadWritesIsWholeAndHoldsWhatWasCommitted() async throws {
        let folder = try TemporaryFolder("zaiko-snapshot")
        defer { folder.remove() }
        let home = try Fixture(database: try AppDatabase.open(at: folder.databaseURL))
        let fridge = try home.firstFolder(.stock)
        let owner = try home.owner
        var milk = ItemInput()
        milk.name = "Milk"
        _ = try home.items.register([milk], in: fridge, householdId: home.householdId, by: owner.memberId, timeZone: .gmt)

        // Writers keep registering items on their own thread while the snapshot is taken.
        let items = home.items
        let household = home.householdId
        let writer = Thread {
            var egg = ItemInput()
            egg.name = "Egg"
            for _ in 0..<200 { _ = try? items.register([egg], in: fridge, householdId: household, by: owner.memberId, timeZone: .gmt) }
        }
        writer.start()
        let snapshot = folder.appending("snapshot.sqlite")
        let database = home.database
        try await offThePool { try DatabaseSnapshot.write(database, to: snapshot) }

        let copy = try DatabaseQueue(path: snapshot.path)
        try await copy.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM item WHERE name = 'Milk'") == "Milk")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM backup_status") == 1)
            // Every item in the snapshot came with the rest of its transaction: its history event.
            let orphans = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM item WHERE NOT EXISTS (SELECT 1 FROM item_event WHERE item_event.item_id = item.id)")
            #expect(orphans == 0)
        }
        try copy.close()
    }
}
