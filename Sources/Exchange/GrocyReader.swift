import Foundation
import GRDB
import Inventory

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
        do {
            return try DatabaseFiles.read(file) { db in
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
        let tables = Set(try Table("sqlite_master").select(Column("name"), as: String.self).filter(Column("type") == "table").fetchAll(db))
        guard ["products", "stock", "locations", "quantity_units"].allSatisfy(tables.contains) else {
            throw GrocyImportError("\(name) is not a Grocy database (it has no products, stock, locations and quantity_units tables).")
        }
        // Grocy records every migration it ran; a newer Grocy may store things this import would misread.
        if tables.contains("migrations"), let newest = try Table("migrations").select(max(Column("migration")), as: Int.self).fetchOne(db),
            newest > knownMigration
        {
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

    /// What the import takes from the file, read through GRDB's query interface: Grocy's file is
    /// not Zaiko's database (Inventory owns that one), and the requests read as what they take.
    static func readData(_ db: Database, name: String) throws -> GrocyData {
        /// The rows `request` reads from `table` (named in the sentence when a value is not what Grocy writes).
        func rows(_ table: String, _ request: QueryInterfaceRequest<Row>) throws -> [GrocyRow] {
            try request.fetchAll(db).map { GrocyRow(row: $0, table: table, file: name) }
        }
        /// `table`'s `columns`, in the order of its ids.
        func rows(_ table: String, _ columns: [any SQLSelectable], order: [any SQLOrderingTerm] = [Column("id")]) throws -> [GrocyRow] {
            try rows(table, Table(table).select(columns).order(order))
        }
        /// A number column read as a real number whatever Grocy stored it as.
        func real(_ column: String) -> any SQLSelectable { cast(Column(column), as: .real).forKey(column) }
        var data = GrocyData()
        data.locations = try rows("locations", [Column("id"), Column("name"), Column("is_freezer")]).map {
            GrocyData.Location(id: try $0.required("id"), name: try $0.required("name"), isFreezer: (try $0.optional("is_freezer") as Int?) == 1)
        }
        data.units = try rows("quantity_units", [Column("id"), Column("name"), Column("name_plural")]).map {
            GrocyData.Unit(id: try $0.required("id"), name: try $0.required("name"), pluralName: try $0.optional("name_plural"))
        }
        let products = Table("products")
        let group = products.belongsTo(Table("product_groups"), using: ForeignKey(["product_group_id"], to: ["id"]))
        data.products = try rows(
            "products",
            products.select(Column("id"), Column("name"), Column("location_id"), Column("qu_id_stock"), Column("picture_file_name"))
                .annotated(withOptional: group.select(Column("name").forKey("group_name"))).order(Column("id"))
        ).map {
            GrocyData.Product(
                id: try $0.required("id"), name: try $0.required("name"), groupName: try $0.optional("group_name"), locationId: try $0.optional("location_id"),
                stockUnitId: try $0.optional("qu_id_stock"), pictureFileName: try $0.optional("picture_file_name"))
        }
        data.barcodes = try rows("product_barcodes", [Column("product_id"), Column("barcode")]).map {
            GrocyData.Barcode(productId: try $0.required("product_id"), code: try $0.required("barcode"))
        }
        data.stock = try rows(
            "stock", [Column("product_id"), real("amount"), Column("best_before_date"), Column("location_id"), Column("open"), Column("note")],
            order: [Column("best_before_date"), Column("id")]
        ).map {
            GrocyData.StockEntry(
                productId: try $0.required("product_id"), amount: try $0.optional("amount") ?? 0,
                bestBefore: (try $0.optional("best_before_date") as String?).map { String($0.prefix(10)) }, locationId: try $0.optional("location_id"),
                isOpen: (try $0.optional("open") as Int?) == 1, note: try $0.optional("note"))
        }
        data.shoppingLists = try rows("shopping_lists", [Column("id"), Column("name")]).map {
            GrocyData.ShoppingList(id: try $0.required("id"), name: try $0.required("name"))
        }
        data.shoppingItems = try rows(
            "shopping_list", [Column("shopping_list_id"), Column("product_id"), Column("note"), real("amount"), Column("qu_id"), Column("done")]
        ).map {
            GrocyData.ShoppingItem(
                listId: try $0.optional("shopping_list_id") ?? 1, productId: try $0.optional("product_id"), note: try $0.optional("note"),
                amount: try $0.optional("amount") ?? 0, unitId: try $0.optional("qu_id"), isDone: (try $0.optional("done") as Int?) == 1)
        }
        // Grocy makes recipes of its own for each meal plan day and week: those are not the person's.
        var ingredients: [Int64: [GrocyData.Ingredient]] = [:]
        let positions = Table("recipes_pos").select(Column("recipe_id"), Column("product_id"), real("amount"), Column("note"))
        for row in try rows("recipes_pos", positions.filter(Column("product_id") != nil).order(Column("id"))) {
            ingredients[try row.required("recipe_id"), default: []].append(
                GrocyData.Ingredient(productId: try row.required("product_id"), amount: try row.optional("amount") ?? 0, note: try row.optional("note")))
        }
        let recipes = Table("recipes").select(
            Column("id"), Column("name"), Column("description"), cast(Column("base_servings"), as: .real).forKey("servings"), Column("product_id"),
            Column("picture_file_name"))
        data.recipes = try rows("recipes", recipes.filter((Column("type") ?? "normal") == "normal").order(Column("id"))).map {
            let id: Int64 = try $0.required("id")
            return GrocyData.Recipe(
                id: id, name: try $0.required("name"), description: try $0.optional("description") ?? "", servings: try $0.optional("servings") ?? 1,
                ingredients: ingredients[id] ?? [], producesProductId: try $0.optional("product_id"), pictureFileName: try $0.optional("picture_file_name"))
        }
        for (table, what) in [
            ("chores", "chores"), ("batteries", "batteries"), ("tasks", "tasks"), ("equipment", "equipment"), ("meal_plan", "meal plan entries"),
        ]
        where try db.tableExists(table) {
            let count = try Table(table).fetchCount(db)
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
