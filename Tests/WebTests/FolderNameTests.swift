import Foundation
import GRDB
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// Every page that names a folder names it as the reader sees it: a starter folder nobody renamed
/// reads スーパー and 冷蔵庫 to a Japanese reader, "Supermarket" and "Fridge" to an English one.
@Suite struct FolderNameTests {
    static let japanese = [("Accept-Language", "ja")]

    func folder(_ fixture: HouseholdFixture, _ starter: String) throws -> Folder {
        let household = try fixture.accounts.session(token: fixture.owner)!.household
        return try #require(try fixture.items.folders(in: household).first { $0.starter == starter })
    }

    @Test func theBuyAgainNoticeNamesTheListInTheReadersLanguage() async throws {
        let fixture = try await HouseholdFixture()
        let supermarket = try folder(fixture, "starter_supermarket")
        let form = [("shopping", "\(supermarket.id!)"), ("return", "/folders/\(fixture.fridgeId)"), ("fragment", "1")]
        let japanese = try fixture.send("POST", "/items/\(fixture.itemId)/buy-again", as: fixture.member, form: form, headers: Self.japanese)
        #expect(japanese.text.contains("スーパーに追加しました。"), "\(japanese.text)")
        let english = try fixture.send("POST", "/items/\(fixture.itemId)/buy-again", as: fixture.member, form: form)
        #expect(english.text.contains("Added to Supermarket."))
    }

    @Test func historyNamesTheFoldersWhenItIsRead() async throws {
        let fixture = try await HouseholdFixture()
        let session = try fixture.accounts.session(token: fixture.member)!
        let supermarket = try folder(fixture, "starter_supermarket")
        try fixture.items.move([fixture.itemId], to: supermarket.id!, in: session.household, by: session.memberId)
        try fixture.items.markBought([fixture.itemId], into: fixture.fridgeId, in: session.household, by: session.memberId)
        let japanese = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member, headers: Self.japanese).text
        #expect(japanese.contains("スーパー → 冷蔵庫"), "\(japanese)")
        #expect(japanese.contains("冷蔵庫 → スーパー"))
        #expect(!japanese.contains("Supermarket"))
        let english = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member).text
        #expect(english.contains("Supermarket → Fridge"))

        // A line written before the folders were kept by id reads as it was written.
        try await fixture.app.database.writer.write { [id = fixture.itemId, household = session.household.householdId] db in
            try db.execute(
                sql: "INSERT INTO item_event (household_id, item_id, kind, detail, at) VALUES (?, ?, 'moved', 'Pantry → Freezer', '2026-01-01T00:00:00Z')",
                arguments: [household, id])
        }
        let old = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member, headers: Self.japanese).text
        #expect(old.contains("Pantry → Freezer"))
    }

    @Test func aRenamedFolderReadsUnderItsNewNameInHistory() async throws {
        let fixture = try await HouseholdFixture()
        let session = try fixture.accounts.session(token: fixture.member)!
        let supermarket = try folder(fixture, "starter_supermarket")
        try fixture.items.move([fixture.itemId], to: supermarket.id!, in: session.household, by: session.memberId)
        try await fixture.app.database.writer.write { [id = supermarket.id!] db in
            try db.execute(sql: "UPDATE folder SET name = 'Corner shop', starter = NULL WHERE id = ?", arguments: [id])
        }
        let japanese = try fixture.send("GET", "/items/\(fixture.itemId)", as: fixture.member, headers: Self.japanese).text
        #expect(japanese.contains("冷蔵庫 → Corner shop"))
    }

    @Test func theConflictPageNamesFoldersInTheReadersLanguage() async throws {
        let fixture = try await HouseholdFixture()
        let pantry = try folder(fixture, "starter_pantry"), freezer = try folder(fixture, "starter_freezer")
        func stale(_ target: Int64) -> [(String, String)] {
            let opened: [String: String] = [
                "folder": "\(fixture.fridgeId)", "name": "Milk", "quantity": "1", "unit": "piece", "kind": "other", "status": "unopened", "due": "",
                "remind_at": "", "urgent": "", "barcode": "4901234567894", "picture": "photo:\(fixture.photoKey)", "note": "",
            ]
            return [("version", "1"), ("action", "save"), ("folder", "\(target)")] + opened.map { ("base.\($0.key)", $0.value) }
                + opened.filter { $0.key != "folder" }.map { ("d0.\($0.key)", $0.value) }
        }
        fixture.advance(60)
        #expect(try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.owner, form: stale(pantry.id!)).status == 303)
        let clash = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.member, form: stale(freezer.id!), headers: Self.japanese)
        #expect(clash.status == 409)
        #expect(clash.text.contains("パントリー") && clash.text.contains("冷凍庫"), "\(clash.text)")
        #expect(!clash.text.contains("Pantry") && !clash.text.contains("Freezer"))
    }
}
