import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// Quick actions on a list row come back to the row (`#item-N`, the notice above it), or answer
/// with the row itself when a script asks (`fragment=1`): the same markup as the list page.
@Suite struct RowActionsTests {
    @Test func aStepComesBackToTheRowWithItsNoticeAboveIt() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let step = try fixture.send("POST", "/items/\(id)/quantity", as: fixture.member, form: [("delta", "1"), ("return", list)])
        #expect(step.status == 303)
        #expect(step.header("Location") == "\(list)?at=\(id)&changed=\(id)#item-\(id)")
        let page = try fixture.send("GET", "\(list)?at=\(id)&changed=\(id)", as: fixture.member).text
        let notice = try #require(page.range(of: "<li class=\"row-notice\">"))
        let row = try #require(page.range(of: "id=\"item-\(id)\""))
        #expect(notice.lowerBound < row.lowerBound)
        #expect(page[notice.upperBound..<row.lowerBound].contains("Milk: now 2 pieces."))
        // Said once, beside the row, not again at the top.
        #expect(page.components(separatedBy: "Milk: now 2").count == 2)
    }

    @Test func aScriptGetsTheRowTheListPageRenders() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let response = try fixture.send(
            "POST", "/items/\(id)/quantity", as: fixture.member, form: [("delta", "1"), ("return", list), ("fragment", "1"), ("selectable", "1")])
        #expect(response.status == 200)
        #expect(response.header("X-Zaiko-Fragment") == "row")
        let fragment = response.text
        #expect(fragment.hasPrefix("<li class=\"row-notice\">"))
        #expect(fragment.contains("Milk: now 2 pieces."))
        // The row is byte for byte the one in the list page that follows.
        let page = try fixture.send("GET", list, as: fixture.member).text
        let start = try #require(fragment.range(of: "<li class=\"item-row"))
        let row = String(fragment[start.lowerBound...])
        #expect(page.contains(row))
        #expect(!page.contains("row-notice"))
    }

    @Test func deleteComesBackToTheNeighbourAndUndoToTheRow() async throws {
        let fixture = try await HouseholdFixture()
        let id = fixture.itemId, list = "/folders/\(fixture.fridgeId)"
        let deleted = try fixture.send("POST", "/items/\(id)/delete", as: fixture.member, form: [("next", "77"), ("return", list)])
        #expect(deleted.header("Location") == "\(list)?at=77&deleted=\(id)#item-77")
        // Undo beside the row restores only that item, even with other rows ticked.
        let undone = try fixture.send("POST", "/trash/restore", as: fixture.member, form: [("undo", "\(id)"), ("ids", "999"), ("return", list)])
        #expect(undone.header("Location") == "\(list)?at=\(id)&restored=1#item-\(id)")
        let page = try fixture.send("GET", "\(list)?at=\(id)&restored=1", as: fixture.member).text
        #expect(page.contains("Restored 1 item."))
        #expect(page.contains("id=\"item-\(id)\""))

        let script = try fixture.send("POST", "/items/\(id)/delete", as: fixture.member, form: [("return", list), ("fragment", "1")])
        #expect(script.header("X-Zaiko-Fragment") == "row")
        #expect(script.text.contains("Deleted “Milk”."))
        #expect(script.text.contains("formaction=\"/trash/restore\" name=\"undo\" value=\"\(id)\""))
        #expect(!script.text.contains("item-row"))
    }

    @Test func rowsAreCompactWithTheRareActionsInAMenu() async throws {
        let fixture = try await HouseholdFixture()
        let page = try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.member).text
        let menu = try #require(page.range(of: "<details class=\"row-menu\">"))
        let opened = try #require(page.range(of: "formaction=\"/items/\(fixture.itemId)/opened\""))
        let step = try #require(page.range(of: "formaction=\"/items/\(fixture.itemId)/quantity\""))
        #expect(step.lowerBound < menu.lowerBound && menu.lowerBound < opened.lowerBound)
        #expect(page.contains("<input class=\"row-check\" type=\"checkbox\" name=\"ids\""))
    }

    /// A shopping row's menu marks it urgent (and back) in one tap; a stock row has no such button.
    @Test func aShoppingRowIsMarkedUrgentFromItsMenu() async throws {
        let fixture = try await HouseholdFixture()
        let household = try #require(try fixture.accounts.session(token: fixture.member)).household
        let memberId = try #require(try fixture.accounts.session(token: fixture.member)).memberId
        let market = try #require(try fixture.items.folders(in: household, kind: .shopping).first?.id)
        var eggs = ItemInput()
        eggs.name = "Eggs"
        let id = try fixture.items.register([eggs], into: market, in: household, by: memberId, timeZone: .gmt)[0]
        let list = "/folders/\(market)"

        let before = try fixture.send("GET", list, as: fixture.member).text
        #expect(before.contains("formaction=\"/items/\(id)/urgent\" name=\"urgent\" value=\"1\">Mark urgent"))
        let stock = try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.member).text
        #expect(!stock.contains("/urgent\""))

        // Without JavaScript: a post that comes back to the row with its notice.
        let marked = try fixture.send("POST", "/items/\(id)/urgent", as: fixture.member, form: [("urgent", "1"), ("return", list)])
        #expect(marked.status == 303)
        #expect(marked.header("Location") == "\(list)?at=\(id)&urgent=1#item-\(id)")
        #expect(try fixture.items.item(id, in: household).urgent)
        let page = try fixture.send("GET", "\(list)?at=\(id)&urgent=1", as: fixture.member).text
        #expect(page.contains("Eggs is marked urgent."))
        #expect(page.contains("name=\"urgent\" value=\"0\">Not urgent"))

        // With JavaScript: the row itself, now not urgent, in the reader's language.
        let script = try fixture.send(
            "POST", "/items/\(id)/urgent", as: fixture.member, form: [("urgent", "0"), ("return", list), ("fragment", "1")],
            headers: [("Accept-Language", "ja")])
        #expect(script.header("X-Zaiko-Fragment") == "row")
        #expect(script.text.contains("Eggsの急ぎを外しました。"))
        #expect(script.text.contains("value=\"1\">急ぎにする"))
        #expect(try !fixture.items.item(id, in: household).urgent)
    }

    @Test func aStockItemCannotBeMarkedUrgent() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("POST", "/items/\(fixture.itemId)/urgent", as: fixture.member, form: [("urgent", "1")])
        #expect(response.status == 404)
    }
}
