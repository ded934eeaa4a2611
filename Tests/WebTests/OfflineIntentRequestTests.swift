import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// What a phone sends when it is back online, over HTTP as app.js sends it (`intent`, `seen`,
/// `fragment=1`): an intent sent twice changes the item once and the second answer says it was
/// saved already; a stale step is a clash with a button for what the person meant; an addition
/// joins the row of that name; a basket tap on something bought meanwhile says where it went.
@Suite struct OfflineIntentRequestTests {
    func shopping(_ fixture: HouseholdFixture) throws -> (list: Folder.ID, household: HouseholdScope, owner: Member.ID) {
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        let list = try #require(try fixture.items.folders(in: owner.household, kind: .shopping).first?.id)
        return (list, owner.household, owner.memberId)
    }

    @Test func aStepSentTwiceIsAppliedOnceAndTheSecondAnswerSaysSo() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let step: [(String, String)] = [("delta", "1"), ("seen", "1"), ("intent", "0f8fad5b-d9cb-469f-a165-70867728950e"), ("return", list), ("fragment", "1")]
        let first = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.owner, form: step)
        #expect(first.status == 200 && first.header("X-Zaiko-Fragment") == "row")
        #expect(first.text.contains("Milk: now 2"))
        #expect(first.text.contains("formaction=\"/items/\(id)/quantity\" name=\"delta\" value=\"-1\">Undo</button>"), "Undo in the list of what was sent")
        let again = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.owner, form: step)
        #expect(again.status == 200 && again.text.contains("Milk: saved already."))
        let household = try #require(try fixture.accounts.session(token: fixture.owner)).household
        #expect(try fixture.items.item(id, in: household).quantity == 2)
    }

    @Test func aStepOnAQuantityChangedMeanwhileOffersWhatThePersonMeant() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        // The phone saw 1 and tapped +; meanwhile Ken made it 4.
        #expect(try fixture.send("POST", "/items/\(id)/quantity", as: fixture.member, form: [("delta", "3"), ("return", list)]).status == 303)
        let stale = try fixture.send(
            "POST", "/items/\(id)/quantity", as: fixture.owner,
            form: [("delta", "1"), ("seen", "1"), ("intent", "stale-step-1"), ("return", list), ("fragment", "1")])
        #expect(stale.status == 200)
        #expect(stale.text.contains("Milk is 4 pieces now: it changed while you were offline. Your change would make it 2 pieces."))
        #expect(stale.text.contains("name=\"delta\" value=\"-2\">Make it 2 pieces</button>"))
        let household = try #require(try fixture.accounts.session(token: fixture.owner)).household
        #expect(try fixture.items.item(id, in: household).quantity == 4, "nothing written until the person decides")
        // Hand-made values are refused, not stored.
        let infinite = try fixture.send(
            "POST", "/items/\(id)/quantity", as: fixture.owner, form: [("delta", "1"), ("seen", "inf"), ("intent", "stale-step-2"), ("fragment", "1")])
        #expect(infinite.status == 200 && infinite.text.contains("it changed while you were offline"))
        #expect(try fixture.items.item(id, in: household).quantity == 4)
    }

    @Test func anAdditionByNameJoinsTheRowOfThatNameOnceHoweverOftenItIsSent() async throws {
        let fixture = try await HouseholdFixture()
        let (list, household, _) = try shopping(fixture)
        let add: [(String, String)] = [("name", "Tofu"), ("intent", "add-tofu-0001"), ("return", "/folders/\(list)"), ("fragment", "1")]
        let first = try fixture.send("POST", "/folders/\(list)/add", as: fixture.owner, form: add)
        #expect(first.status == 200 && first.text.contains("“Tofu” is on the list."))
        #expect(first.text.contains("<li class=\"item-row"))
        let again = try fixture.send("POST", "/folders/\(list)/add", as: fixture.owner, form: add)
        #expect(again.text.contains("Tofu: saved already."))
        let other = try fixture.send("POST", "/folders/\(list)/add", as: fixture.member, form: [("name", "tofu"), ("return", "/folders/\(list)")])
        #expect(other.status == 303)
        #expect(other.header("Location")?.contains("listed=joined") == true)
        let page = try fixture.items.page(of: try fixture.items.folder(list, in: household), filter: ListFilter(), page: 1)
        #expect(page.items.filter { $0.name.lowercased() == "tofu" }.count == 1)
        // A name that is missing shows the list again with the message beside the field.
        let empty = try fixture.send("POST", "/folders/\(list)/add", as: fixture.owner, form: [("name", "  ")])
        #expect(empty.status == 422)
        #expect(empty.text.contains("id=\"list-add-error\""))
        // A stock list has no "Add to the list".
        #expect(try fixture.send("POST", "/folders/\(fixture.fridgeId)/add", as: fixture.owner, form: [("name", "Tofu")]).status == 404)
    }

    @Test func aBasketTapOnSomethingBoughtMeanwhileSaysWhereItWent() async throws {
        let fixture = try await HouseholdFixture()
        let (list, household, owner) = try shopping(fixture)
        var input = ItemInput()
        input.name = "Bread"
        let bread = try fixture.items.register([input], into: list, in: household, by: owner, timeZone: .gmt)[0]
        try fixture.items.markBought([bread], into: fixture.fridgeId, in: household, by: owner)
        let tap = try fixture.send(
            "POST", "/items/\(bread)/basket", as: fixture.member,
            form: [("in_basket", "1"), ("intent", "tick-bread-1"), ("return", "/folders/\(list)"), ("fragment", "1")])
        #expect(tap.status == 200)
        #expect(tap.text.contains("“Bread” is now in"))
        #expect(!tap.text.contains("<li class=\"item-row"))
    }

    @Test func aRowBoughtOfflineGoesIntoTheStockListOnceAndJoinsItsNamesake() async throws {
        let fixture = try await HouseholdFixture()
        let (list, household, owner) = try shopping(fixture)
        var input = ItemInput()
        input.name = "Milk"
        let milk = try fixture.items.register([input], into: list, in: household, by: owner, timeZone: .gmt)[0]
        let bought: [(String, String)] = [
            ("action", "save"), ("stock", "\(fixture.fridgeId)"), ("ids", "\(milk)"), ("quantity_\(milk)", "2"), ("join_\(milk)", "add"),
            ("name", "Milk"), ("intent", "bought-milk-1"), ("return", "/folders/\(list)"), ("fragment", "1"),
        ]
        let first = try fixture.send("POST", "/folders/\(list)/bought", as: fixture.owner, form: bought)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.text.contains("“Milk” is now in"))
        #expect(try fixture.items.item(fixture.itemId, in: household).quantity == 3, "joined the Milk in the fridge (1 + 2)")
        let again = try fixture.send("POST", "/folders/\(list)/bought", as: fixture.owner, form: bought)
        #expect(again.status == 200 && again.text.contains("Milk: saved already."))
        #expect(try fixture.items.item(fixture.itemId, in: household).quantity == 3)
    }

    @Test func aStepOnAnItemDeletedMeanwhileIsReportedWithRestore() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        #expect(try fixture.send("POST", "/items/\(id)/delete", as: fixture.member, form: [("return", list)]).status == 303)
        let step = try fixture.send(
            "POST", "/items/\(id)/quantity", as: fixture.owner,
            form: [("delta", "1"), ("seen", "1"), ("intent", "step-on-deleted"), ("return", list), ("fragment", "1")])
        #expect(step.status == 200)
        #expect(step.text.contains("Ken deleted “Milk”."))
        #expect(step.text.contains("formaction=\"/trash/restore\" name=\"undo\" value=\"\(id)\">Restore</button>"))
    }
}
