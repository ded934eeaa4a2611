import Foundation
import GRDB

/// Why a file cannot be imported from, told as one sentence.
public struct GrocyImportError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Reads a Grocy database file, opened read-only: Grocy's own file is never changed.
public enum GrocyReader {
    /// The newest Grocy schema this import knows: Grocy 4.6.0 ran migrations 1 to 256.
    public static let knownMigration = 256
    static let knownVersion = "4.6.0"

    /// The columns read, by table: a file without one of them is not a Grocy database this import understands.
    static let columns: [String: [String]] = [
        "locations": ["id", "name", "is_freezer"],
        "quantity_units": ["id", "name", "name_plural"],
        "product_groups": ["id", "name"],
        "products": ["id", "name", "product_group_id", "location_id", "qu_id_stock", "qu_id_purchase", "picture_file_name"],
        "product_barcodes": ["product_id", "barcode"],
        "stock": ["product_id", "amount", "best_before_date", "location_id", "open", "note"],
        "shopping_lists": ["id", "name"],
        "shopping_list": ["shopping_list_id", "product_id", "note", "amount", "qu_id", "done"],
        "recipes": ["id", "name", "type", "description", "base_servings", "product_id", "picture_file_name"],
        "recipes_pos": ["recipe_id", "product_id", "amount", "note"],
    ]

    public static func read(_ file: URL) throws -> GrocyData {
        let name = file.lastPathComponent
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw GrocyImportError("Cannot read \(file.path).") }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try checkSchema(db, name: name)
                return try readData(db)
            }
        } catch let error as GrocyImportError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw GrocyImportError("\(name) is not a Grocy database (it is not an SQLite file at all).")
        } catch let error as DatabaseError {
            throw GrocyImportError("\(name) could not be read as a Grocy database: \(error.message ?? "\(error.resultCode)").")
        }
    }

    static func checkSchema(_ db: Database, name: String) throws {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        guard ["products", "stock", "locations", "quantity_units"].allSatisfy(tables.contains) else {
            throw GrocyImportError("\(name) is not a Grocy database (it has no products, stock, locations and quantity_units tables).")
        }
        // Grocy records every migration it ran; a newer Grocy may store things this import would misread.
        if tables.contains("migrations"), let newest = try Int.fetchOne(db, sql: "SELECT MAX(migration) FROM migrations"), newest > knownMigration {
            throw GrocyImportError(
                "\(name) was made by a Grocy newer than \(knownVersion) (its schema is at migration \(newest), this import knows up to \(knownMigration)).")
        }
        for (table, wanted) in columns.sorted(by: { $0.key < $1.key }) {
            let present = tables.contains(table) ? Set(try db.columns(in: table).map(\.name)) : []
            let missing = present.isEmpty ? "table \(table)" : wanted.first { !present.contains($0) }.map { "column \(table).\($0)" }
            if let missing {
                throw GrocyImportError(
                    "\(name) has no \(missing): it comes from a Grocy older than 4.0; open it once with Grocy \(knownVersion), then import.")
            }
        }
    }

    static func readData(_ db: Database) throws -> GrocyData {
        var data = GrocyData()
        data.locations = try Row.fetchAll(db, sql: "SELECT id, name, is_freezer FROM locations ORDER BY id").map {
            GrocyData.Location(id: $0["id"], name: $0["name"], isFreezer: ($0["is_freezer"] as Int?) == 1)
        }
        data.units = try Row.fetchAll(db, sql: "SELECT id, name, name_plural FROM quantity_units ORDER BY id").map {
            GrocyData.Unit(id: $0["id"], name: $0["name"], pluralName: $0["name_plural"])
        }
        data.products = try Row.fetchAll(
            db,
            sql: """
                SELECT p.id, p.name, g.name AS group_name, p.location_id, p.qu_id_stock, p.picture_file_name
                FROM products p LEFT JOIN product_groups g ON g.id = p.product_group_id ORDER BY p.id
                """
        ).map {
            GrocyData.Product(
                id: $0["id"], name: $0["name"], groupName: $0["group_name"], locationId: $0["location_id"], stockUnitId: $0["qu_id_stock"],
                pictureFileName: $0["picture_file_name"])
        }
        data.barcodes = try Row.fetchAll(db, sql: "SELECT product_id, barcode FROM product_barcodes ORDER BY id").map {
            GrocyData.Barcode(productId: $0["product_id"], code: $0["barcode"])
        }
        data.stock = try Row.fetchAll(
            db, sql: "SELECT product_id, CAST(amount AS REAL) AS amount, best_before_date, location_id, open, note FROM stock ORDER BY best_before_date, id"
        ).map {
            GrocyData.StockEntry(
                productId: $0["product_id"], amount: $0["amount"] ?? 0, bestBefore: ($0["best_before_date"] as String?).map { String($0.prefix(10)) },
                locationId: $0["location_id"], isOpen: ($0["open"] as Int?) == 1, note: $0["note"])
        }
        data.shoppingLists = try Row.fetchAll(db, sql: "SELECT id, name FROM shopping_lists ORDER BY id").map {
            GrocyData.ShoppingList(id: $0["id"], name: $0["name"])
        }
        data.shoppingItems = try Row.fetchAll(
            db, sql: "SELECT shopping_list_id, product_id, note, CAST(amount AS REAL) AS amount, qu_id, done FROM shopping_list ORDER BY id"
        ).map {
            GrocyData.ShoppingItem(
                listId: $0["shopping_list_id"] ?? 1, productId: $0["product_id"], note: $0["note"], amount: $0["amount"] ?? 0,
                unitId: $0["qu_id"], isDone: ($0["done"] as Int?) == 1)
        }
        // Grocy makes recipes of its own for each meal plan day and week: those are not the person's.
        var ingredients: [Int64: [GrocyData.Ingredient]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT recipe_id, product_id, CAST(amount AS REAL) AS amount, note FROM recipes_pos WHERE product_id IS NOT NULL ORDER BY id")
        {
            ingredients[row["recipe_id"], default: []].append(GrocyData.Ingredient(productId: row["product_id"], amount: row["amount"] ?? 0, note: row["note"]))
        }
        data.recipes = try Row.fetchAll(
            db,
            sql: """
                SELECT id, name, description, CAST(base_servings AS REAL) AS servings, product_id, picture_file_name FROM recipes
                WHERE IFNULL(type, 'normal') = 'normal' ORDER BY id
                """
        ).map {
            GrocyData.Recipe(
                id: $0["id"], name: $0["name"], description: $0["description"] ?? "", servings: $0["servings"] ?? 1, ingredients: ingredients[$0["id"]] ?? [],
                producesProductId: $0["product_id"], pictureFileName: $0["picture_file_name"])
        }
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        for (table, what) in [
            ("chores", "chores"), ("batteries", "batteries"), ("tasks", "tasks"), ("equipment", "equipment"), ("meal_plan", "meal plan entries"),
        ]
        where tables.contains(table) {
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            if count > 0 { data.otherCounts.append((what, count)) }
        }
        return data
    }
}
