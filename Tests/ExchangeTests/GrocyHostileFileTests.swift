import Exchange
import Foundation
import GRDB
import Inventory
import TestSupport
import Testing

/// Grocy files that are not as Grocy writes them (issue 22, items 2 and 9): a bad file gets one
/// sentence, never a crash; numbers past what Zaiko keeps are bounded; a picture that is a symbolic
/// link is not followed out of the picture folder.
extension GrocyImportTests {
    /// Grocy's schema with the NOT NULL taken off names, so a file can hold what Grocy never writes.
    static func nullableNames(_ schema: String) -> String {
        schema.replacingOccurrences(of: "name TEXT NOT NULL UNIQUE", with: "name TEXT UNIQUE")
    }

    @Test(arguments: [
        ("UPDATE products SET name = NULL WHERE id = 4", "in its products table, row 4's name is empty (NULL)"),
        ("UPDATE locations SET name = NULL WHERE id = 3", "in its locations table, row 3's name is empty (NULL)"),
        ("UPDATE stock SET product_id = 'milk' WHERE id = 1", "in its stock table, a row's product_id holds"),
        ("UPDATE quantity_units SET name = NULL WHERE id = 6", "in its quantity_units table, row 6's name is empty (NULL)"),
    ])
    func aValueGrocyNeverWritesIsOneSentence(sql: String, problem: String) throws {
        let grocy = try GrocyFixture(extraSQL: sql, schemaEdit: Self.nullableNames)
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let error = try #require(throws: GrocyImportError.self) { try server.importing(grocy) }
        #expect(error.description.hasPrefix("grocy.db cannot be imported: \(problem)"), "\(error.description)")
        #expect(error.description.hasSuffix("; Grocy itself never writes that."))
        #expect(!error.description.contains("\n"))
        #expect(try server.count("household") == 0)
    }

    /// Amounts and servings past Int64 (and SQLite's infinity, which 9e999 becomes) are bounded.
    @Test func hugeAmountsAndServingsAreBounded() throws {
        let grocy = try GrocyFixture(
            extraSQL: """
                UPDATE stock SET amount = 1e30 WHERE id = 1;
                UPDATE stock SET amount = 9e999 WHERE id = 3;
                UPDATE stock SET amount = -9e999 WHERE id = 4;
                UPDATE shopping_list SET amount = 1e20 WHERE note = 'Bread rolls';
                UPDATE recipes SET base_servings = 1e20 WHERE name = 'Pancakes';
                UPDATE recipes SET base_servings = 9e999 WHERE name = 'Umeboshi juice';
                UPDATE recipes_pos SET amount = 1e300 WHERE amount = 250;
                """)
        defer { grocy.remove() }
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let items = try server.items(result.household.householdId)
        #expect(items.number("Milk", "quantity") == Quantity.maximum)
        #expect(items.number("Minced beef", "quantity") == 0, "infinity is no amount")
        #expect(items.number("Frozen peas", "quantity") == 0)
        #expect(items.number("Bread rolls", "quantity") == Quantity.maximum)
        let recipes = try server.rows("SELECT name, servings FROM recipe WHERE household_id = ? ORDER BY name", [result.household.householdId])
        #expect(recipes.map { $0["servings"] as Int } == [100, 1])
        let milk = try server.rows("SELECT amount FROM recipe_ingredient WHERE name = 'Milk'")
        #expect(milk.map { $0["amount"] as Double? } == [Quantity.maximum])
    }

    /// A picture named in the file that is a symbolic link (to a picture outside the folder, or
    /// anywhere) is not read: reported as missing, like a file that is not there.
    @Test(arguments: [true, false])
    func aPictureThatIsASymbolicLinkIsNotFollowed(absolute: Bool) throws {
        let grocy = try GrocyFixture()
        defer { grocy.remove() }
        let outside = grocy.folder.appending("outside.jpg")
        try Data(GrocyFixture.jpeg(width: 320, height: 240)).write(to: outside)
        // The salt's picture, missing in the fixture, is a link out of the picture folder.
        try FileManager.default.createSymbolicLink(
            atPath: grocy.pictures.appendingPathComponent("G7kd83_salt.jpg").path, withDestinationPath: absolute ? outside.path : "../outside.jpg")
        #expect(FileManager.default.contents(atPath: grocy.pictures.appendingPathComponent("G7kd83_salt.jpg").path) != nil, "the link works")
        let server = try Server()
        defer { server.remove() }
        let result = try server.importing(grocy)
        let items = try server.items(result.household.householdId)
        #expect(items.text("Salt", "photo") == nil)
        #expect(items.text("Orange juice", "photo") != nil, "a plain file in the folder is still read")
        #expect(result.report.skipped(.missingPicture)?.examples == ["Salt (G7kd83_salt.jpg)"])
        #expect(result.report.photos == 1)
    }
}
