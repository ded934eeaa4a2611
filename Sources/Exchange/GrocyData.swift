import Foundation

/// What the import reads from a Grocy database, as plain values (Grocy's ids kept to join them).
public struct GrocyData: Sendable {
    public struct Location: Sendable {
        public var id: Int64
        public var name: String
        public var isFreezer: Bool
    }

    public struct Unit: Sendable {
        public var id: Int64
        public var name: String
        public var pluralName: String?
    }

    public struct Product: Sendable {
        public var id: Int64
        public var name: String
        public var groupName: String?
        public var locationId: Int64?
        public var stockUnitId: Int64?
        public var pictureFileName: String?
    }

    public struct Barcode: Sendable {
        public var productId: Int64
        public var code: String
    }

    /// One purchase in stock: `amount` in the product's stock unit.
    public struct StockEntry: Sendable {
        public var productId: Int64
        public var amount: Double
        /// "YYYY-MM-DD"; Grocy writes 2999-12-31 for "never expires".
        public var bestBefore: String?
        public var locationId: Int64?
        public var isOpen: Bool
        public var note: String?
    }

    public struct ShoppingList: Sendable {
        public var id: Int64
        public var name: String
    }

    /// A line of a shopping list: a product, or only a note. Grocy keeps the amount of a product's
    /// line in its stock unit (the line's `qu_id` is how it is shown); a note's in `qu_id`.
    public struct ShoppingItem: Sendable {
        public var listId: Int64
        public var productId: Int64?
        public var note: String?
        public var amount: Double
        public var unitId: Int64?
        public var isDone: Bool
    }

    /// A recipe; `description` is the HTML of Grocy's editor.
    public struct Recipe: Sendable {
        public var id: Int64
        public var name: String
        public var description: String
        public var servings: Double
        public var ingredients: [Ingredient]
        /// The product cooking it makes ("Produces product"), if any.
        public var producesProductId: Int64?
        public var pictureFileName: String?
    }

    /// An ingredient line: Grocy keeps `amount` in the product's stock unit.
    public struct Ingredient: Sendable {
        public var productId: Int64
        public var amount: Double
        public var note: String?
    }

    public var locations: [Location] = []
    public var units: [Unit] = []
    public var products: [Product] = []
    public var barcodes: [Barcode] = []
    public var stock: [StockEntry] = []
    public var shoppingLists: [ShoppingList] = []
    public var shoppingItems: [ShoppingItem] = []
    /// The person's recipes (not the ones Grocy makes for its meal plan) with their ingredient lines.
    public var recipes: [Recipe] = []
    /// Things Zaiko has no place for, by what they are ("chores", …): how many.
    public var otherCounts: [(what: String, count: Int)] = []
}
