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
        return try fixture.items.page(of: try fixture.items.folder(fixture.fridgeId, in: owner.household), filter: ListFilter(), page: 1).total
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
        // A draft typed by mistake can also go: the message says so.
        #expect(response.text.contains("Enter a name for this item, or remove this entry."))
        #expect(response.text.contains(#"<button class="link-button draft-remove" type="submit" name="remove" value="1">Remove"#))
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

    @Test func removingADraftWithoutJavaScriptKeepsTheOthers() async throws {
        let fixture = try await HouseholdFixture()
        let before = try itemCount(fixture)
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("remove", "1"),
                ("d0.name", "Yogurt"), ("d0.quantity", "2"), ("d1.name", ""), ("d1.note", "typed by mistake"),
                ("d2.name", "Tofu"), ("d2.due", "2026-12-01"),
            ])
        #expect(response.status == 200)
        #expect(!response.text.contains("typed by mistake"))
        #expect(!response.text.contains(".name-error"))
        // The drafts after it move up one place.
        #expect(response.text.contains(#"name="d0.name" type="text" value="Yogurt""#))
        #expect(response.text.contains(#"name="d1.name" type="text" value="Tofu""#))
        #expect(response.text.contains(#"value="2026-12-01""#))
        #expect(!response.text.contains(#"name="d2.name""#))
        #expect(try itemCount(fixture) == before)

        let ja = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [("folder", "\(fixture.fridgeId)"), ("action", "save"), ("d0.name", "Natto"), ("d1.name", ""), ("d1.quantity", "3")],
            headers: [("Accept-Language", "ja")])
        #expect(ja.status == 422)
        #expect(ja.text.contains("この品物の名前を入力するか、この欄を削除してください。"))
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
        let home = try #require(try fixture.accounts.session(token: fixture.owner)).household
        let item = try fixture.items.item(fixture.itemId, in: home)
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
        #expect(try fixture.items.item(fixture.itemId, in: home).name == "Milk")
    }

    @Test func aStaleEditWithoutABaseAsksAboutEveryDifference() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/items/\(fixture.itemId)", as: fixture.member,
            form: [
                ("folder", "\(fixture.fridgeId)"), ("version", "0"), ("action", "save"), ("d0.name", "Soy milk"), ("d0.unit", "bottle"),
                ("d0.due", "2026-12-24"), ("d0.barcode", "4901234567894"), ("d0.picture", "photo:\(fixture.photoKey)"),
            ])
        #expect(response.status == 409)
        #expect(response.text.contains("Someone else changed this item"))
        // A form sent without what it was opened with cannot be merged: each differing field is a choice, mine chosen.
        #expect(response.text.contains("name=\"d0.name\" value=\"Milk\">"))
        #expect(response.text.contains("name=\"d0.name\" value=\"Soy milk\" checked>"))
        #expect(response.text.contains("name=\"d0.unit\" value=\"piece\">"))
        // Codes and dates as the reader sees them elsewhere.
        #expect(response.text.contains("<strong>pcs</strong>") && response.text.contains("<strong>bottle</strong>"))
        #expect(response.text.contains("Dec 24, 2026"))
        // The same fields are not repeated as merged: the barcode is the same on both sides.
        #expect(!response.text.contains("name=\"d0.name\" value=\"Soy milk\">"))
        #expect(response.text.contains("name=\"d0.barcode\" value=\"4901234567894\""))
        // Deciding saves against the version now stored, which becomes the new base.
        #expect(response.text.contains("name=\"version\" value=\"1\""))
        #expect(response.text.contains("name=\"base.name\" value=\"Milk\""))
    }

    /// The form as the editor sends it for the fixture's milk, opened at version 1, with `changes`.
    func staleForm(_ fixture: HouseholdFixture, _ changes: [String: String]) -> [(String, String)] {
        let opened: [String: String] = [
            "folder": "\(fixture.fridgeId)", "name": "Milk", "quantity": "1", "unit": "piece", "kind": "other", "status": "unopened", "due": "",
            "remind_at": "", "urgent": "", "barcode": "4901234567894", "picture": "photo:\(fixture.photoKey)", "note": "",
        ]
        var form: [(String, String)] = [("version", "1"), ("action", "save"), ("folder", "\(fixture.fridgeId)")]
        form += opened.map { ("base.\($0.key)", $0.value) }
        form += opened.filter { $0.key != "folder" }.map { ("d0.\($0.key)", changes[$0.key] ?? $0.value) }
        return form
    }

    @Test func aStaleEditIsMergedWithTheOtherChangeWithoutAsking() async throws {
        let fixture = try await HouseholdFixture()
        fixture.advance(60)
        // The owner changes the due date first.
        let first = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.owner, form: staleForm(fixture, ["due": "2026-12-05"]))
        #expect(first.status == 303)
        fixture.advance(60)
        // Ken, from a form opened before, changes the name: merged, and the item page says with whose change.
        let second = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.member, form: staleForm(fixture, ["name": "Oat milk"]))
        #expect(second.status == 303)
        let location = second.header("Location") ?? ""
        #expect(location.hasPrefix("/items/\(fixture.itemId)?merged=due&by="))
        let item = try fixture.items.item(fixture.itemId, in: try fixture.accounts.session(token: fixture.owner)!.household)
        #expect(item.name == "Oat milk" && item.due == "2026-12-05")
        let page = try fixture.send("GET", location, as: fixture.member)
        #expect(page.text.contains("Saved. Merged with Aki’s change to Due date."))
        // The address only names fields and a history line: anything else says nothing about anyone.
        let forged = try fixture.send("GET", "/items/\(fixture.itemId)?merged=%3Cb%3E&by=999", as: fixture.member)
        #expect(!forged.text.contains("<b>") && forged.text.contains("Saved. Merged with a change made meanwhile."))
    }

    @Test func editingFurtherFromTheConflictPageKeepsTheChoicesAndTheNewBase() async throws {
        let fixture = try await HouseholdFixture()
        fixture.advance(60)
        #expect(try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.owner, form: staleForm(fixture, ["quantity": "3"])).status == 303)
        let clash = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.member, form: staleForm(fixture, ["quantity": "5", "note": "mine"]))
        #expect(clash.status == 409)
        #expect(clash.text.contains("name=\"d0.quantity\" value=\"5\" checked>"))
        // The page's form, sent with "Edit mine further": the editor shows the choice and carries the stored version as its base.
        var form: [(String, String)] = [("version", "2"), ("action", "switch"), ("folder", "\(fixture.fridgeId)"), ("d0.quantity", "5")]
        form += [("d0.name", "Milk"), ("d0.note", "mine"), ("base.folder", "\(fixture.fridgeId)"), ("base.quantity", "3"), ("base.name", "Milk")]
        let editor = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.member, form: form)
        #expect(editor.status == 200)
        #expect(editor.text.contains("name=\"version\" value=\"2\""))
        #expect(editor.text.contains("name=\"base.quantity\" value=\"3\""))
        let quantityTag = editor.text.components(separatedBy: "name=\"d0.quantity\"").dropFirst().first?.prefix { $0 != ">" } ?? ""
        #expect(quantityTag.contains("value=\"5\""))
    }

    @Test func theEditorCarriesWhatItWasOpenedWith() async throws {
        let fixture = try await HouseholdFixture()
        let page = try fixture.send("GET", "/items/\(fixture.itemId)/edit", as: fixture.member)
        for (name, value) in [
            ("version", "1"), ("base.folder", "\(fixture.fridgeId)"), ("base.name", "Milk"), ("base.quantity", "1"), ("base.unit", "piece"),
            ("base.kind", "other"), ("base.status", "unopened"), ("base.due", ""), ("base.remind_at", ""), ("base.urgent", ""),
            ("base.barcode", "4901234567894"), ("base.picture", "photo:\(fixture.photoKey)"), ("base.note", ""),
        ] {
            #expect(page.text.contains("name=\"\(name)\" value=\"\(value)\""), "\(name)")
        }
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
        #expect(try fixture.items.item(fixture.itemId, in: owner.household).deletedAt == nil)
    }
}
