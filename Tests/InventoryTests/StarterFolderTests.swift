import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A starter folder remembers which one it is until someone renames it, so each member can read
/// its name in their own language; a rename is the household's choice for everyone.
@Suite("Starter folders")
struct StarterFolderTests {
    @Test func aNewHouseholdsStarterFoldersKnowWhichTheyAre() throws {
        let home = try Fixture(folderNames: ["starter_fridge": "冷蔵庫"])
        let folders = try home.items.folders(in: home.household)
        #expect(folders.map(\.starter) == ["starter_fridge", "starter_freezer", "starter_pantry", "starter_supermarket"])
        #expect(folders[0].name == "冷蔵庫")
        let made = try Folders(database: home.database).create(name: "Garage", kind: .stock, icon: "garage", in: home.household)
        #expect(try home.items.folder(made, in: home.household).starter == nil)
        let overview = try Folders(database: home.database).overview(in: home.household)
        #expect(overview.map(\.starter) == ["starter_fridge", "starter_freezer", "starter_pantry", "starter_supermarket", nil])
    }

    @Test func renamingEndsTheStarterNameForEveryone() throws {
        let home = try Fixture()
        let folders = Folders(database: home.database)
        let fridge = try home.firstFolder(.stock)
        try folders.update(fridge, name: "Kitchen fridge", icon: "fridge", in: home.household, shownName: "冷蔵庫")
        let renamed = try home.items.folder(fridge, in: home.household)
        #expect(renamed.name == "Kitchen fridge")
        #expect(renamed.starter == nil)
    }

    /// A Japanese member changes only the icon of the starter Fridge: the form showed 冷蔵庫 and
    /// sent it back. That is no rename, and the stored "Fridge" is not replaced by 冷蔵庫.
    @Test func sendingBackTheShownNameChangesOnlyTheIcon() throws {
        let home = try Fixture()
        let folders = Folders(database: home.database)
        let fridge = try home.firstFolder(.stock)
        try folders.update(fridge, name: " 冷蔵庫 ", icon: "milk", in: home.household, shownName: "冷蔵庫")
        let kept = try home.items.folder(fridge, in: home.household)
        #expect(kept.name == "Fridge")
        #expect(kept.starter == "starter_fridge")
        #expect(kept.icon == "milk")
    }

    @Test func itemsGatheredFromSeveralFoldersCarryTheStarterKey() throws {
        let home = try Fixture(clock: ManualClock(utc("2026-11-22T12:00:00Z")))
        let owner = try home.owner
        let fridge = try home.firstFolder(.stock)
        var input = ItemInput()
        input.name = "Milk"
        input.due = "2026-11-22"
        let id = try home.items.register([input], into: fridge, in: home.household, by: owner.memberId, timeZone: .gmt)[0]
        let window = DueWindow(today: try #require(CalendarDay("2026-11-22")), soonDays: 3)
        let soon = try home.items.useSoon(in: home.household, window: window, page: 1)
        #expect(soon.today.map(\.folderStarter) == ["starter_fridge"])
        try home.items.trash([id], in: home.household, by: owner.memberId)
        #expect(try home.items.trashEntries(in: home.household).map(\.folderStarter) == ["starter_fridge"])
    }

    /// Households made before v8: folders still named as the starter was made, in English or
    /// Japanese, with its icon and kind, become starters again; renamed ones stay as they are.
    @Test func upgradingFindsTheStarterFoldersOfEarlierHouseholds() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: "v7 health check")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO household (id, name, created_at) VALUES (1, 'Old', '2026-01-01T00:00:00Z')")
            let folders: [(String, String, String)] = [
                ("冷蔵庫", "stock", "fridge"), ("Freezer", "stock", "freezer"), ("Kitchen pantry", "stock", "pantry"),
                ("スーパー", "shopping", "cart"), ("Fridge", "stock", "box"),
            ]
            for (position, (name, kind, icon)) in folders.enumerated() {
                try db.execute(
                    sql: "INSERT INTO folder (household_id, name, kind, icon, position, created_at) VALUES (1, ?, ?, ?, ?, '2026-01-01T00:00:00Z')",
                    arguments: [name, kind, icon, position])
            }
        }
        let upgraded = try AppDatabase(queue)
        let starters = try upgraded.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, starter FROM folder ORDER BY position").map { "\($0["name"] as String)=\($0["starter"] as String? ?? "-")" }
        }
        #expect(starters == ["冷蔵庫=starter_fridge", "Freezer=starter_freezer", "Kitchen pantry=-", "スーパー=starter_supermarket", "Fridge=-"])
    }
}
