import Foundation
import Inventory

/// The forms the recipe controllers read (decoded by `FormDecoder`). The editor's ingredient rows
/// (`ingredient.3.amount`, …) are read by `RecipeForm.ingredients(from:)`.

/// The recipe editor's fields around its ingredient rows, and its buttons.
struct RecipeEditorForm: Decodable {
    var name: String
    var servings: String
    /// As typed; `RecipeForm.steps` makes its line ends LF.
    var steps: String
    var sourceUrl: String
    /// The picture chosen (see `Picture(formValue:)`); a photo sent comes as `photo_file`.
    var picture: String
    /// The square the person chose for a photo sent (see `PictureUploads.crop`).
    var crop: String
    var tags: String
    var produceName: String
    var produceQuantity: String
    var produceUnit: String
    var produceKind: String
    var produceDueDays: String
    var produceFolder: Folder.ID?
    /// "more" for more ingredient rows; anything else saves.
    var action: String
}

/// Recipes ticked in the trash, or the one an Undo names: repeated `ids`, or one comma-separated value.
struct RecipeIdsForm: Decodable {
    var ids: [String]

    var values: [Recipe.ID] { ids.flatMap { $0.split(separator: ",") }.compactMap { Recipe.ID($0.trimmingCharacters(in: .whitespaces)) } }
}

/// Cooking: for how many, and whether to go ahead with what there is.
struct CookForm: Decodable {
    /// Nil: the recipe's own (see `CookController.servings`).
    var servings: Int?
    var withWhatWeHave: Bool
    /// Cooked from the plan: this meal is marked cooked with it.
    var meal: Meal.ID?
}

/// What the recipe lacks for `servings`, onto the shopping list `folder`.
struct ShortfallForm: Decodable {
    var servings: Int?
    var folder: Folder.ID?
}

/// Settings' cooking card: where used-up items go, and which shopping list when it is one.
struct UsedUpForm: Decodable {
    var usedUp: String
    var usedUpFolder: Folder.ID?
}

/// A recipe to import: from a web address (`url`) or pasted text (`source` is "text").
struct RecipeImportForm: Decodable {
    var url: String
    /// As pasted, a whole page's HTML included.
    var text: Verbatim
    var source: String
}
