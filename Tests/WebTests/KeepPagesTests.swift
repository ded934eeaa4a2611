import Foundation
import GRDB
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// Keep rules over HTTP: set on the item's page, the refill on the keep list at once, the folders
/// page's "below minimum", a refused amount beside its field with what was typed, stopping, the
/// owner's keeping settings, and another household kept out.
@Suite("Keep pages")
struct KeepPagesTests {
    let fixture: HouseholdFixture
    let home: SignedIn

    init() async throws {
        fixture = try await HouseholdFixture()
        home = try #require(try fixture.accounts.session(token: fixture.owner))
    }

    var shoppingList: Folder.ID { get throws { try #require(try fixture.items.folders(in: home.household, kind: .shopping).first?.id) } }

    /// The shopping rows called Milk, as "quantity unit".
    func milkOnTheList() throws -> [String] {
        try fixture.items.page(of: try fixture.items.folder(try shoppingList, in: home.household), filter: ListFilter(), page: 1).items
            .filter { $0.name == "Milk" }.map { "\(Quantity.text($0.quantity)) \($0.unit.rawValue)" }
    }

    @Test func aRuleSetOnTheItemsPagePutsTheRefillOnTheListAndTheFoldersPageSaysSo() throws {
        let page = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member).text
        #expect(page.contains("<details class=\"card keep-card\" id=\"keep\">"), "closed while nothing is kept")
        let saved = try fixture.send(
            "POST", "/items/\(fixture.itemId)/keep", as: fixture.member, form: [("keep_minimum", "2"), ("keep_refill_to", "4"), ("keep_pack", "")])
        #expect(saved.status == 303 && saved.header("Location") == "/items/\(fixture.itemId)?saved=keep#keep")
        #expect(try milkOnTheList() == ["3 piece"], "1 in the fridge, refilled up to 4")

        let after = try fixture.send("GET", "/items/\(fixture.itemId)?saved=keep", as: fixture.member).text
        #expect(after.contains("Saved. Zaiko keeps this in stock."))
        #expect(after.contains("<details class=\"card keep-card\" id=\"keep\" open>"))
        #expect(after.contains("1 piece in stock: under the minimum of 2 pieces."))
        #expect(after.contains("value=\"4\""))
        let folders = try fixture.send("GET", "/", as: fixture.member).text
        #expect(folders.contains("<span class=\"tag tag-soon\">1 below minimum</span>"))

        // Used up: the question says the refill is on the list, and offers no second row of it.
        _ = try fixture.send("POST", "/items/\(fixture.itemId)/quantity", as: fixture.member, form: [("delta", "-1")])
        let empty = try fixture.send("GET", "/items/\(fixture.itemId)/empty", as: fixture.member).text
        #expect(empty.contains("It is kept in stock: 4 pieces to refill it are on the shopping list already."))
        #expect(!empty.contains("action=move") && !empty.contains("value=\"move\""))

        let stopped = try fixture.send("POST", "/items/\(fixture.itemId)/keep/stop", as: fixture.member)
        #expect(stopped.status == 303)
        #expect(try milkOnTheList() == [])
        #expect(!(try fixture.send("GET", "/", as: fixture.member).text.contains("below minimum")))
    }

    @Test func aRefusedAmountComesBackBesideItsFieldWithWhatWasTyped() throws {
        let refused = try fixture.send(
            "POST", "/items/\(fixture.itemId)/keep", as: fixture.member, form: [("keep_minimum", "lots"), ("keep_refill_to", "9"), ("keep_pack", "0")])
        #expect(refused.status == 422)
        let html = refused.text
        #expect(html.contains("<details class=\"card keep-card\" id=\"keep\" open>"))
        #expect(html.contains("value=\"lots\"") && html.contains("value=\"9\"") && html.contains("value=\"0\""))
        #expect(html.contains("id=\"f-keep_minimum-error\"") && html.contains("Enter an amount above 0, like 2 or 0.5."))
        #expect(html.contains("id=\"f-keep_pack-error\""))
        #expect(try KeepRules(database: fixture.app.database).all(in: home.household) == [])
        #expect(try milkOnTheList() == [])
    }

    @Test func anotherHouseholdCannotKeepOurItemsNorAViewerAny() throws {
        let foreign = try fixture.send("POST", "/items/\(fixture.itemId)/keep", as: fixture.otherOwner, form: [("keep_minimum", "5")])
        #expect(foreign.status == 404)
        let viewer = try fixture.send("POST", "/items/\(fixture.itemId)/keep", as: fixture.viewer, form: [("keep_minimum", "5")])
        #expect(viewer.status == 403)
        #expect(!(try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.viewer).text.contains("keep-card")))
        #expect(try KeepRules(database: fixture.app.database).all(in: home.household) == [])
    }

    @Test func theOwnerChoosesWhereRefillsGoAndWhetherExpiredItemsCount() throws {
        let settings = try fixture.send("GET", "/settings", as: fixture.owner).text
        #expect(settings.contains("id=\"keeping\""))
        let wrong = try fixture.send("POST", "/settings/keep", as: fixture.owner, form: [("keep_folder", "\(fixture.fridgeId)")])
        #expect(wrong.status == 303 && wrong.header("Location") == "/settings?keep_error=1#keeping")
        #expect(try fixture.send("GET", "/settings?keep_error=1", as: fixture.owner).text.contains("id=\"keep-error\" role=\"alert\""))
        let saved = try fixture.send(
            "POST", "/settings/keep", as: fixture.owner, form: [("keep_folder", "\(try shoppingList)"), ("keep_counts_expired", "1")])
        #expect(saved.status == 303 && saved.header("Location") == "/settings?saved=keep#keeping")
        #expect(try KeepRules(database: fixture.app.database).settings(in: home.household) == KeepSettings(folderId: try shoppingList, countsExpired: true))
        let foreign = try fixture.send("POST", "/settings/keep", as: fixture.otherOwner, form: [("keep_folder", "\(try shoppingList)")])
        #expect(foreign.status == 404, "another household's list is not found, never chosen")
        #expect(try KeepRules(database: fixture.app.database).settings(in: home.household).countsExpired)
    }
}
