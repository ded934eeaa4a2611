import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// Every inventory form's failure path: 422, the message beside the field, what was typed kept,
/// nothing stored.
@Suite("Inventory forms keep what was typed")
struct InventoryFormTests {
    func itemCount(_ fixture: HouseholdFixture) throws -> Int {
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        return try fixture.items.page(of: try fixture.items.folder(fixture.fridgeId, householdId: owner.householdId), filter: ListFilter(), page: 1).total
    }

    @Test func aBatchWithANamelessDraftSavesNothingAndKeepsEveryDraft() async throws {
        let fixture = try await HouseholdFixture()
        let before = try itemCount(fixture)
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("action", "save"),
                ("d0.name", "Yogurt"), ("d0.quantity", "2"), ("d0.due", "2026-12-01"),
                ("d1.name", ""), ("d1.note", "the big one <b>"),
                ("d2.name", "Tofu"), ("d2.quantity", "1,5"),
            ])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-d1.name-error\""))
        #expect(response.text.contains("Enter a name for this item."))
        // The summary leads to the draft that needs the change.
        #expect(response.text.contains("<a href=\"#draft-1\">Show me</a>"))
        #expect(response.text.contains("id=\"draft-1\""))
        #expect(response.text.contains("value=\"Yogurt\""))
        #expect(response.text.contains("value=\"2026-12-01\""))
        #expect(response.text.contains("the big one &lt;b&gt;"))
        #expect(response.text.contains("value=\"1,5\""))
        #expect(try itemCount(fixture) == before)

        let fixed = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("action", "save"),
                ("d0.name", "Yogurt"), ("d1.name", "Cheese"), ("d1.note", "the big one"), ("d2.name", "Tofu"), ("d2.quantity", "1,5"),
            ])
        #expect(fixed.status == 303)
        #expect(try itemCount(fixture) == before + 3)
    }

    @Test func addingADraftWithoutJavaScriptKeepsWhatWasTyped() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("action", "add"), ("d0.name", "Natto"), ("d0.kind", "prepared"),
            ])
        #expect(response.status == 200)
        #expect(response.text.contains("value=\"Natto\""))
        #expect(response.text.contains("name=\"d1.name\""))
        #expect(response.text.contains("<option value=\"prepared\" selected>"))
    }

    @Test func anEditWithAnInvalidFieldKeepsTheFormAndTheItem() async throws {
        let fixture = try await HouseholdFixture()
        let item = try fixture.items.item(fixture.itemId, householdId: try #require(try fixture.accounts.session(token: fixture.owner)).householdId)
        let response = try fixture.send(
            "POST", "/items/\(fixture.itemId)", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("version", "\(item.version)"), ("action", "save"),
                ("d0.name", "Oat milk"), ("d0.quantity", "-3"), ("d0.remind_at", "2026-12-01T09:00"),
            ])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-d0.quantity-error\""))
        #expect(response.text.contains("id=\"f-d0.remind_at-error\""))
        #expect(response.text.contains("value=\"Oat milk\""))
        #expect(response.text.contains("value=\"-3\""))
        #expect(try fixture.items.item(fixture.itemId, householdId: item.householdId).name == "Milk")
    }

    @Test func aStaleEditShowsTheConflictWithBothVersions() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/items/\(fixture.itemId)", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("version", "0"), ("action", "save"), ("d0.name", "Soy milk"), ("d0.unit", "bottle"),
                ("d0.due", "2026-12-24"),
            ])
        #expect(response.status == 409)
        // Codes and dates as the reader sees them elsewhere.
        #expect(response.text.contains("<td>pcs</td><td>bottle</td>"))
        #expect(response.text.contains("Dec 24, 2026"))
        #expect(response.text.contains("Someone else changed this item"))
        #expect(response.text.contains("<td>Milk</td><td>Soy milk</td>"))
        // "Save mine" carries what was typed and the version now stored.
        #expect(response.text.contains("name=\"d0.name\" value=\"Soy milk\""))
        #expect(response.text.contains("name=\"version\" value=\"1\""))
    }

    @Test func folderFormsReportBesideTheFieldAndKeepTheInput() async throws {
        let fixture = try await HouseholdFixture()
        let create = try fixture.send("POST", "/folders", as: fixture.member, form: [("name", "  "), ("kind", "shopping"), ("icon", "nope")])
        #expect(create.status == 422)
        #expect(create.text.contains("id=\"folder-name-error\""))
        #expect(create.text.contains("Choose an icon."))
        #expect(create.text.contains("value=\"shopping\" checked"))
        let rename = try fixture.send(
            "POST", "/folders/\(fixture.fridgeId)", as: fixture.member, form: [("name", String(repeating: "x", count: 120)), ("icon", "fish")])
        #expect(rename.status == 422)
        #expect(rename.text.contains("At most 100 characters."))
        #expect(rename.text.contains("value=\"fish\" checked"))
    }

    @Test func householdSettingsReportBesideTheFieldAndKeepTheInput() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/settings/household", as: fixture.owner,
            form: [
                ("household", "Tanaka family"), ("time_zone", "Mars/Olympus"), ("due_soon_days", "99"),
            ])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-time_zone-error\""))
        #expect(response.text.contains("id=\"f-due_soon_days-error\""))
        #expect(response.text.contains("value=\"Tanaka family\""))
        #expect(response.text.contains("value=\"99\""))
        let saved = try fixture.send(
            "POST", "/settings/household", as: fixture.owner,
            form: [
                ("household", "Tanaka family"), ("time_zone", "Asia/Tokyo"), ("due_soon_days", "5"),
            ])
        #expect(saved.status == 303)
        #expect(try fixture.send("GET", "/", as: fixture.member).text.contains("<h1>Tanaka family</h1>"))
    }

    @Test func aBulkActionWithOneForeignIdChangesNothing() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/folders/\(fixture.fridgeId)/bulk", as: fixture.member,
            form: [
                ("action", "delete"), ("ids", "\(fixture.itemId)"), ("ids", "999999"),
            ])
        #expect(response.status == 404)
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        #expect(try fixture.items.item(fixture.itemId, householdId: owner.householdId).deletedAt == nil)
    }
}
