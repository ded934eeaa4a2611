import Inventory

/// One ingredient row of the recipe editor: name (with the stock's names to choose from), amount,
/// unit, note and, when the household has remembered products, a product to match instead.
struct IngredientRowView: Sendable {
    struct UnitGroup: Sendable {
        let label: String
        let options: [FormField.Option]
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
        number = t.format(.recipeEditorIngredientNumber, ["number": "\(index + 1)"])
        self.errors = errors
        noUnit = FormField.Option(value: "", label: t[.recipeEditorUnitNone], selected: input.unit.isEmpty)
        let units = IngredientUnit.allCases
        func option(_ unit: IngredientUnit) -> FormField.Option {
            let label = unit.isCookingMeasure ? t[.recipeEditorUnit, unit.rawValue] : t[.unit, unit.rawValue]
            return FormField.Option(value: unit.rawValue, label: label, selected: input.unit == unit.rawValue)
        }
        var groups = [
            UnitGroup(label: t[.recipeEditorUnitsStock], options: units.filter { !$0.isCookingMeasure }.map(option)),
            UnitGroup(label: t[.recipeEditorUnitsMeasures], options: units.filter(\.isCookingMeasure).map(option)),
        ]
        // A unit the import read that is not one of ours stays visible (and the save names it).
        if !input.unit.isEmpty, IngredientUnit(rawValue: input.unit) == nil {
            groups.append(UnitGroup(label: t[.recipeEditorUnitsOther], options: [.init(value: input.unit, label: input.unit, selected: true)]))
        }
        unitGroups = groups
        self.products =
            products.isEmpty
            ? []
            : [FormField.Option(value: "", label: t[.recipeEditorProductNone], selected: input.productId == nil)]
                + products.map { .init(value: "\($0.id)", label: "\($0.name) (\($0.barcode))", selected: $0.id == input.productId) }
    }

    func field(_ name: String) -> String { "ingredient.\(index).\(name)" }

    var name: String { input.name }
    var amount: String { input.amount }
    var note: String { input.note }
    var nameError: String? { errors[field("name")] }
    var amountError: String? { errors[field("amount")] }
    var unitError: String? { errors[field("unit")] }
    var noteError: String? { errors[field("note")] }
    var productError: String? { errors[field("product")] }
    var hasError: Bool { IngredientRowView.fields.contains { errors[field($0)] != nil } }
    var hasProducts: Bool { !products.isEmpty }

    static let fields = RecipeForm.ingredientFields
}

/// The recipe editor: new, edit, an import's draft, or the same form sent back with its problems
/// (`Templates/recipe-editor.mustache`, compiled).
struct RecipeEditorPage: CompiledPage {
    let heading: String
    let action: String
    let isNew: Bool
    let recipeId: Recipe.ID?
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
}
