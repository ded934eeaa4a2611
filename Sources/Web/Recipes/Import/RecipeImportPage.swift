import Inventory

/// The import page: a web address, or pasted text; what was typed kept, a message beside the field that failed
/// (`Templates/recipe-import.mustache`, compiled).
struct RecipeImportPage: CompiledPage {
    var address = ""
    var text = ""
    var addressError: String?
    var textError: String?

    func title(_ t: Catalog) -> String { t[.recipeImportHeading] }

    var maxTextBytes: Int { RecipeImportController.maxTextBytes }
}
