import Inventory
import Mustache

/// One ingredient row of the recipe editor: name (with the stock's names to choose from), amount,
/// unit, note and, when the household has remembered products, a product to match instead.
struct IngredientRowView: MustacheParent, Sendable {
    struct UnitGroup: MustacheParent, Sendable {
        let label: String
        let options: [FormField.Option]
        func child(named key: String) -> Any? { key == "label" ? label : key == "options" ? options : nil }
    }

    let index: Int
    let number: String
    let input: IngredientInput
    let errors: [String: String]
    let noUnit: FormField.Option
    let unitGroups: [UnitGroup]
    let products: [FormField.Option]

    init(index: Int, input: IngredientInput, errors: [String: String], products: [Product], t: Catalog) {
        self.index = index
        self.input = input
        number = t.format("recipe_editor_ingredient_number", ["number": "\(index + 1)"])
        self.errors = errors
        noUnit = FormField.Option(value: "", label: t["recipe_editor_unit_none"], selected: input.unit.isEmpty)
        let units = IngredientUnit.allCases
        func option(_ unit: IngredientUnit) -> FormField.Option {
            let label = unit.isCookingMeasure ? t["recipe_editor_unit_\(unit.rawValue)"] : t["unit_\(unit.rawValue)"]
            return FormField.Option(value: unit.rawValue, label: label, selected: input.unit == unit.rawValue)
        }
        var groups = [
            UnitGroup(label: t["recipe_editor_units_stock"], options: units.filter { !$0.isCookingMeasure }.map(option)),
            UnitGroup(label: t["recipe_editor_units_measures"], options: units.filter(\.isCookingMeasure).map(option)),
        ]
        // A unit the import read that is not one of ours stays visible (and the save names it).
        if !input.unit.isEmpty, IngredientUnit(rawValue: input.unit) == nil {
            groups.append(UnitGroup(label: t["recipe_editor_units_other"], options: [.init(value: input.unit, label: input.unit, selected: true)]))
        }
        unitGroups = groups
        self.products =
            products.isEmpty
            ? []
            : [FormField.Option(value: "", label: t["recipe_editor_product_none"], selected: input.productId == nil)]
                + products.map { .init(value: "\($0.id)", label: "\($0.name) (\($0.barcode))", selected: $0.id == input.productId) }
    }

    func field(_ name: String) -> String { "ingredient.\(index).\(name)" }

    func child(named key: String) -> Any? {
        switch key {
        case "index": return index
        case "number": return number
        case "name": return input.name
        case "amount": return input.amount
        case "note": return input.note
        case "nameError": return errors[field("name")]
        case "amountError": return errors[field("amount")]
        case "unitError": return errors[field("unit")]
        case "noteError": return errors[field("note")]
        case "productError": return errors[field("product")]
        case "hasError": return IngredientRowView.fields.contains { errors[field($0)] != nil }
        case "noUnit": return noUnit
        case "unitGroups": return unitGroups
        case "products": return products
        case "hasProducts": return !products.isEmpty
        default: return nil
        }
    }

    static let fields = RecipeForm.ingredientFields
}

/// The recipe editor: new, edit, an import's draft, or the same form sent back with its problems.
struct RecipeEditorPage: PageView {
    static let template = "recipe-editor"
    let heading: String
    let action: String
    let isNew: Bool
    let recipeId: Int64?
    let fields: [FormField]
    let servings: FormField
    let tags: FormField
    let sourceUrl: FormField
    let steps: String
    let stepsError: String?
    let picture: PicturePicker
    let rows: [IngredientRowView]
    let suggestions: [String]
    let produceFields: [FormField]
    let produceOpen: Bool
    let summary: String?
    let cancel: String
    let maxBodyBytes: Int

    func title(_ t: Catalog) -> String { heading }

    func child(named key: String) -> Any? {
        switch key {
        case "heading": return heading
        case "action": return action
        case "isNew": return isNew
        case "recipeId": return recipeId
        case "fields": return fields
        case "servings": return servings
        case "tags": return tags
        case "sourceUrl": return sourceUrl
        case "steps": return steps
        case "stepsError": return stepsError
        case "picture": return picture
        case "rows": return rows
        case "rowCount": return rows.count
        case "suggestions": return suggestions
        case "produceFields": return produceFields
        case "produceOpen": return produceOpen
        case "summary": return summary
        case "cancel": return cancel
        case "maxBodyBytes": return maxBodyBytes
        default: return nil
        }
    }
}
