import GRDB
import Inventory

/// The recipe parts of an export (format version 2): recipes with their ingredients and tags, and
/// the cooks with what each took.
extension HouseholdExport {
    static func readRecipes(_ db: Database, householdId: Int64) throws -> [HouseholdDocument.RecipePart] {
        let id: StatementArguments = [householdId]
        var tags: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY recipe_id, tag", arguments: id) {
            tags[row["recipe_id"], default: []].append(row["tag"])
        }
        var ingredients: [Int64: [HouseholdDocument.IngredientPart]] = [:]
        let ingredientRows = try Row.fetchAll(
            db,
            sql: """
                SELECT ri.*, p.barcode AS product_barcode FROM recipe_ingredient ri LEFT JOIN product p ON p.id = ri.product_id
                WHERE ri.household_id = ? ORDER BY ri.recipe_id, ri.position, ri.id
                """, arguments: id)
        for row in ingredientRows {
            ingredients[row["recipe_id"], default: []].append(
                .init(name: row["name"], amount: row["amount"], unit: row["unit"], note: row["note"], productBarcode: row["product_barcode"]))
        }
        return try Recipe.fetchAll(db, sql: "SELECT * FROM recipe WHERE household_id = ? ORDER BY id", arguments: id).map { recipe in
            HouseholdDocument.RecipePart(
                id: recipe.id!, name: recipe.name, photo: recipe.photo, illustration: recipe.illustration, servings: recipe.servings, steps: recipe.steps,
                sourceUrl: recipe.sourceUrl, tags: tags[recipe.id!] ?? [], ingredients: ingredients[recipe.id!] ?? [], produce: recipe.produce,
                version: recipe.version, createdAt: recipe.createdAt, updatedAt: recipe.updatedAt, deletedAt: recipe.deletedAt)
        }
    }

    static func readCooks(_ db: Database, householdId: Int64) throws -> [HouseholdDocument.CookPart] {
        var takes: [Int64: [HouseholdDocument.CookTakePart]] = [:]
        let takeRows = try CookTake.fetchAll(
            db, sql: "SELECT t.* FROM cook_take t JOIN cook c ON c.id = t.cook_id WHERE c.household_id = ? ORDER BY t.id", arguments: [householdId])
        for take in takeRows {
            takes[take.cookId, default: []].append(
                .init(
                    itemId: take.itemId, ingredientName: take.ingredientName, amount: take.amount, usedUp: take.usedUp?.rawValue,
                    fromFolderId: take.fromFolderId, due: take.due, remindAt: take.remindAt, status: take.status))
        }
        return try Cook.fetchAll(db, sql: "SELECT * FROM cook WHERE household_id = ? ORDER BY id", arguments: [householdId]).map { cook in
            HouseholdDocument.CookPart(
                id: cook.id!, recipeId: cook.recipeId, recipeName: cook.recipeName, memberId: cook.memberId, servings: cook.servings,
                producedItemId: cook.producedItemId, cookedAt: cook.cookedAt, undoneAt: cook.undoneAt, takes: takes[cook.id!] ?? [])
        }
    }

    /// `recipes.csv` (one line per recipe outside the trash) and `recipe_ingredients.csv`.
    static func recipeSpreadsheets(_ document: HouseholdDocument) throws -> [(String, [UInt8])] {
        let recipes = (document.recipes ?? []).filter { $0.deletedAt == nil }
        let recipeRows = recipes.map { recipe in
            [
                String(recipe.id), recipe.name, String(recipe.servings), recipe.tags.joined(separator: ", "), recipe.sourceUrl ?? "", recipe.steps,
                recipe.createdAt, recipe.updatedAt,
            ]
        }
        let ingredientRows = recipes.flatMap { recipe in
            recipe.ingredients.map { ingredient in
                [
                    String(recipe.id), recipe.name, ingredient.name, ingredient.amount.map(SpreadsheetCSV.decimal) ?? "", ingredient.unit ?? "",
                    ingredient.note, ingredient.productBarcode ?? "",
                ]
            }
        }
        return [
            (
                "recipes.csv",
                try SpreadsheetCSV.bytes(header: ["id", "name", "servings", "tags", "source_url", "steps", "created_at", "updated_at"], rows: recipeRows)
            ),
            (
                "recipe_ingredients.csv",
                try SpreadsheetCSV.bytes(header: ["recipe_id", "recipe", "ingredient", "amount", "unit", "note", "product_barcode"], rows: ingredientRows)
            ),
        ]
    }
}
