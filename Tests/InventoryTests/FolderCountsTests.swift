import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

@Suite("Folder item counts kept by triggers")
struct FolderCountsTests {
    func counts(_ fixture: Fixture) throws -> [String: (kept: Int, real: Int)] {
        try fixture.database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, item_count,
                           (SELECT COUNT(*) FROM item WHERE folder_id = folder.id AND deleted_at IS NULL) AS real
                    FROM folder
                    """
            ).reduce(into: [:]) { $0[$1["name"] as String] = ($1["item_count"], $1["real"]) }
        }
    }

    @Test func theKeptCountMatchesARealCountThroughEveryChange() throws {
        let fixture = try Fixture()
        let owner = try fixture.owner
        let items = Items(database: fixture.database, clock: fixture.clock.wall)
        let folders = try items.folders(in: owner.household)
        let fridge = folders[0].id!, pantry = folders[2].id!, shop = folders[3].id!
        func check(_ step: String) throws {
            for (name, count) in try counts(fixture) {
                #expect(count.kept == count.real, "\(step): \(name) kept \(count.kept), has \(count.real)")
            }
        }
        let drafts = (1...5).map { index -> ItemInput in
            var input = ItemInput()
            input.name = "Item \(index)"
            return input
        }
        let ids = try items.register(drafts, into: fridge, in: owner.household, by: owner.memberId, timeZone: .gmt)
        try check("register")
        #expect(try counts(fixture)["Fridge"]?.kept == 5)
        try items.move([ids[0], ids[1]], to: shop, in: owner.household, by: owner.memberId)
        try check("move")
        try items.markBought([ids[0]], into: pantry, in: owner.household, by: owner.memberId)
        try check("bought")
        try items.trash([ids[2], ids[3]], in: owner.household, by: owner.memberId)
        try check("trash")
        try items.restore([ids[2]], in: owner.household, by: owner.memberId)
        try check("restore")
        try items.purge([ids[3]], in: owner.household)
        try check("purge")
        try items.buyAgain(ids[4], onto: shop, in: owner.household, by: owner.memberId)
        try check("buy again")
        try Folders(database: fixture.database, clock: fixture.clock.wall).delete(pantry, in: owner.household, by: owner.memberId)
        try check("folder deleted")
        #expect(try counts(fixture)["Fridge"]?.kept == 2)
        #expect(try counts(fixture)["Supermarket"]?.kept == 2)
    }

    @Test func theFoldersPageCountsSeekTheirIndex() throws {
        let fixture = try Fixture()
        let plan = try fixture.database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT COUNT(*) FROM item i WHERE i.folder_id = 1 AND i.deleted_at IS NULL
                    AND i.due IS NOT NULL AND i.due BETWEEN '2026-11-22' AND '2026-11-25'
                    """
            ).map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plan.contains("item_due_by_folder"), "\(plan)")
        #expect(plan.contains("due>? AND due<?") || plan.contains("due>?"), "not a range seek: \(plan)")
    }
}
