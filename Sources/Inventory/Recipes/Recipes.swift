import Foundation
import GRDB

/// The recipes of a household: the editor's save, what can be made now, a recipe against the
/// stock, and the trash. Every method takes the session's `HouseholdScope`; an id from
/// elsewhere (or a recipe in the trash, outside the trash methods) is `.notFound`.
public struct Recipes: Sendable {
    let database: AppDatabase
    let clock: WallClock
    /// What /recipes read of the recipes, kept until they change.
    let catalogs = RecipeCatalogs()

    /// Days a recipe waits in the trash, as items do.
    public static let trashDays = Items.trashDays

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    func stamp() -> Timestamp { Timestamp(clock.now()) }

    // MARK: - Reading one recipe

    public func recipe(_ id: Recipe.ID, in scope: HouseholdScope) throws -> Recipe {
        try database.writer.read { db in try Self.recipe(db, id, scope.householdId) }
    }

    static func recipe(_ db: Database, _ id: Recipe.ID, _ householdId: Household.ID, deleted: Bool = false) throws -> Recipe {
        let sql = "SELECT * FROM recipe WHERE id = ? AND household_id = ? AND deleted_at IS \(deleted ? "NOT " : "")NULL"
        guard let recipe = try Recipe.fetchOne(db.cachedStatement(sql: sql), arguments: [id, householdId]) else { throw InventoryError.notFound }
        return recipe
    }

    static func ingredients(_ db: Database, of recipeId: Recipe.ID) throws -> [RecipeIngredient] {
        try RecipeIngredient.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM recipe_ingredient WHERE recipe_id = ? ORDER BY position, id"), arguments: [recipeId])
    }

    static func tags(_ db: Database, of recipeId: Recipe.ID) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT tag FROM recipe_tag WHERE recipe_id = ? ORDER BY tag"), arguments: [recipeId])
    }

    /// The editor's values for a stored recipe, as the form would send them back unchanged.
    public func input(_ id: Recipe.ID, in scope: HouseholdScope) throws -> RecipeInput {
        try database.writer.read { db in
            let recipe = try Self.recipe(db, id, scope.householdId)
            let ingredients = try Self.ingredients(db, of: id)
            let tags = try Self.tags(db, of: id)
            var produce = ProduceInput()
            if let made = recipe.produce {
                produce = ProduceInput(
                    name: made.name, quantity: Quantity.text(made.quantity), unit: made.unit.rawValue, kind: made.kind.rawValue,
                    dueDays: made.dueDays.map(String.init) ?? "", folderId: made.folderId)
            }
            return RecipeInput(
                name: recipe.name, servings: String(recipe.servings), steps: recipe.steps, sourceUrl: recipe.sourceUrl ?? "",
                picture: recipe.picture, tags: tags.joined(separator: ", "),
                ingredients: ingredients.map {
                    IngredientInput(name: $0.name, amount: $0.amount.map(Quantity.text) ?? "", unit: $0.unit ?? "", note: $0.note, productId: $0.productId)
                },
                produce: produce)
        }
    }

    // MARK: - The editor's lists

    /// At most this many names go into the editor's `<datalist>`.
    public static let suggestionLimit = 500

    /// Every recipe's id and name outside the trash, by name: a picker's choices.
    public func names(in scope: HouseholdScope) throws -> [(id: Recipe.ID, name: String)] {
        // The catalog /recipes keeps holds them in this order (name_folded, id).
        try database.writer.read { db in
            try catalogs.catalog(db, householdId: scope.householdId).recipes.map { (id: $0.heading.id, name: $0.heading.name) }
        }
    }

    /// Names to suggest for ingredients: the household's item names (any folder, not the trash) and
    /// product names, one spelling per folded name, sorted.
    public func ingredientSuggestions(in scope: HouseholdScope) throws -> [String] {
        let names = try database.writer.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT name FROM item WHERE household_id = ? AND deleted_at IS NULL
                        UNION SELECT name FROM product WHERE household_id = ?
                        """), arguments: [scope.householdId, scope.householdId])
        }
        // "Milk" and "milk" match the same items: suggest one of them.
        var seen = Set<String>()
        let distinct = names.filter { seen.insert(SearchText.fold($0)).inserted }
        return Array(distinct.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.prefix(Self.suggestionLimit))
    }

    /// The household's remembered products, by name: what an ingredient may be linked to.
    public func products(in scope: HouseholdScope) throws -> [Product] {
        try Products(database: database, clock: clock).all(in: scope)
    }
}
