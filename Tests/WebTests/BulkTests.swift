import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// The bulk bar's routes on a shopping list and on Use soon, and the Bought page.
@Suite struct BulkTests {
    let fixture: HouseholdFixture
    let household: HouseholdScope
    let ownerId: Int64
    let marketId: Int64

    init() async throws {
        fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        household = owner.household
        ownerId = owner.memberId
        marketId = try #require(try fixture.items.folders(in: household, kind: .shopping).first?.id)
    }

    func add(_ name: String, to folder: Int64, quantity: String = "1", due: String = "") throws -> Int64 {
        var input = ItemInput()
        input.name = name
        input.quantity = quantity
        input.due = due
        return try fixture.items.register([input], into: folder, in: household, by: ownerId, timeZone: .gmt)[0]
    }

    @Test func boughtOnAShoppingListOpensOnePageWithQuantityAndDueDate() throws {
        let butter = try add("Butter", to: marketId, quantity: "0")
        let tofu = try add("Tofu", to: marketId, quantity: "2")
        let start = try fixture.send(
            "POST", "/folders/\(marketId)/bulk", as: fixture.member,
            form: [("action", "bought"), ("ids", "\(butter)"), ("ids", "\(tofu)"), ("stock", "\(fixture.fridgeId)"), ("return", "/folders/\(marketId)")])
        #expect(start.status == 303)
        let location = try #require(start.header("Location"))
        #expect(location == "/folders/\(marketId)/bought?ids=\(butter)&ids=\(tofu)&stock=\(fixture.fridgeId)&return=/folders/\(marketId)")
        // Nothing is bought until the page is confirmed.
        #expect(try fixture.items.item(butter, in: household).folderId == marketId)

        let page = try fixture.send("GET", location, as: fixture.member)
        #expect(page.status == 200)
        // Something at 0 asks for one; every line has its own due date field.
        #expect(page.text.contains("name=\"quantity_\(butter)\" type=\"text\" value=\"1\""))
        #expect(page.text.contains("name=\"quantity_\(tofu)\" type=\"text\" value=\"2\""))
        #expect(page.text.contains("id=\"f-due_\(butter)\" name=\"due_\(butter)\" type=\"date\""))
        #expect(page.text.contains("<option value=\"\(fixture.fridgeId)\" selected>"))
    }

    @Test func aBadDateComesBackBesideItsFieldWithEverythingTypedKept() throws {
        let butter = try add("Butter", to: marketId)
        let tofu = try add("Tofu", to: marketId)
        let form: [(String, String)] = [
            ("action", "save"), ("ids", "\(butter)"), ("ids", "\(tofu)"), ("stock", "\(fixture.fridgeId)"), ("return", "/folders/\(marketId)"),
            ("quantity_\(butter)", "3"), ("due_\(butter)", "2026-12-24"), ("quantity_\(tofu)", "1"), ("due_\(tofu)", "2026-13-01"),
        ]
        let failed = try fixture.send("POST", "/folders/\(marketId)/bought", as: fixture.member, form: form)
        #expect(failed.status == 422)
        #expect(failed.text.contains("id=\"f-due_\(tofu)-error\""))
        #expect(!failed.text.contains("id=\"f-due_\(butter)-error\""))
        #expect(failed.text.contains("value=\"2026-13-01\""))
        #expect(failed.text.contains("name=\"quantity_\(butter)\" type=\"text\" value=\"3\""))
        #expect(failed.text.contains("value=\"2026-12-24\""))
        #expect(try fixture.items.item(butter, in: household).folderId == marketId)

        var fixed = form
        fixed[fixed.count - 1] = ("due_\(tofu)", "2026-12-01")
        let saved = try fixture.send("POST", "/folders/\(marketId)/bought", as: fixture.member, form: fixed)
        #expect(saved.status == 303 && saved.header("Location") == "/folders/\(marketId)?bought=2")
        let bought = try fixture.items.item(butter, in: household)
        #expect(bought.folderId == fixture.fridgeId && bought.quantity == 3 && bought.due == "2026-12-24")
    }

    @Test func theBoughtPageOffersToAddToARowOfTheSameNameAndJoinsOnlyWhenAsked() throws {
        // The fixture's fridge holds "Milk" (a piece).
        let milk = try add("milk", to: marketId, quantity: "2")
        let path = "/folders/\(marketId)/bought?ids=\(milk)&stock=\(fixture.fridgeId)"
        let page = try fixture.send("GET", path, as: fixture.member).text
        #expect(page.contains("name=\"join_\(milk)\" value=\"add\" checked"))
        #expect(page.contains("Add to the Milk already there (1 "))
        let saved = try fixture.send(
            "POST", "/folders/\(marketId)/bought", as: fixture.member,
            form: [("action", "save"), ("ids", "\(milk)"), ("stock", "\(fixture.fridgeId)"), ("quantity_\(milk)", "2"), ("join_\(milk)", "add")])
        #expect(saved.status == 303)
        #expect(try fixture.items.item(fixture.itemId, in: household).quantity == 3)
        #expect(throws: InventoryError.notFound) { try fixture.items.item(milk, in: household) }
    }

    @Test func anotherStockListWithoutJavaScriptRedrawsThePageAsTyped() throws {
        let milk = try add("Milk", to: marketId)
        let pantry = try #require(try fixture.items.folders(in: household, kind: .stock).first { $0.id != fixture.fridgeId }?.id)
        let form: [(String, String)] = [
            ("action", "refresh"), ("ids", "\(milk)"), ("stock", "\(pantry)"), ("quantity_\(milk)", "4"), ("due_\(milk)", "2026-12-31"),
        ]
        let redrawn = try fixture.send("POST", "/folders/\(marketId)/bought", as: fixture.member, form: form)
        #expect(redrawn.status == 200)
        #expect(redrawn.text.contains("<option value=\"\(pantry)\" selected>"))
        #expect(redrawn.text.contains("name=\"quantity_\(milk)\" type=\"text\" value=\"4\""))
        #expect(redrawn.text.contains("value=\"2026-12-31\""))
        // The pantry has no milk to add to; the fridge has.
        #expect(!redrawn.text.contains("name=\"join_\(milk)\""))
        #expect(try fixture.items.item(milk, in: household).folderId == marketId)
    }

    @Test func theBoughtPageRefusesItemsOfOtherListsAndViewers() throws {
        // A stock item is not on the shopping list: not found, and nothing moves.
        let page = try fixture.send("GET", "/folders/\(marketId)/bought?ids=\(fixture.itemId)", as: fixture.member)
        #expect(page.status == 404)
        let butter = try add("Butter", to: marketId)
        let viewer = try fixture.send(
            "POST", "/folders/\(marketId)/bought", as: fixture.viewer, form: [("action", "save"), ("ids", "\(butter)"), ("stock", "\(fixture.fridgeId)")])
        #expect(viewer.status == 403)
        let foreign = try fixture.send("GET", "/folders/\(marketId)/bought?ids=\(butter)", as: fixture.otherOwner)
        #expect(foreign.status == 404)
    }

    @Test func useSoonHasCheckboxesAndABulkBarThatDeletesAndBuysAgain() throws {
        let old = try add("Old yogurt", to: fixture.fridgeId, quantity: "0", due: "2020-01-01")
        let older = try add("Old tofu", to: fixture.fridgeId, due: "2020-01-02")
        let html = try fixture.send("GET", "/soon", as: fixture.member).text
        #expect(html.contains("<form method=\"post\" action=\"/soon/bulk\""))
        #expect(html.contains("name=\"ids\" value=\"\(old)\""))
        #expect(html.contains("value=\"buy_again\""))
        #expect(html.contains("data-select-group"))
        // Viewers get neither.
        #expect(!(try fixture.send("GET", "/soon", as: fixture.viewer).text.contains("bulk-bar")))

        let copied = try fixture.send(
            "POST", "/soon/bulk", as: fixture.member, form: [("action", "buy_again"), ("ids", "\(old)"), ("shopping", "\(marketId)"), ("return", "/soon")])
        #expect(copied.status == 303 && copied.header("Location") == "/soon?copied=\(marketId)&copies=1")
        #expect(try fixture.send("GET", "/soon?copied=\(marketId)&copies=1", as: fixture.member).text.contains("Put 1 item on Supermarket."))
        let copy = try #require(try fixture.items.page(of: fixture.items.folder(marketId, in: household), filter: ListFilter(), page: 1).items.first)
        #expect(copy.name == "Old yogurt" && copy.quantity == 1)

        let deleted = try fixture.send(
            "POST", "/soon/bulk", as: fixture.member, form: [("action", "delete"), ("ids", "\(old)"), ("ids", "\(older)"), ("return", "/soon")])
        #expect(deleted.status == 303 && deleted.header("Location") == "/soon?deleted=\(old),\(older)")
        // One foreign id: nothing happens.
        let mixed = try fixture.send("POST", "/soon/bulk", as: fixture.member, form: [("action", "delete"), ("ids", "\(fixture.itemId)"), ("ids", "999999")])
        #expect(mixed.status == 404)
        #expect(try fixture.items.item(fixture.itemId, in: household).deletedAt == nil)
    }
}
