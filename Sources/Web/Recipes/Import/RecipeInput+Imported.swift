import Foundation
import Inventory
import RecipeImport

extension RecipeInput {
    /// The editor's values for an imported recipe: amounts written as a person would type them
    /// ("200", "1.5", "1/3"), the unit codes as they are (the import uses the recipe units only).
    init(imported recipe: ImportedRecipe, picture: Picture?) {
        self.init(
            name: recipe.name, servings: recipe.servings.map(String.init) ?? RecipeInput().servings, steps: recipe.steps,
            sourceUrl: recipe.sourceURL?.absoluteString ?? "", picture: picture, tags: recipe.tags.joined(separator: ", "),
            ingredients: recipe.ingredients.map {
                IngredientInput(name: $0.name, amount: $0.amount.map(Self.typed) ?? "", unit: $0.unit ?? "", note: $0.note)
            })
    }

    /// 200 → "200", 1.5 → "1.5", 1/3 → "1/3", 2/3 → "2/3"; otherwise at most three decimals. Any
    /// `Double` is written (the import keeps amounts within `ImportedRecipe.maxAmount`, and the editor
    /// refuses a larger one beside its field): 1e20 is "100000000000000000000", never a trap.
    static func typed(_ amount: Double) -> String {
        guard amount.isFinite else { return "" }
        if amount == amount.rounded() { return Int(exactly: amount).map(String.init) ?? String(format: "%.0f", amount) }
        for (value, text) in [(1.0 / 3, "1/3"), (2.0 / 3, "2/3")] where abs(amount - value) < 0.0005 { return text }
        var text = String(format: "%.3f", amount)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
