import Inventory

/// The recipe CSV files of an export (format version 2; `Households` reads the recipe parts).
extension HouseholdExport {
    /// `recipes.csv` (one line per recipe outside the trash) and `recipe_ingredients.csv`.
    static func recipeSpreadsheets(_ document: HouseholdDocument) throws -> [(String, [UInt8])] {
        let recipes = (document.recipes ?? []).filter { $0.deletedAt == nil }
        let recipeRows = recipes.map { recipe in
            [
                String(recipe.id), recipe.name, String(recipe.servings), recipe.tags.joined(separator: ", "), recipe.sourceUrl ?? "", recipe.steps,
                recipe.createdAt.description, recipe.updatedAt.description,
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
