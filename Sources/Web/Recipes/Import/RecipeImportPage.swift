import Inventory

/// The import page: a web address, or pasted text; what was typed kept, a message beside the field that failed.
struct RecipeImportPage: PageView {
    static let template = "recipe-import"

    var address = ""
    var text = ""
    var addressError: String?
    var textError: String?

    func title(_ t: Catalog) -> String { t["recipe_import_heading"] }

    func child(named key: String) -> Any? {
        switch key {
        case "address": return address
        case "text": return text
        case "addressError": return addressError
        case "textError": return textError
        case "maxTextBytes": return RecipeImportController.maxTextBytes
        default: return nil
        }
    }
}
