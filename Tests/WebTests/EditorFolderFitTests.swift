import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// The item editor without JavaScript (issue 11): a save whose typed fields the chosen folder
/// does not keep comes back to the form instead of dropping them, and Enter (the form's first
/// button) saves unless a scanner left a barcode without a name.
@Suite("The editor asks before a folder drops typed fields")
struct EditorFolderFitTests {
    func ids(_ fixture: HouseholdFixture) throws -> (household: HouseholdScope, shopping: Int64) {
        let household = try #require(try fixture.accounts.session(token: fixture.owner)).household
        let shopping = try #require(try fixture.items.folders(in: household).first { $0.kind == .shopping }?.id)
        return (household, shopping)
    }

    func names(_ fixture: HouseholdFixture, in folder: Int64) throws -> [String] {
        let household = try ids(fixture).household
        return try fixture.items.page(of: try fixture.items.folder(folder, in: household), filter: ListFilter(), page: 1).items.map(\.name)
    }

    @Test func aDueDateTypedForAShoppingListComesBackUntilDroppedOnPurpose() async throws {
        let fixture = try await HouseholdFixture()
        let shopping = try ids(fixture).shopping
        let typed: [(String, String)] = [("folder", "\(shopping)"), ("d0.name", "Yogurt"), ("d0.due", "2026-12-01"), ("d0.status", "opened")]
        let response = try fixture.send("POST", "/items/new", as: fixture.member, form: typed + [("action", "save")])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"editor-folder-unfit\""))
        #expect(response.text.contains("Item 1: Due date, Status"))
        #expect(response.text.contains("name=\"discard_unfit\""))
        // The stock fields stay on the form (enabled), with what was typed.
        #expect(response.text.contains("value=\"2026-12-01\""))
        #expect(response.text.contains("<option value=\"opened\" selected>"))
        #expect(try names(fixture, in: shopping).isEmpty)

        // "Use this folder" asks the same.
        #expect(try fixture.send("POST", "/items/new", as: fixture.member, form: typed + [("action", "switch")]).status == 422)

        let dropped = try fixture.send("POST", "/items/new", as: fixture.member, form: typed + [("action", "save"), ("discard_unfit", "1")])
        #expect(dropped.status == 303)
        #expect(try names(fixture, in: shopping) == ["Yogurt"])
    }

    @Test func anEditMovedToAShoppingListAsksToo() async throws {
        let fixture = try await HouseholdFixture()
        let (household, shopping) = try ids(fixture)
        let item = try fixture.items.item(fixture.itemId, in: household)
        let response = try fixture.send(
            "POST", "/items/\(fixture.itemId)", as: fixture.member,
            form: [("folder", "\(shopping)"), ("version", "\(item.version)"), ("action", "save"), ("d0.name", item.name), ("d0.due", "2026-12-01")])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"editor-folder-unfit\""))
        #expect(try fixture.items.item(fixture.itemId, in: household).folderId == fixture.fridgeId)
    }

    @Test func enterSavesUnlessAScannerLeftABarcodeWithoutAName() async throws {
        let fixture = try await HouseholdFixture()
        let saved = try fixture.send(
            "POST", "/items/new", as: fixture.member, form: [("folder", "\(fixture.fridgeId)"), ("action", "enter"), ("d0.name", "Rice")])
        #expect(saved.status == 303)
        #expect(try names(fixture, in: fixture.fridgeId).contains("Rice"))

        let scanned = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [("folder", "\(fixture.fridgeId)"), ("action", "enter"), ("d0.barcode", "4901234567894")])
        #expect(scanned.status == 200)
        #expect(scanned.text.contains("name=\"d1.barcode\"")) // looked up: a fresh draft for the next scan
    }
}
