import Foundation
import Inventory
import RecipeImport

extension RecipeInput {
    /// The editor's fields filled from an imported recipe (`/recipes/new?draft=<token>`), for the
    /// person to check before saving: nothing is stored until then.
    init(draft: RecipeDraft) {
        let recipe = draft.recipe
        self.init(
            name: recipe.name, servings: recipe.servings.map { "\($0)" } ?? "2", steps: recipe.steps,
            sourceUrl: recipe.sourceURL?.absoluteString ?? "", picture: draft.photoKey.map(Picture.photo),
            ingredients: recipe.ingredients.map { line in
                IngredientInput(name: line.name, amount: line.amount.map(Self.amountText) ?? "", unit: line.unit ?? "", note: line.note)
            })
    }

    /// An amount as a person would type it: 2, 0.5, 1.25 (no trailing zeros, at most three decimals).
    static func amountText(_ amount: Double) -> String {
        let rounded = (amount * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
