import Foundation
import HTTPServer
import Inventory

/// The recipe editor's form fields read into a `RecipeInput`, as typed. Field names are the keys
/// `Recipes.save` names in its validation errors (`name`, `servings`, `ingredient.3.amount`, …), so
/// an error goes beside its field without translation.
enum RecipeForm {
    /// Empty ingredient rows a new recipe starts with, and how many "More rows" adds.
    static let blankRows = 5
    /// Empty rows after a stored or imported recipe's ingredients.
    static let spareRows = 3
    /// A form never grows past this many rows (a hand-made post cannot make a huge page).
    static let maxRows = 120

    static let ingredientFields = ["name", "amount", "unit", "note", "product"]

    /// The recipe as typed: `form`, and the ingredient rows among `fields`.
    static func input(_ form: RecipeEditorForm, fields: Parameters) -> RecipeInput {
        let produce = ProduceInput(
            name: form.produceName, quantity: form.produceQuantity, unit: form.produceUnit, kind: form.produceKind, dueDays: form.produceDueDays,
            folderId: form.produceFolder)
        return RecipeInput(
            name: form.name, servings: form.servings, steps: steps(form.steps), sourceUrl: form.sourceUrl, picture: Picture(formValue: form.picture),
            tags: form.tags, ingredients: ingredients(from: fields), produce: produce)
    }

    /// The ingredient rows (`ingredient.<index>.<field>`). Every row the form sent comes back in
    /// its place, blank ones included, so the indexes of the domain's errors are the rows' own.
    static func ingredients(from fields: Parameters) -> [IngredientInput] {
        var rows: [Int: IngredientInput] = [:]
        for (name, value) in fields.pairs where name.hasPrefix("ingredient.") {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let index = Int(parts[1]), (0..<maxRows).contains(index) else { continue }
            var row = rows[index] ?? IngredientInput()
            let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
            switch parts[2] {
            case "name": row.name = text
            case "amount": row.amount = text
            case "unit": row.unit = text
            case "note": row.note = text
            case "product": row.productId = Product.ID(text)
            default: break
            }
            rows[index] = row
        }
        // Rows keep their numbers: a gap (a field the browser did not send) stays a blank row.
        let count = (rows.keys.max() ?? -1) + 1
        return (0..<count).map { rows[$0] ?? IngredientInput() }
    }

    /// Steps as typed, with the browser's CRLF made LF and the ends trimmed; blank lines between
    /// paragraphs are kept (they are what makes paragraphs).
    static func steps(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The rows the form shows: the ones given, then blank ones until `spare` of the last rows are blank.
    static func rows(_ ingredients: [IngredientInput], spare: Int) -> [IngredientInput] {
        let trailingBlank = ingredients.reversed().prefix { $0.isBlank }.count
        let missing = max(0, spare - trailingBlank)
        return Array((ingredients + Array(repeating: IngredientInput(), count: missing)).prefix(maxRows))
    }

    /// "More rows": everything typed, then `blankRows` more.
    static func moreRows(_ ingredients: [IngredientInput]) -> [IngredientInput] {
        Array((ingredients + Array(repeating: IngredientInput(), count: blankRows)).prefix(maxRows))
    }
}

extension IngredientInput {
    /// Nothing typed: the row is dropped on save (clearing a row removes it).
    var isBlank: Bool { name.isEmpty && amount.isEmpty && unit.isEmpty && note.isEmpty && productId == nil }
}
