import Foundation
import GRDB

/// A household's recipes as /recipes reads them: headings, tags and ingredients, with each
/// ingredient's name or product numbered once (`key`) so that matching it against the stock is an
/// array look-up. Recipes change far less often than the page is read, so the catalog stays in
/// memory until `household.recipes_version` moves (triggers move it on every change to a recipe,
/// an ingredient or a tag, whoever writes); the stock it is matched against is read every time.
struct RecipeCatalog: Sendable {
    struct Ingredient: Sendable {
        let name: String
        let nameFolded: String
        let amount: Double?
        let unit: IngredientUnit?
        let productId: Product.ID?
        /// Index into `names`, or `names.count` + index into `products`.
        let key: Int
    }

    struct Entry: Sendable {
        let heading: RecipeHeading
        let tags: [String]
        /// In recipe order.
        let ingredients: [Ingredient]
    }

    let version: Int64
    /// Outside the trash, by folded name.
    let recipes: [Entry]
    /// Every tag of those recipes, sorted as SQLite sorts them.
    let tags: [String]
    /// The distinct folded names of ingredients without a product.
    let names: [String]
    /// The distinct products ingredients are linked to.
    let products: [Product.ID]

    /// The household's catalog as of `version`, read in the caller's transaction.
    static func read(_ db: Database, householdId: Household.ID, version: Int64) throws -> RecipeCatalog {
        // Rows are decoded by column index: GRDB's look-up by name lower-cases the name on every access.
        var headings: [RecipeHeading] = []
        let recipeRows = try Row.fetchCursor(db.cachedStatement(sql: recipesSQL), arguments: [householdId])
        while let row = try recipeRows.next() {
            headings.append(RecipeHeading(id: row[0], name: row[1], nameFolded: row[2], photo: row[3], illustration: row[4], servings: row[5]))
        }
        let live = Set(headings.map(\.id))

        var names = Numbering<String>()
        var products = Numbering<Product.ID>()
        var units: [String: IngredientUnit] = [:]
        var ingredientsByRecipe: [Recipe.ID: [(ingredient: Ingredient, productIndex: Int?)]] = [:]
        let ingredientRows = try Row.fetchCursor(db.cachedStatement(sql: ingredientsSQL), arguments: [householdId])
        while let row = try ingredientRows.next() {
            let recipeId: Recipe.ID = row[0]
            guard live.contains(recipeId) else { continue }
            let nameFolded: String = row[1]
            let productId: Product.ID? = row[5]
            var key = 0
            var productIndex: Int?
            if let productId {
                productIndex = products.number(productId)
            } else {
                key = names.number(nameFolded)
            }
            let unitCode: String? = row[4]
            let unit = unitCode.flatMap { code in
                units[code]
                    ?? IngredientUnit(rawValue: code).map {
                        units[code] = $0
                        return $0
                    }
            }
            ingredientsByRecipe[recipeId, default: []].append(
                (Ingredient(name: row[2], nameFolded: nameFolded, amount: row[3], unit: unit, productId: productId, key: key), productIndex))
        }

        var tagsByRecipe: [Recipe.ID: [String]] = [:]
        var tags: [String] = []
        let tagRows = try Row.fetchCursor(db.cachedStatement(sql: tagsSQL), arguments: [householdId])
        while let row = try tagRows.next() {
            let recipeId: Recipe.ID = row[0]
            // Tags of recipes in the trash are no choice.
            guard live.contains(recipeId) else { continue }
            let tag: String = row[1]
            tagsByRecipe[recipeId, default: []].append(tag)
            if tags.last != tag { tags.append(tag) }
        }

        // Product keys come after every name's, known only once all rows are read.
        let entries = headings.map { heading in
            Entry(
                heading: heading, tags: tagsByRecipe[heading.id] ?? [],
                ingredients: (ingredientsByRecipe[heading.id] ?? []).map { line in
                    guard let productIndex = line.productIndex else { return line.ingredient }
                    let i = line.ingredient
                    return Ingredient(
                        name: i.name, nameFolded: i.nameFolded, amount: i.amount, unit: i.unit, productId: i.productId,
                        key: names.keys.count + productIndex)
                })
        }
        return RecipeCatalog(version: version, recipes: entries, tags: tags, names: names.keys, products: products.keys)
    }

    /// The household's recipes outside the trash (`recipe_by_name`), the columns a card shows.
    static let recipesSQL = """
        SELECT id, name, name_folded, photo, illustration, servings FROM recipe
        WHERE household_id = ? AND deleted_at IS NULL ORDER BY name_folded, id
        """
    /// Every ingredient of the household's recipes in recipe order (those in the trash are skipped
    /// in Swift), from `recipe_ingredient_by_household` alone.
    static let ingredientsSQL = """
        SELECT recipe_id, name_folded, name, amount, unit, product_id FROM recipe_ingredient WHERE household_id = ? ORDER BY recipe_id, position
        """
    /// Every tag of the household's recipes, sorted (`recipe_tag_by_household`, which covers it).
    static let tagsSQL = "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY tag"
    /// Where the catalog stands.
    static let versionSQL = "SELECT recipes_version FROM household WHERE id = ?"
}

/// Distinct keys numbered in the order they first come.
private struct Numbering<Key: Hashable> {
    private(set) var keys: [Key] = []
    private var numbers: [Key: Int] = [:]

    mutating func number(_ key: Key) -> Int {
        if let number = numbers[key] { return number }
        keys.append(key)
        numbers[key] = keys.count - 1
        return keys.count - 1
    }
}

/// The last catalog read of each household, shared by every request.
struct RecipeCatalogs: Sendable {
    private let memo = HouseholdMemo<VersionOnly, RecipeCatalog>()

    /// The household's catalog, read again only when its recipes changed; in the caller's transaction.
    func catalog(_ db: Database, householdId: Household.ID) throws -> RecipeCatalog {
        let version = try Int64.fetchOne(db.cachedStatement(sql: RecipeCatalog.versionSQL), arguments: [householdId]) ?? 0
        return try memo.value(db, householdId: householdId, version: version, key: VersionOnly()) {
            try RecipeCatalog.read(db, householdId: householdId, version: version)
        }
    }
}
