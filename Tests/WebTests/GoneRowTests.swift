import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// A quick action on a row whose item someone else deleted or moved meanwhile is answered in
/// place, never with a "not found" page: who deleted it, with Undo, or where it went.
@Suite struct GoneRowTests {
    @Test func aStepOnAnItemAnotherMemberDeletedSaysWhoWithUndo() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        #expect(try fixture.send("POST", "/items/\(id)/delete", as: fixture.member, form: [("return", list)]).status == 303)

        let scripted = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.owner, form: [("delta", "1"), ("return", list), ("fragment", "1")])
        #expect(scripted.status == 200)
        #expect(scripted.header("X-Zaiko-Fragment") == "row")
        #expect(scripted.text.contains("Ken deleted “Milk”."))
        #expect(scripted.text.contains("value=\"\(id)\""), "Undo restores it")
        #expect(!scripted.text.contains("<li class=\"item-row"))

        let plain = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.owner, form: [("delta", "1"), ("return", list)])
        #expect(plain.status == 303)
        #expect(plain.header("Location") == "\(list)?deleted=\(id)")
        let household = try #require(try fixture.accounts.session(token: fixture.owner)).household
        #expect(try fixture.items.whereabouts(of: id, in: household) == .inTrash(name: "Milk", by: "Ken"), "still in the trash")
    }

    @Test func anItemDeletedForGoodAndAnotherHouseholdsItemAreAlike() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        try fixture.items.trash([id], in: owner.household, by: owner.memberId)
        try fixture.items.purge([id], in: owner.household)
        let gone = try fixture.send("POST", "/items/\(id)/opened", as: fixture.member, form: [("return", list), ("fragment", "1")])
        #expect(gone.status == 200)
        #expect(gone.text.contains("This item was deleted for good."))
        // Another household's item answers as any id that never existed: not found.
        let foreign = try fixture.send("POST", "/items/\(fixture.itemId)/opened", as: fixture.otherOwner, form: [("return", "/"), ("fragment", "1")])
        #expect(foreign.status == 404)
        #expect(!foreign.text.contains("Milk"))
        #expect(try fixture.send("POST", "/items/999999/opened", as: fixture.member, form: [("return", list), ("fragment", "1")]).status == 404)
    }

    @Test func aStepOnAnItemMovedToAnotherListSaysWhere() async throws {
        let fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let freezer = try Folders(database: fixture.app.database).create(name: "Freezer", kind: .stock, icon: "box", in: owner.household)
        try fixture.items.move([id], to: freezer, in: owner.household, by: owner.memberId)
        let moved = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.member, form: [("delta", "1"), ("return", list), ("fragment", "1")])
        #expect(moved.status == 200)
        #expect(moved.text.contains("“Milk” is now in Freezer."))
        #expect(!moved.text.contains("<li class=\"item-row"))
    }
}
