import Exchange
import Foundation
import GRDB
import Imaging
import TestSupport
import Testing

@testable import Inventory

/// `zaiko import grocy` on a database built from Grocy 4.6.0's schema (see GrocyFixture).
@Suite struct GrocyImportTests {
    /// An empty Zaiko server (no household yet) with its photo folder.
    struct Server {
        let database: AppDatabase
        let folder: TemporaryFolder
        let photos: PhotoStore

        init() throws {
            database = try AppDatabase.inMemory()
            folder = try TemporaryFolder("zaiko-grocy-server")
            photos = try PhotoStore(directory: folder.appending("photos"), database: database)
        }

        func importing(_ grocy: GrocyFixture, pictures: Bool = true, name: String = "From Grocy") throws -> GrocyImportResult {
            try GrocyImport(database: database, photos: photos).run(file: grocy.file, pictures: pictures ? grocy.pictures : nil, householdName: name)
        }

        func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
            try database.writer.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
        }

        func count(_ table: String) throws -> Int {
            try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        }

        var photoFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: photos.directory.path)) ?? [] }

        /// The household's items by name.
        func items(_ householdId: Household.ID) throws -> StoredItems {
            StoredItems(
                rows: Dictionary(
                    grouping: try rows(
                        "SELECT i.*, f.name AS folder_name FROM item i JOIN folder f ON f.id = i.folder_id WHERE i.household_id = ? ORDER BY i.id",
                        [householdId]),
                    by: { $0["name"] as String }))
        }

        func remove() { folder.remove() }
    }

    /// Items by name (several can share one), read one column at a time.
    struct StoredItems {
        let rows: [String: [Row]]
        func count(_ name: String) -> Int { rows[name]?.count ?? 0 }
        func row(_ name: String, in folder: String? = nil) -> Row? {
            rows[name]?.first { row in folder.map { (row["folder_name"] as String) == $0 } ?? true }
        }
        func text(_ name: String, _ column: String, in folder: String? = nil) -> String? {
            guard let row = row(name, in: folder) else { return nil }
            return row[column]
        }
        func number(_ name: String, _ column: String, in folder: String? = nil) -> Double? {
            guard let row = row(name, in: folder) else { return nil }
            return row[column]
        }
        func texts(_ name: String, _ column: String) -> [String?] {
            (rows[name] ?? []).map { row -> String? in row[column] }
        }
    }

    @Test func countsPerKindAndTheFoldersTheyAreIn() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let report = result.report
        #expect(report.stockLists == 3)
        #expect(report.shoppingLists == 2)
        #expect(report.stockItems == 7)
        #expect(report.shoppingItems == 3)
        #expect(report.products == 3)
        #expect(report.photos == 1)

        let folders = try server.rows(
            "SELECT name, kind, icon, item_count FROM folder WHERE household_id = ? ORDER BY position", [result.household.householdId])
        #expect(folders.map { $0["name"] as String } == ["Fridge", "Keller-Truhe", "Pantry", "Shopping list", "Drogerie"])
        #expect(folders.map { $0["kind"] as String } == ["stock", "stock", "stock", "shopping", "shopping"])
        // Grocy's freezer flag gives the freezer icon though the name says nothing of it.
        #expect(folders.map { $0["icon"] as String } == ["fridge", "freezer", "pantry", "cart", "cart"])
        #expect(folders.map { $0["item_count"] as Int } == [3, 2, 2, 2, 1])

        let items = try server.items(result.household.householdId)
        #expect(items.count("Milk") == 2)
        #expect(items.text("Minced beef", "folder_name") == "Keller-Truhe")
        #expect(items.text("Minced beef", "kind") == "meat")
        #expect(items.text("Milk", "kind") == "dairy_eggs")
        #expect(items.texts("Orange juice", "kind") == ["drinks", "drinks"])
        #expect(items.text("Frozen peas", "kind") == "other")
        // Every item's history starts with where it came from.
        #expect(try server.count("item_event") == 10)
    }

    @Test func theOwnerInvitationJoinsTheNewHousehold() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy, name: "Müllers")
        let accounts = Accounts(database: server.database, hasher: CountingHasher())
        let session = try accounts.acceptInvitation(token: result.invitationToken, name: "Anna", login: "anna", password: Fixture.password, userAgent: "test")
        let signedIn = try #require(try accounts.session(token: session))
        #expect(signedIn.household == result.household)
        #expect(signedIn.householdName == "Müllers")
        #expect(signedIn.role == .owner)
    }

    @Test func barcodesBecomeProductsAndInvalidOnesAreReported() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let products = try server.rows(
            "SELECT barcode, name, unit, kind, folder_id FROM product WHERE household_id = ? ORDER BY barcode", [result.household.householdId])
        // The UPC-A is kept in its EAN-13 spelling, as a scanner's would be.
        #expect(products.map { $0["barcode"] as String } == ["0036000291452", "4006381333931", "96385074"])
        #expect(products.map { $0["name"] as String } == ["Milk", "Milk", "Minced beef"])
        #expect(products.map { $0["unit"] as String } == ["ml", "ml", "g"])
        let items = try server.items(result.household.householdId)
        #expect(items.texts("Milk", "barcode") == ["4006381333931", "4006381333931"])
        #expect(items.text("Frozen peas", "barcode") == nil)

        let invalid = try #require(result.report.skipped(.invalidBarcode))
        #expect(invalid.count == 2)
        #expect(invalid.examples == ["4006381333932 (Frozen peas)", "SHOP-42 (Orange juice)"])
        #expect(result.report.skipped(.productWithoutBarcode)?.examples == ["Salt", "Umeboshi"])
    }

    @Test func unitsAreMappedByNameAndTheUnmappableOneIsReported() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let mapping = Dictionary(uniqueKeysWithValues: result.report.units.map { ($0.grocyName, $0.zaikoUnit) })
        #expect(
            mapping == [
                "Piece": "piece", "Gramm": "g", "Kilogram": "kg", "Milliliter": "ml", "Prise": nil, "Flasche": "bottle", "個": "piece",
            ])
        // Pack is defined in Grocy but nothing uses it: not in the report.
        #expect(!result.report.units.contains { $0.grocyName == "Pack" })
        #expect(result.report.lines.contains("  Prise → piece (no Zaiko unit fits; amounts kept as they were), 1 use(s)"))

        let items = try server.items(result.household.householdId)
        #expect(items.text("Salt", "unit") == "piece")
        #expect(items.number("Salt", "quantity") == 3)
        #expect(items.text("Frozen peas", "unit") == "kg")
        #expect(items.number("Frozen peas", "quantity") == 0.75)
        #expect(items.number("Minced beef", "quantity") == 500)
        #expect(items.number("Umeboshi", "quantity") == 12)
        #expect(items.text("Bread rolls", "unit") == "piece")
        #expect(items.number("Bread rolls", "quantity") == 6)
    }

    @Test func dueDatesAndOpenedStatus() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let items = try server.items(result.household.householdId)
        #expect(items.texts("Milk", "due") == ["2026-12-01", "2026-12-05"])
        #expect(items.texts("Milk", "status") == ["opened", "unopened"])
        // 2999-12-31 is Grocy's "never expires".
        #expect(items.row("Frozen peas") != nil)
        #expect(items.text("Frozen peas", "due") == nil)
        #expect(items.text("Salt", "due") == nil)
        #expect(items.text("Minced beef", "due") == "2027-01-15")
        #expect(items.text("Minced beef", "status") == "unopened")
        #expect(items.text("Orange juice", "status", in: "Fridge") == "opened")
    }

    @Test func shoppingListsKeepTheirOpenLines() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let items = try server.items(result.household.householdId)
        #expect(items.number("Orange juice", "quantity", in: "Shopping list") == 3)
        #expect(items.text("Orange juice", "unit", in: "Shopping list") == "bottle")
        #expect(items.row("Orange juice", in: "Shopping list") != nil)
        #expect(items.text("Orange juice", "due", in: "Shopping list") == nil)
        #expect(items.text("Toothpaste", "folder_name") == "Drogerie")
        #expect(items.number("Toothpaste", "quantity") == 1)
        // The salt was already ticked off: only the stock entry is imported.
        #expect(items.count("Salt") == 1)
        #expect(result.report.skipped(.doneShoppingLine)?.examples == ["Salt"])
    }

    @Test func linesWithoutAListGetGrocysDefaultListAndEmptyLinesAreReported() throws {
        // Deleting a list deletes its lines (Grocy's trigger); these two were written after.
        let grocy = try GrocyFixture(
            extraSQL: """
                DELETE FROM shopping_lists;
                INSERT INTO shopping_list (product_id, note, amount, shopping_list_id) VALUES (NULL, 'Eggs', 10, 1), (99, NULL, 1, 1);
                """)
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        #expect(result.report.shoppingLists == 1)
        #expect(result.report.shoppingItems == 1)
        let items = try server.items(result.household.householdId)
        #expect(items.text("Eggs", "folder_name") == "Shopping list")
        #expect(result.report.skipped(.emptyShoppingLine)?.count == 1)
    }

    @Test func picturesGoThroughThePhotoPipelineAndProblemsAreReported() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let items = try server.items(result.household.householdId)
        let keys = Set(items.texts("Orange juice", "photo").compactMap { $0 })
        #expect(items.count("Orange juice") == 2)
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        // Only products with a valid barcode are kept; the juice's barcode was not one.
        #expect(
            try server.rows("SELECT photo FROM product WHERE household_id = ?", [result.household.householdId]).allSatisfy { row in
                (row["photo"] as String?) == nil
            })
        // Served as an upload's would be: both sizes, squared, in the household's photos only.
        for size in PhotoSize.allCases {
            let bytes = [UInt8](try Data(contentsOf: try server.photos.file(key: key, size: size, in: result.household)))
            #expect(try PhotoNormalizer.pixelSize(bytes) == PixelSize(width: size.rawValue, height: size.rawValue))
            #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        }
        #expect(server.photoFiles.count == 2)
        #expect(items.row("Umeboshi") != nil)
        #expect(items.text("Umeboshi", "photo") == nil)
        #expect(result.report.skipped(.missingPicture)?.examples == ["Salt (G7kd83_salt.jpg)"])
        #expect(result.report.skipped(.undecodablePicture)?.examples == ["Umeboshi (Pw2m9v_umeboshi.png)"])
    }

    @Test func withoutThePictureFolderPicturesAreReportedNotImported() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy, pictures: false)
        #expect(result.report.photos == 0)
        #expect(result.report.skipped(.picturesWithoutFolder)?.count == 3)
        #expect(server.photoFiles.isEmpty)
    }

    @Test func recipesComeWithTheirIngredientsNamedLikeTheProductsAndChoresAreReportedAsSkipped() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let report = result.report
        // Grocy's own meal-plan recipes are not counted: only the person's.
        #expect(report.recipes == 2 && report.ingredients == 4)
        #expect(report.lines.contains { $0.contains("2 recipe(s) with 4 ingredient line(s)") })
        #expect(report.skipped(.recipePictures)?.examples == ["Umeboshi juice"])
        #expect(report.skipped(.otherData("chores"))?.count == 1)
        #expect(report.skipped(.otherData("meal plan entries"))?.count == 1)
        let (pancakes, lines, juice) = try server.database.writer.read { db in
            let pancakes = try #require(try Recipe.filter(Column("name") == "Pancakes").fetchOne(db))
            let lines = try RecipeIngredient.filter(Column("recipe_id") == pancakes.id!).order(Column("position")).fetchAll(db)
            let juice = try #require(try Recipe.filter(Column("name") == "Umeboshi juice").fetchOne(db))
            return (pancakes, lines, juice)
        }
        #expect(pancakes.servings == 4)
        #expect(pancakes.steps == "Mix the flour & milk.\n\nRest 10 minutes.\nFry.")
        // Milk 250 ml, linked to its product (it has a barcode); a pinch of salt; minced beef with no amount.
        #expect(lines.map(\.name) == ["Milk", "Salt", "Minced beef"])
        #expect(lines.map(\.amount) == [250, 1, nil] && lines.map(\.unit) == ["ml", "pinch", nil])
        #expect(lines[0].productId != nil && lines[1].productId == nil)
        #expect(juice.produce?.name == "Orange juice" && juice.produce?.unit == .bottle)
    }

    @Test func aFailedTransactionLeavesNoPhotoFilesAndNoHousehold() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        // The last stock entry is refused (as a full disk would refuse it): pictures, folders and
        // items before it were already written in the transaction.
        try server.database.writer.write { db in
            try db.execute(
                sql: "CREATE TEMP TRIGGER refuse_umeboshi BEFORE INSERT ON item WHEN NEW.name = 'Umeboshi' BEGIN SELECT RAISE(ABORT, 'no room'); END")
        }
        #expect(throws: DatabaseError.self) { try server.importing(grocy) }
        for table in ["household", "folder", "item", "product", "photo", "single_use_link"] { #expect(try server.count(table) == 0, "\(table)") }
        #expect(server.photoFiles.isEmpty)
    }

    @Test(arguments: [
        ("not-sqlite", "grocy.db is not a Grocy database (it is not an SQLite file at all)."),
        ("zaiko", "grocy.db is not a Grocy database (it has no products, stock, locations and quantity_units tables)."),
        ("newer", "grocy.db was made by a Grocy newer than 4.6.0 (its schema is at migration 257, this import knows up to 256)."),
        ("older", "grocy.db has no table product_barcodes: it comes from a Grocy older than 4.0; open it once with Grocy 4.6.0, then import."),
    ])
    func refusedFilesCreateNothing(kind: String, sentence: String) throws {
        let server = try Server()
        defer { server.remove() }
        let grocy: GrocyFixture
        switch kind {
        case "newer": grocy = try GrocyFixture(extraSQL: "INSERT INTO migrations (migration) VALUES (257)")
        // Grocy kept one barcode per product in products.barcode before product_barcodes existed.
        case "older": grocy = try GrocyFixture(extraSQL: "DROP TABLE product_barcodes")
        default: grocy = try GrocyFixture()
        }
        defer { grocy.remove() }
        switch kind {
        case "not-sqlite":
            try Data("id;name\n1;Milk\n".utf8).write(to: grocy.file)
        case "zaiko":
            try FileManager.default.removeItem(at: grocy.file)
            try AppDatabase.open(at: grocy.file).close()
        default: break
        }
        let error = try #require(throws: GrocyImportError.self) { try server.importing(grocy) }
        #expect(error.description == sentence)
        #expect(try server.count("household") == 0)
        #expect(try server.count("folder") == 0)
        #expect(server.photoFiles.isEmpty)
    }

    @Test func theGrocyFileIsOnlyRead() throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let before = try Data(contentsOf: grocy.file)
        _ = try server.importing(grocy)
        #expect(try Data(contentsOf: grocy.file) == before)
        #expect(!FileManager.default.fileExists(atPath: grocy.file.path + "-wal"))
    }
}
