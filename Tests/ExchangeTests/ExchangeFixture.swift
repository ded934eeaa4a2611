import Exchange
import Foundation
import GRDB
import TestSupport
import Testing
import ZIPFoundation

@testable import Inventory

/// Two households on one server with photos: "Home" (the one exported: Japanese names, formula-like
/// text, a trashed item, history by two members, products, photos) and "Other", whose data must
/// never appear in Home's export.
struct ExchangeFixture {
    let folder: TemporaryFolder
    let fixture: Fixture
    let photos: PhotoStore
    let otherHousehold: HouseholdScope
    let otherPhotoKey: String
    let trashedItemName = "古い豆腐"

    /// Minimal bytes that are what their format says (magic numbers), distinct per call.
    static func jpeg(_ tag: String) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF \(tag)".utf8) + [0xFF, 0xD9] }

    init() throws {
        folder = try TemporaryFolder("zaiko-exchange")
        fixture = try Fixture(language: "ja", database: AppDatabase.open(at: folder.databaseURL), folderNames: ["starter_fridge": "冷蔵庫"])
        photos = try PhotoStore(directory: folder.appending("photos"), database: fixture.database, clock: fixture.clock.wall)
        let home = fixture.household
        let owner = try fixture.owner
        let fridge = try fixture.firstFolder(.stock)
        let shopping = try fixture.firstFolder(.shopping)
        let memberToken = try fixture.join("hana", role: .member)
        let hana = try #require(try fixture.accounts.session(token: memberToken))
        let zone = TimeZone(identifier: "UTC")!

        let milkPhoto = try photos.save(large: Self.jpeg("milk-512"), small: Self.jpeg("milk-128"), format: "jpeg", in: home)
        func draft(_ name: String, _ configure: (inout ItemInput) -> Void = { _ in }) -> ItemInput {
            var input = ItemInput()
            input.name = name
            configure(&input)
            return input
        }
        let ids = try fixture.items.register(
            [
                draft("牛乳") {
                    $0.quantity = "1.5"
                    $0.unit = "L"
                    $0.kind = "dairy_eggs"
                    $0.due = "2026-12-01"
                    $0.remindAt = "2026-11-30T09:00"
                    $0.status = "opened"
                    $0.barcode = "4901234567894"
                    $0.note = "メモ, \"引用\"\n二行目"
                    $0.picture = "photo:\(milkPhoto)"
                },
                draft("=HYPERLINK(\"http://evil\")") { $0.note = "-5 degrees" },
                draft("@SUM(A1)") { $0.note = "+cmd" },
                draft(trashedItemName) { $0.picture = "illustration:tofu" },
            ], into: fridge, in: home, by: owner.memberId, timeZone: zone)
        _ = try fixture.items.register(
            [
                draft("卵") {
                    $0.urgent = true
                    $0.quantity = "10"
                }
            ], into: shopping, in: home, by: hana.memberId, timeZone: zone)
        _ = try fixture.items.adjustQuantity(ids[0], by: 1, in: home, by: hana.memberId)
        try fixture.items.markOpened(ids[1], in: home, by: hana.memberId)
        try fixture.items.trash([ids[3]], in: home, by: owner.memberId)
        // A folder in the trash with its item, and the stock list bought eggs go to by default.
        let folders = Folders(database: fixture.database, clock: fixture.clock.wall)
        let shelf = try folders.create(name: "古い棚", kind: .stock, icon: "box", in: home)
        _ = try fixture.items.register([draft("乾物")], into: shelf, in: home, by: owner.memberId, timeZone: zone)
        try folders.delete(shelf, in: home, by: owner.memberId)
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE folder SET last_stock_folder_id = ? WHERE id = ?", arguments: [fridge, shopping])
        }
        // The milk's reminder went out already: a moved household must not send it again.
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id = ?", arguments: [ids[0]])
        }

        // A recipe (photo, tags, a product-linked ingredient, a produced item), one in the trash, and a
        // cook with what it took, named in the milk's history; used-up items go to the shopping list.
        try fixture.database.writer.write { db in
            let product = try Int64.fetchOne(
                db, sql: "SELECT id FROM product WHERE household_id = ? AND barcode = '4901234567894'", arguments: [home.householdId])
            var pudding = Recipe(
                householdId: home.householdId, name: "ミルクプリン", photo: milkPhoto, servings: 4, steps: "混ぜる\n\n冷やす", sourceUrl: "https://example.com/pudding",
                produce: RecipeProduce(name: "プリン", quantity: 4, unit: .piece, kind: .prepared, dueDays: 2, folderId: fridge))
            try pudding.insert(db)
            var milk = RecipeIngredient(
                householdId: home.householdId, recipeId: pudding.id!, position: 0, name: "牛乳", amount: 400, unit: "ml", productId: product)
            try milk.insert(db)
            var sugar = RecipeIngredient(householdId: home.householdId, recipeId: pudding.id!, position: 1, name: "砂糖", amount: 2, unit: "tbsp", note: "上白糖")
            try sugar.insert(db)
            for tag in ["おやつ", "冷たい"] { try RecipeTag(recipeId: pudding.id!, householdId: home.householdId, tag: tag).insert(db) }
            var old = Recipe(householdId: home.householdId, name: "古いレシピ", illustration: "tofu", deletedAt: "2026-11-01T00:00:00Z")
            try old.insert(db)
            var cook = Cook(
                householdId: home.householdId, recipeId: pudding.id, recipeName: "ミルクプリン", memberId: hana.memberId, servings: 4,
                cookedAt: "2026-11-20T18:00:00Z")
            try cook.insert(db)
            var take = CookTake(cookId: cook.id!, itemId: ids[0], ingredientName: "牛乳", amount: 0.4)
            try take.insert(db)
            try db.execute(
                sql: "INSERT INTO item_event (household_id, item_id, member_id, kind, detail, at, cook_id) VALUES (?, ?, ?, 'quantity', '2.9 → 2.5', ?, ?)",
                arguments: [home.householdId, ids[0], hana.memberId, "2026-11-20T18:00:00Z", cook.id])
            try db.execute(sql: "UPDATE household SET used_up = 'shopping', used_up_folder_id = ? WHERE id = ?", arguments: [shopping, home.householdId])
        }

        let invitation = try fixture.accounts.createHousehold(name: "Other")
        let ota = try fixture.accounts.acceptInvitation(token: invitation, name: "Ota", login: "ota", password: Fixture.password, userAgent: "test")
        otherHousehold = try #require(try fixture.accounts.session(token: ota)).household
        otherPhotoKey = try photos.save(large: Self.jpeg("other-512"), small: Self.jpeg("other-128"), format: "jpeg", in: otherHousehold)
        let otherFridge = try fixture.firstFolder(.stock, in: otherHousehold)
        let otaMember = try #require(try fixture.accounts.members(in: otherHousehold).first)
        _ = try fixture.items.register(
            [
                draft("SECRET-OTHER") {
                    $0.barcode = "4900000000009"
                    $0.picture = "photo:\(otherPhotoKey)"
                }
            ], into: otherFridge,
            in: otherHousehold, by: otaMember.id!, timeZone: zone)
    }

    func remove() { folder.remove() }

    /// Home exported to a file in the fixture's folder.
    func export(_ name: String = "home.zip") throws -> URL {
        let url = folder.appending(name)
        try HouseholdExport(database: fixture.database, photos: photos, clock: fixture.clock.wall).write(in: fixture.household, to: url)
        return url
    }
}

/// Another server: its own database and photo folder, no household yet.
struct EmptyServer {
    let folder: TemporaryFolder
    let database: AppDatabase
    let photos: PhotoStore

    init() throws {
        folder = try TemporaryFolder("zaiko-import")
        database = try AppDatabase.open(at: folder.databaseURL)
        photos = try PhotoStore(directory: folder.appending("photos"), database: database)
    }

    func remove() { folder.remove() }

    var importer: HouseholdImport { HouseholdImport(database: database, photos: photos) }

    var householdCount: Int { get throws { try database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM household") ?? 0 } } }
    var photoFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: photos.directory.path)) ?? [] }
}

/// Every entry of a ZIP by path, with its bytes.
func unzip(_ url: URL) throws -> [String: [UInt8]] {
    let archive = try Archive(url: url, accessMode: .read)
    var files: [String: [UInt8]] = [:]
    for entry in archive {
        var bytes: [UInt8] = []
        _ = try archive.extract(entry) { bytes.append(contentsOf: $0) }
        files[entry.path] = bytes
    }
    return files
}
