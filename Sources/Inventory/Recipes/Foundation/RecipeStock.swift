import Foundation
import GRDB
import Tagged

/// A stock item an ingredient matched, with its folder and how its due date stands.
public struct StockMatch: Sendable, Equatable {
    public let itemId: Item.ID
    public let name: String
    public let quantity: Double
    /// An item unit code.
    public let unit: String
    public let due: CalendarDay?
    public let status: String?
    public let folderId: Folder.ID
    public let folderName: String
    /// The folder's starter key while unrenamed (see `Folder.starter`).
    public let folderStarter: String?
    public let dueState: DueState

    public var isExpired: Bool { dueState == .expired }
    /// Expired or due within the household's window: what "use soon" means on the lists.
    public var isUrgent: Bool { dueState == .expired || dueState == .today || dueState == .soon }
}

/// The stock items recipes' ingredients match, for many recipes at once: two set-based queries
/// (by folded name, by product), whatever the number of recipes or ingredients.
/// Matching: stock lists only (not shopping lists, not the trash); an ingredient linked to a
/// product matches the items with the product's barcode, any other matches the items whose name
/// folds (`SearchText.fold`: NFKC, lower case) to the ingredient's folded name.
/// Order within an ingredient: earliest due first (no due date last), opened before unopened,
/// then oldest item: the order cooking takes them in.
public struct RecipeStock: Sendable {
    /// Folded ingredient name → matches.
    public let byName: [String: [StockMatch]]
    /// Product id → matches.
    public let byProduct: [Product.ID: [StockMatch]]

    public init(byName: [String: [StockMatch]], byProduct: [Product.ID: [StockMatch]]) {
        self.byName = byName
        self.byProduct = byProduct
    }

    /// Every match of an ingredient, expired ones included, in taking order.
    public func matches(for ingredient: RecipeIngredient) -> [StockMatch] {
        if let productId = ingredient.productId { return byProduct[productId] ?? [] }
        return byName[ingredient.nameFolded] ?? []
    }

    /// Which recipes' ingredients to match.
    public enum Scope: Sendable {
        /// Every recipe of the household (outside the trash, and in it).
        case household
        case recipes([Recipe.ID])
        /// These folded names (ingredients without a product) and these products, known already
        /// (`RecipeCatalog`): nothing to look up among the ingredients.
        case given(names: [String], products: [Product.ID])
    }

    static let columns = """
        i.id, i.name, i.quantity, i.unit, i.due, i.status, i.folder_id, f.name AS folder_name, f.starter AS folder_starter
        """
    static let order = "ORDER BY i.due IS NULL, i.due, i.status IS NOT 'opened', i.id"

    /// The matches of the ingredients in `scope`, read in one transaction.
    static func read(_ db: Database, householdId: Household.ID, scope: Scope, window: DueWindow) throws -> RecipeStock {
        let wanted = Self.wanted(scope, householdId)
        var byName: [String: [StockMatch]] = [:]
        let names = try Row.fetchCursor(db.cachedStatement(sql: nameSQL(wanted: wanted.names)), arguments: wanted.nameArguments + [householdId])
        while let row = try names.next() { byName[row[0], default: []].append(try match(row, window)) }
        var byProduct: [Product.ID: [StockMatch]] = [:]
        let products = try Row.fetchCursor(
            db.cachedStatement(sql: productSQL(wanted: wanted.products)), arguments: wanted.productArguments + [householdId])
        while let row = try products.next() { byProduct[row[0], default: []].append(try match(row, window)) }
        return RecipeStock(byName: byName, byProduct: byProduct)
    }

    /// Matches by name. The distinct names first: 2,000 ingredients of 200 recipes share far fewer
    /// names, and each name is one range of `item_by_folded_name` (search_text is the folded name,
    /// a newline, the folded note). Arguments: the filter's, then the household.
    static func nameSQL(filter: String) -> String {
        nameSQL(wanted: "SELECT DISTINCT ri.name_folded AS name FROM recipe_ingredient ri \(filter) AND ri.product_id IS NULL")
    }

    /// `wanted` selects the folded names as `name`.
    static func nameSQL(wanted: String) -> String {
        """
        WITH wanted AS (\(wanted))
        SELECT w.name AS wanted, \(columns)
        FROM wanted w
        JOIN item i ON i.household_id = ? AND i.deleted_at IS NULL
            AND i.search_text >= w.name || char(10) AND i.search_text < w.name || char(11)
        JOIN folder f ON f.id = i.folder_id
        WHERE f.kind = 'stock' AND f.deleted_at IS NULL
        \(order)
        """
    }

    /// Matches by product: the items with the product's barcode (`item_by_barcode`).
    static func productSQL(filter: String) -> String {
        productSQL(wanted: "SELECT DISTINCT ri.product_id AS id FROM recipe_ingredient ri \(filter) AND ri.product_id IS NOT NULL")
    }

    /// `wanted` selects the product ids as `id`.
    static func productSQL(wanted: String) -> String {
        """
        WITH wanted AS (\(wanted))
        SELECT w.id AS wanted, \(columns)
        FROM wanted w
        JOIN product p ON p.id = w.id AND p.household_id = ?
        JOIN item i ON i.household_id = p.household_id AND i.barcode = p.barcode AND i.deleted_at IS NULL
        JOIN folder f ON f.id = i.folder_id
        WHERE f.kind = 'stock' AND f.deleted_at IS NULL
        \(order)
        """
    }

    /// Every ingredient of the household, those of recipes in the trash too: matching a few names
    /// no recipe shown needs is cheaper than looking up each ingredient's recipe.
    static let householdFilter = "WHERE ri.household_id = ?"

    /// What to match for a scope: two SELECTs (names as `name`, products as `id`) and their arguments.
    private static func wanted(_ scope: Scope, _ householdId: Household.ID) -> (
        names: String, nameArguments: StatementArguments, products: String, productArguments: StatementArguments
    ) {
        let filter: String
        let arguments: StatementArguments
        switch scope {
        case .household:
            (filter, arguments) = (householdFilter, [householdId])
        case .recipes(let ids):
            let marks = Array(repeating: "?", count: max(1, ids.count)).joined(separator: ", ")
            (filter, arguments) = ("WHERE ri.household_id = ? AND ri.recipe_id IN (\(marks))", StatementArguments([householdId] + (ids.isEmpty ? [-1] : ids)))
        case .given(let names, let products):
            // As JSON arrays: one statement text whatever their length.
            return (
                "SELECT value AS name FROM json_each(?)", [json(names)], "SELECT value AS id FROM json_each(?)", [json(products)]
            )
        }
        return (
            "SELECT DISTINCT ri.name_folded AS name FROM recipe_ingredient ri \(filter) AND ri.product_id IS NULL", arguments,
            "SELECT DISTINCT ri.product_id AS id FROM recipe_ingredient ri \(filter) AND ri.product_id IS NOT NULL", arguments
        )
    }

    private static func json(_ values: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A row of `nameSQL` or `productSQL`: what is wanted, then `columns` in their order (by index:
    /// GRDB's look-up by name lower-cases the name on every access).
    private static func match(_ row: Row, _ window: DueWindow) throws -> StockMatch {
        let due: CalendarDay? = try row.decode(atIndex: 5)
        return StockMatch(
            itemId: row[1], name: row[2], quantity: row[3], unit: row[4], due: due, status: row[6],
            folderId: row[7], folderName: row[8], folderStarter: row[9],
            dueState: window.state(of: due))
    }
}
