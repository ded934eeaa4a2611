import CSV
import Exchange
import Foundation
import GRDB
import TestSupport
import Testing
import ZIPFoundation

@testable import Inventory

@Suite("Household export and import")
struct HouseholdExchangeTests {
    /// The document with every server-given id replaced by its position, and photo keys by the
    /// hash of their bytes: two servers' copies of one household compare equal.
    func canonical(_ document: HouseholdDocument, photos: PhotoStore) -> HouseholdDocument {
        var d = document
        func index<T>(_ list: [T], _ id: KeyPath<T, Int64>) -> [Int64: Int64] {
            Dictionary(uniqueKeysWithValues: list.enumerated().map { ($0.element[keyPath: id], Int64($0.offset)) })
        }
        let members = index(d.members, \.id)
        let folders = index(d.folders, \.id)
        let items = index(d.items, \.id)
        let recipes = index(d.recipes ?? [], \.id)
        let cooks = index(d.cooks ?? [], \.id)
        var digests: [String: String] = [:]
        for photo in d.photos {
            let bytes = PhotoSize.allCases.map { (try? [UInt8](Data(contentsOf: photos.url(key: photo.key, format: photo.format, size: $0)))) ?? [] }
            digests[photo.key] = Crypto.hex(Crypto.sha256(bytes[0])) + "/" + Crypto.hex(Crypto.sha256(bytes[1]))
        }
        d.exportedAt = "2000-01-01T00:00:00Z"
        d.household.usedUpFolderId = d.household.usedUpFolderId.flatMap { folders[$0] }
        d.recipes = d.recipes?.map {
            var r = $0
            r.id = recipes[r.id]!
            r.photo = r.photo.map { digests[$0]! }
            r.produce?.folderId = $0.produce?.folderId.flatMap { folders[$0.rawValue] }.map(Folder.ID.init(rawValue:))
            return r
        }
        d.cooks = d.cooks?.map {
            var c = $0
            c.id = cooks[c.id]!
            c.recipeId = c.recipeId.flatMap { recipes[$0] }
            c.memberId = c.memberId.flatMap { members[$0] }
            c.producedItemId = c.producedItemId.flatMap { items[$0] }
            c.takes = c.takes.map {
                var t = $0
                t.itemId = items[t.itemId]!
                t.fromFolderId = t.fromFolderId.flatMap { folders[$0] }
                return t
            }
            return c
        }
        d.members = d.members.map {
            var m = $0
            m.id = members[m.id]!
            return m
        }
        d.folders = d.folders.map {
            var f = $0
            f.id = folders[f.id]!
            f.lastStockFolderId = f.lastStockFolderId.flatMap { folders[$0] }
            return f
        }
        d.items = d.items.map {
            var i = $0
            i.id = items[i.id]!
            i.folderId = folders[i.folderId]!
            i.photo = i.photo.map { digests[$0]! }
            return i
        }
        d.itemEvents = d.itemEvents.map {
            var e = $0
            e.itemId = items[e.itemId]!
            e.memberId = e.memberId.flatMap { members[$0] }
            e.cookId = e.cookId.flatMap { cooks[$0] }
            return e
        }
        d.products = d.products.map {
            var p = $0
            p.folderId = p.folderId.flatMap { folders[$0] }
            p.photo = p.photo.map { digests[$0]! }
            return p
        }
        d.photos = d.photos.map {
            var p = $0
            p.key = digests[p.key]!
            p.large = ""
            p.small = ""
            return p
        }.sorted { $0.key < $1.key }
        return d
    }

    @Test("export then import into an empty server gives the same household: folders, items, trash, history, products, photo bytes")
    func roundTrip() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let target = try EmptyServer()
        defer { target.remove() }

        let report = try target.importer.run(try source.export())

        let exported = try HouseholdExport(database: source.fixture.database, photos: source.photos).document(in: source.fixture.household)
        let imported = try HouseholdExport(database: target.database, photos: target.photos).document(in: report.household)
        #expect(exported.items.count == 6)
        #expect(exported.folders.count == 5)
        #expect(exported.photos.count == 1)
        #expect(exported.products.count == 1)
        #expect(exported.itemEvents.count >= 7)
        #expect(canonical(imported, photos: target.photos) == canonical(exported, photos: source.photos))
        // Not only the two servers' exports agreeing (a field both leave out would pass): the rows the
        // import wrote are the rows exported, column by column (ExportSchemaTests.canonicalRows).
        #expect(
            try ExportSchemaTests.canonicalRows(target.database, photos: target.photos, householdId: report.household.householdId)
                == ExportSchemaTests.canonicalRows(source.fixture.database, photos: source.photos, householdId: source.fixture.household.householdId))
        #expect(report.items == 4 && report.trashedItems == 2 && report.photos == 1 && report.products == 1 && report.folders == 5)
        #expect(imported.folders.contains { $0.deletedAt != nil } && imported.folders.contains { $0.lastStockFolderId != nil })
        #expect(report.members.map(\.login).sorted() == ["aki", "hana"])
        // Version 2: recipes with ingredients, tags, the product link, the produced item; the cook.
        #expect(exported.formatVersion == HouseholdDocument.currentVersion && report.recipes == 1)
        let pudding = try #require(imported.recipes?.first { $0.name == "ミルクプリン" })
        #expect(pudding.ingredients.map(\.name) == ["牛乳", "砂糖"] && pudding.ingredients[0].productBarcode == "4901234567894")
        #expect(pudding.tags.sorted() == ["おやつ", "冷たい"] && pudding.produce?.name == "プリン" && pudding.photo != nil)
        #expect(imported.cooks?.first?.takes.first?.amount == 0.4 && imported.itemEvents.contains { $0.cookId != nil })
        #expect(imported.household.usedUp == "shopping" && imported.household.usedUpFolderId != nil)

        // The history still names who did what, and the lists read as before.
        let items = Items(database: target.database)
        let milk = try #require(imported.items.first { $0.name == "牛乳" })
        let history = try items.history(of: Item.ID(rawValue: milk.id), in: report.household)
        #expect(Set(history.compactMap(\.memberName)) == ["Aki", "Hana"])
        let fridge = try #require(try items.folders(in: report.household, kind: .stock).first)
        #expect(fridge.itemCount == 3)
        #expect(try Products(database: target.database).product(barcode: "4901234567894", in: report.household)?.name == "牛乳")

        // The old members have no password here; the owner joins through the invitation.
        let accounts = Accounts(database: target.database, hasher: CountingHasher())
        #expect(try accounts.logIn(login: "aki", password: Fixture.password, peer: "127.0.0.1", userAgent: "t", remember: false) == .rejected)
        #expect(try accounts.link(token: report.invitationToken, purpose: .invitation)?.householdId == report.household.householdId)
    }

    @Test("a second import of the same export is another household; logins taken get a suffix")
    func importTwice() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let target = try EmptyServer()
        defer { target.remove() }
        let zip = try source.export()
        _ = try target.importer.run(zip)
        let second = try target.importer.run(zip)
        #expect(second.members.map(\.login).sorted() == ["aki-2", "hana-2"])
        #expect(try target.householdCount == 2)
    }

    @Test("the CSV files read in a spreadsheet-compatible parser: BOM, contract columns, Japanese intact, formulas neutralised")
    func spreadsheets() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let files = try unzip(try source.export())
        for name in ["items.csv", "folders.csv", "history.csv", "products.csv", "members.csv", "recipes.csv", "recipe_ingredients.csv"] {
            #expect(files[name]?.starts(with: [0xEF, 0xBB, 0xBF]) == true, "\(name) starts with a UTF-8 BOM")
        }
        let bytes = try #require(files["items.csv"])
        #expect(String(decoding: bytes, as: UTF8.self).contains("\r\n"))
        let reader = try CSVReader(stream: InputStream(data: Data(bytes)), hasHeaderRow: true)
        #expect(reader.headerRow == HouseholdExport.itemColumns)
        #expect(
            reader.headerRow == [
                "id", "folder", "name", "quantity", "unit", "kind", "due", "remind_at", "status", "urgent", "barcode", "note", "created_at", "updated_at",
            ])
        var rows: [[String: String]] = []
        while let row = reader.next() { rows.append(Dictionary(uniqueKeysWithValues: zip(reader.headerRow!, row))) }
        #expect(rows.count == 4, "trashed items stay out of the spreadsheet")
        #expect(!rows.contains { $0["name"] == source.trashedItemName })
        let milk = try #require(rows.first { $0["name"] == "牛乳" })
        #expect(milk["folder"] == "冷蔵庫")
        #expect(milk["quantity"] == "2.5")
        #expect(milk["unit"] == "L" && milk["kind"] == "dairy_eggs" && milk["status"] == "opened" && milk["urgent"] == "0")
        #expect(milk["due"] == "2026-12-01" && milk["remind_at"] == "2026-11-30T09:00:00Z")
        #expect(milk["note"] == "メモ, \"引用\"\n二行目")
        #expect(milk["barcode"] == "4901234567894")
        #expect(rows.first { $0["name"] == "卵" }?["urgent"] == "1")
        #expect(rows.first { $0["name"] == "卵" }?["quantity"] == "10")
        // Formula injection: every such cell starts with an apostrophe.
        #expect(rows.contains { $0["name"] == "'=HYPERLINK(\"http://evil\")" && $0["note"] == "'-5 degrees" })
        #expect(rows.contains { $0["name"] == "'@SUM(A1)" && $0["note"] == "'+cmd" })
        for row in rows { for cell in row.values { #expect(!["=", "+", "-", "@", "\t", "\r"].contains(cell.first.map(String.init) ?? "")) } }
    }

    @Test("another household's data, password hashes and tokens never appear in the export")
    func otherHouseholdAbsent() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let files = try unzip(try source.export())
        let secrets = try source.fixture.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT password_hash FROM member")
                + String.fetchAll(db, sql: "SELECT hex(token_hash) FROM session UNION ALL SELECT hex(token_hash) FROM single_use_link")
                + String.fetchAll(db, sql: "SELECT csrf_token FROM session")
        }
        #expect(secrets.count >= 6)
        for (path, bytes) in files {
            let text = String(decoding: bytes, as: UTF8.self)
            for needle in ["SECRET-OTHER", "4900000000009", "Ota", "\"ota\"", source.otherPhotoKey] + secrets {
                #expect(!text.contains(needle), "\(path) holds \(needle)")
            }
            #expect(!path.contains(source.otherPhotoKey))
        }
        #expect(files.keys.filter { $0.hasPrefix("photos/") }.count == 2)
    }

    /// An export rewritten by `change`, saved beside the fixture's.
    func tampered(_ source: ExchangeFixture, _ name: String, _ change: (inout [String: [UInt8]]) throws -> Void) throws -> URL {
        var files = try unzip(try source.export("original-\(name)"))
        try change(&files)
        let url = source.folder.appending(name)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count)) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
        return url
    }

    /// A meal of the plan as `household.json` holds it (a note for dinner), with `changes` made.
    /// A line of the use ledger as a file holds it, with `changes`.
    static func stockUse(_ changes: [String: Any]) -> [String: Any] {
        [
            "name": "Milk", "name_folded": "milk", "unit": "bottle", "kind": "dairy_eggs", "quantity": 1, "event": "used",
            "at": "2026-11-20T08:00:00Z",
        ].merging(changes) { $1 }
    }

    static func meal(_ changes: [String: Any]) -> [String: Any] {
        [
            "id": 1, "day": "2026-11-27", "slot": "dinner", "position": 0, "note": "", "created_at": "2026-11-20T08:00:00Z",
            "updated_at": "2026-11-20T08:00:00Z",
        ].merging(changes) { $1 }
    }

    func refusal(_ url: URL, on target: EmptyServer) throws -> String {
        do {
            _ = try target.importer.run(url)
        } catch let error as HouseholdImportError {
            return error.description
        }
        Issue.record("\(url.lastPathComponent) was imported")
        return ""
    }

    @Test("a hostile or wrong archive is refused with one sentence, and nothing is created")
    func hostileArchives() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let target = try EmptyServer()
        defer { target.remove() }

        let document = { (files: [String: [UInt8]]) throws -> [String: Any] in
            try #require(try JSONSerialization.jsonObject(with: Data(files["household.json"]!)) as? [String: Any])
        }
        let encode = { (object: [String: Any]) throws -> [UInt8] in [UInt8](try JSONSerialization.data(withJSONObject: object)) }
        let notZip = source.folder.appending("notes.zip")
        try Data("just text".utf8).write(to: notZip)
        let cases: [(URL, String)] = [
            (try tampered(source, "escape.zip") { $0["../../etc/zaiko-escape"] = Array("x".utf8) }, "unsafe path (../../etc/zaiko-escape)"),
            (try tampered(source, "absolute.zip") { $0["/tmp/zaiko-absolute"] = Array("x".utf8) }, "unsafe path"),
            (try tampered(source, "nodoc.zip") { $0["household.json"] = nil }, "no household.json"),
            (
                try tampered(source, "newer.zip") { files in
                    var object = try document(files)
                    object["format_version"] = 99
                    files["household.json"] = try encode(object)
                }, "format version 99"
            ),
            (
                try tampered(source, "foreign.zip") { files in
                    var object = try document(files)
                    object["format"] = "something-else"
                    files["household.json"] = try encode(object)
                }, "not a Zaiko household export"
            ),
            (
                try tampered(source, "dangling.zip") { files in
                    var object = try document(files)
                    var items = try #require(object["items"] as? [[String: Any]])
                    items[0]["folder_id"] = 987_654
                    object["items"] = items
                    files["household.json"] = try encode(object)
                }, "refers to a folder"
            ),
            (
                try tampered(source, "unknown-unit.zip") { files in
                    var object = try document(files)
                    var items = try #require(object["items"] as? [[String: Any]])
                    items[1]["unit"] = "furlong"
                    object["items"] = items
                    files["household.json"] = try encode(object)
                }, "items.1.unit has a value this server cannot read"
            ),
            (
                try tampered(source, "dangling-keep-rule.zip") { files in
                    var object = try document(files)
                    var items = try #require(object["items"] as? [[String: Any]])
                    items[0]["keep_rule_id"] = 987_654
                    object["items"] = items
                    files["household.json"] = try encode(object)
                }, "an item refers to a keep rule"
            ),
            (
                try tampered(source, "keep-rule-amount.zip") { files in
                    var object = try document(files)
                    object["keep_rules"] = [
                        [
                            "id": 1, "name": "Milk", "name_key": "milk", "unit": "bottle", "minimum": 0, "refill_to": 2, "pack": 1, "kind": "other",
                            "declined": false, "created_at": "2026-11-20T08:00:00Z",
                        ]
                    ]
                    files["household.json"] = try encode(object)
                }, "a keep rule holds an amount"
            ),
            (
                try tampered(source, "dangling-product.zip") { files in
                    var object = try document(files)
                    var recipes = try #require(object["recipes"] as? [[String: Any]])
                    var ingredients = try #require(recipes[0]["ingredients"] as? [[String: Any]])
                    ingredients[0]["product_barcode"] = "0000000000000"
                    recipes[0]["ingredients"] = ingredients
                    object["recipes"] = recipes
                    files["household.json"] = try encode(object)
                }, "an ingredient refers to a product"
            ),
            (
                try tampered(source, "dangling-meal-recipe.zip") { files in
                    var object = try document(files)
                    object["meals"] = [Self.meal(["recipe_id": 987_654, "servings": 2])]
                    files["household.json"] = try encode(object)
                }, "a meal refers to a recipe"
            ),
            (
                try tampered(source, "meal-servings.zip") { files in
                    var object = try document(files)
                    let recipe = try #require((object["recipes"] as? [[String: Any]])?.first?["id"])
                    object["meals"] = [Self.meal(["recipe_id": recipe, "servings": 100])]
                    files["household.json"] = try encode(object)
                }, "a meal holds"
            ),
            (
                try tampered(source, "meal-position.zip") { files in
                    var object = try document(files)
                    object["meals"] = [Self.meal(["position": 1_000_000, "note": "Pancakes"])]
                    files["household.json"] = try encode(object)
                }, "a meal holds"
            ),
            (
                try tampered(source, "meal-slot.zip") { files in
                    var object = try document(files)
                    object["meals"] = [Self.meal(["slot": "brunch", "note": "Pancakes"])]
                    files["household.json"] = try encode(object)
                }, "a meal holds"
            ),
            (
                try tampered(source, "meal-day.zip") { files in
                    var object = try document(files)
                    object["meals"] = [Self.meal(["day": "2026-13-45", "note": "Pancakes"])]
                    files["household.json"] = try encode(object)
                }, "meals.0.day has a value this server cannot read"
            ),
            (
                try tampered(source, "ledger-item.zip") { files in
                    var object = try document(files)
                    object["stock_uses"] = [Self.stockUse(["item_id": 987_654])]
                    files["household.json"] = try encode(object)
                }, "a line of the use ledger refers to an item"
            ),
            (
                try tampered(source, "ledger-event.zip") { files in
                    var object = try document(files)
                    object["stock_uses"] = [Self.stockUse(["event": "eaten_by_the_cat"])]
                    files["household.json"] = try encode(object)
                }, "a line of the use ledger holds"
            ),
            (
                try tampered(source, "ledger-quantity.zip") { files in
                    var object = try document(files)
                    object["stock_uses"] = [Self.stockUse(["quantity": -3])]
                    files["household.json"] = try encode(object)
                }, "a line of the use ledger holds"
            ),
            (
                try tampered(source, "product-shelf-life.zip") { files in
                    var object = try document(files)
                    var products = try #require(object["products"] as? [[String: Any]])
                    products[0]["shelf_life_days"] = 99_999
                    object["products"] = products
                    files["household.json"] = try encode(object)
                }, "a product keeps for a number of days"
            ),
            (
                try tampered(source, "badphoto.zip") { files in
                    let key = try #require(files.keys.first { $0.hasSuffix("-128.jpg") })
                    files[key] = Array("<html>not a photo</html>".utf8)
                }, "not an image"
            ),
            (try tampered(source, "truncated.zip") { $0["household.json"] = Array($0["household.json"]!.prefix(200)) }, "damaged"),
            (notZip, "not a ZIP file"),
        ]
        for (url, expected) in cases {
            let message = try refusal(url, on: target)
            #expect(message.contains(expected), "\(url.lastPathComponent): \(message)")
            #expect(
                message.hasSuffix(".") && !message.contains("\n") && message.range(of: #"[.!?] [A-Z]"#, options: .regularExpression) == nil,
                "one sentence: \(message)")
            #expect(try target.householdCount == 0, "\(url.lastPathComponent) created nothing")
            #expect(target.photoFiles.filter { !$0.hasPrefix(".") }.isEmpty, "\(url.lastPathComponent) left no photo: \(target.photoFiles)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/etc/zaiko-escape"))
    }

    @Test("an import the database refuses at its last rows leaves no household, no row of it and no photo file")
    func refusedAtTheEndLeavesNothing() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let target = try EmptyServer()
        defer { target.remove() }
        let export = try source.export()
        // The history lines go in last, after the household, members, folders, photos, items,
        // products, recipes and cooks: all of those are in the transaction when it fails.
        try target.database.writer.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse_history BEFORE INSERT ON item_event BEGIN SELECT RAISE(ABORT, 'no room'); END")
        }
        #expect(try refusal(export, on: target) == HouseholdImportError.refusedByDatabase("no room").description)
        for table in ["household", "member", "folder", "photo", "item", "product", "recipe", "recipe_ingredient", "cook", "item_event", "single_use_link"] {
            #expect(try target.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") } == 0, "\(table)")
        }
        #expect(target.photoFiles.filter { !$0.hasPrefix(".") }.isEmpty, "photo files left: \(target.photoFiles)")
        // Without the refusal the same file imports whole, history, photos and recipes included.
        try target.database.writer.write { db in try db.execute(sql: "DROP TRIGGER refuse_history") }
        let report = try target.importer.run(export)
        #expect(report.historyLines > 0 && report.photos > 0 && report.recipes > 0)
    }

    @Test("a version 1 export (before recipes) still imports, with no recipes and the default used-up choice")
    func versionOne() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        let target = try EmptyServer()
        defer { target.remove() }
        let old = try tampered(source, "v1.zip") { files in
            var object = try #require(try JSONSerialization.jsonObject(with: Data(files["household.json"]!)) as? [String: Any])
            object["format_version"] = 1
            object["recipes"] = nil
            object["cooks"] = nil
            var household = try #require(object["household"] as? [String: Any])
            household["used_up"] = nil
            household["used_up_folder_id"] = nil
            object["household"] = household
            object["item_events"] = try #require(object["item_events"] as? [[String: Any]]).map { event in
                var event = event
                event["cook_id"] = nil
                return event
            }
            files["household.json"] = [UInt8](try JSONSerialization.data(withJSONObject: object))
        }
        let report = try target.importer.run(old)
        #expect(report.items == 4 && report.recipes == 0)
        let imported = try HouseholdExport(database: target.database, photos: target.photos).document(in: report.household)
        #expect(imported.recipes == [] && imported.cooks == [] && imported.household.usedUp == "trash")
    }
}
