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
                return try readData(db, name: name)
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

    static func readData(_ db: Database, name: String) throws -> GrocyData {
        /// The rows of `sql`, read from `table` (named in the sentence when a value is not what Grocy writes).
        func rows(_ table: String, _ sql: String) throws -> [GrocyRow] {
            try Row.fetchAll(db, sql: sql).map { GrocyRow(row: $0, table: table, file: name) }
        }
        var data = GrocyData()
        data.locations = try rows("locations", "SELECT id, name, is_freezer FROM locations ORDER BY id").map {
            GrocyData.Location(id: try $0.required("id"), name: try $0.required("name"), isFreezer: (try $0.optional("is_freezer") as Int?) == 1)
        }
        data.units = try rows("quantity_units", "SELECT id, name, name_plural FROM quantity_units ORDER BY id").map {
            GrocyData.Unit(id: try $0.required("id"), name: try $0.required("name"), pluralName: try $0.optional("name_plural"))
        }
        data.products = try rows(
            "products",
            """
            SELECT p.id, p.name, g.name AS group_name, p.location_id, p.qu_id_stock, p.picture_file_name
            FROM products p LEFT JOIN product_groups g ON g.id = p.product_group_id ORDER BY p.id
            """
        ).map {
            GrocyData.Product(
                id: try $0.required("id"), name: try $0.required("name"), groupName: try $0.optional("group_name"), locationId: try $0.optional("location_id"),
                stockUnitId: try $0.optional("qu_id_stock"), pictureFileName: try $0.optional("picture_file_name"))
        }
        data.barcodes = try rows("product_barcodes", "SELECT product_id, barcode FROM product_barcodes ORDER BY id").map {
            GrocyData.Barcode(productId: try $0.required("product_id"), code: try $0.required("barcode"))
        }
        data.stock = try rows(
            "stock", "SELECT product_id, CAST(amount AS REAL) AS amount, best_before_date, location_id, open, note FROM stock ORDER BY best_before_date, id"
        ).map {
            GrocyData.StockEntry(
                productId: try $0.required("product_id"), amount: try $0.optional("amount") ?? 0,
                bestBefore: (try $0.optional("best_before_date") as String?).map { String($0.prefix(10)) }, locationId: try $0.optional("location_id"),
                isOpen: (try $0.optional("open") as Int?) == 1, note: try $0.optional("note"))
        }
        data.shoppingLists = try rows("shopping_lists", "SELECT id, name FROM shopping_lists ORDER BY id").map {
            GrocyData.ShoppingList(id: try $0.required("id"), name: try $0.required("name"))
        }
        data.shoppingItems = try rows(
            "shopping_list", "SELECT shopping_list_id, product_id, note, CAST(amount AS REAL) AS amount, qu_id, done FROM shopping_list ORDER BY id"
        ).map {
            GrocyData.ShoppingItem(
                listId: try $0.optional("shopping_list_id") ?? 1, productId: try $0.optional("product_id"), note: try $0.optional("note"),
                amount: try $0.optional("amount") ?? 0, unitId: try $0.optional("qu_id"), isDone: (try $0.optional("done") as Int?) == 1)
        }
        // Grocy makes recipes of its own for each meal plan day and week: those are not the person's.
        var ingredients: [Int64: [GrocyData.Ingredient]] = [:]
        for row in try rows(
            "recipes_pos", "SELECT recipe_id, product_id, CAST(amount AS REAL) AS amount, note FROM recipes_pos WHERE product_id IS NOT NULL ORDER BY id")
        {
            ingredients[try row.required("recipe_id"), default: []].append(
                GrocyData.Ingredient(productId: try row.required("product_id"), amount: try row.optional("amount") ?? 0, note: try row.optional("note")))
        }
        data.recipes = try rows(
            "recipes",
            """
            SELECT id, name, description, CAST(base_servings AS REAL) AS servings, product_id, picture_file_name FROM recipes
            WHERE IFNULL(type, 'normal') = 'normal' ORDER BY id
            """
        ).map {
            let id: Int64 = try $0.required("id")
            return GrocyData.Recipe(
                id: id, name: try $0.required("name"), description: try $0.optional("description") ?? "", servings: try $0.optional("servings") ?? 1,
                ingredients: ingredients[id] ?? [], producesProductId: try $0.optional("product_id"), pictureFileName: try $0.optional("picture_file_name"))
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

/// One row of a table of a Grocy file, read so that a value Grocy never writes (a NULL name, text
/// where an id belongs) is one sentence naming the file, table, row and column, never a crash.
struct GrocyRow {
    let row: Row
    let table: String
    let file: String

    /// A value the row must have.
    func required<Value: DatabaseValueConvertible>(_ column: String) throws -> Value {
        guard let value: Value = try optional(column) else { throw problem(column, "is empty (NULL)") }
        return value
    }

    /// A value the row may leave empty; one of another kind is still refused.
    func optional<Value: DatabaseValueConvertible>(_ column: String) throws -> Value? {
        do {
            return try row.decode(Value?.self, forColumn: column)
        } catch {
            throw problem(column, "holds \(row[column] as DatabaseValue), which is not \(Value.self == String.self ? "text" : "a number")")
        }
    }

    private func problem(_ column: String, _ what: String) -> GrocyImportError {
        let which = (row["id"] as DatabaseValue?).map { "row \($0)" } ?? "a row"
        return GrocyImportError("\(file) cannot be imported: in its \(table) table, \(which)'s \(column) \(what); Grocy itself never writes that.")
    }
}
