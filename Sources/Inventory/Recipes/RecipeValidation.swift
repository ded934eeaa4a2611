import Foundation

/// A recipe's values once checked, ready to store (the household's own rows, photos and folders
/// are checked by `Recipes.save` inside its transaction).
struct RecipeValues: Sendable {
    var name: String
    var servings: Int
    var steps: String
    var sourceUrl: String?
    var picture: Picture?
    var tags: [String]
    /// With the position each came from in the input (errors name that index).
    var ingredients: [(index: Int, value: IngredientValue)]
    var produce: RecipeProduce?
}

struct IngredientValue: Sendable, Equatable {
    var name: String
    var amount: Double?
    var unit: String?
    var note: String
    var productId: Int64?
}

/// Checks what the editor sent. Errors are locale keys by field: "name", "servings", "steps",
/// "source_url", "tags", "picture", "produce_*", "ingredient.<index>.name|amount|unit|note|product".
enum RecipeValidation {
    static let maximumTags = 20
    static let maximumTagLength = 40
    static let maximumSteps = 20_000
    static let maximumNote = 200
    static let maximumSourceUrl = 2000
    /// Tag separators: the comma, the Japanese 、 and the full-width ，.
    static let tagSeparators: Set<Character> = [",", "、", "，"]

    static func check(_ input: RecipeInput) -> Result<RecipeValues, FieldErrors> {
        var errors: [String: FieldProblem] = [:]
        let name = trimmed(input.name)
        if name.isEmpty { errors["name"] = .recipeNameRequired } else if name.storedLength > 100 { errors["name"] = .nameTooLong }

        let servingsText = trimmed(input.servings.precomposedStringWithCompatibilityMapping)
        var servings = 2
        if servingsText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(servingsText), Recipes.servingsRange.contains(value) {
            servings = value
        } else {
            errors["servings"] = .recipeServingsInvalid
        }

        // Line ends as a form sends them (\r\n) become \n; paragraphs are blank lines.
        let steps = input.steps.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if steps.storedLength > maximumSteps { errors["steps"] = .stepsTooLong }

        let source = trimmed(input.sourceUrl)
        var sourceUrl: String?
        if !source.isEmpty {
            if isWebAddress(source) { sourceUrl = source } else { errors["source_url"] = .sourceUrlInvalid }
        }

        if case .illustration(let slug) = input.picture, !Illustrations.slugs.contains(slug) { errors["picture"] = .pictureInvalid }

        let tags = self.tags(input.tags)
        if tags.contains(where: { $0.storedLength > maximumTagLength }) {
            errors["tags"] = .tagTooLong
        } else if tags.count > maximumTags {
            errors["tags"] = .tooManyTags
        }

        var ingredients: [(Int, IngredientValue)] = []
        for (index, line) in input.ingredients.enumerated() {
            switch ingredient(line) {
            case .none: continue
            case .success(let value): ingredients.append((index, value))
            case .failure(let problems): for (field, key) in problems.fields { errors["ingredient.\(index).\(field)"] = key }
            }
        }

        var produce: RecipeProduce?
        switch self.produce(input.produce) {
        case .success(let value): produce = value
        case .failure(let problems): errors.merge(problems.fields) { first, _ in first }
        }

        guard errors.isEmpty else { return .failure(FieldErrors(errors)) }
        return .success(
            RecipeValues(
                name: name, servings: servings, steps: steps, sourceUrl: sourceUrl, picture: input.picture, tags: tags, ingredients: ingredients,
                produce: produce))
    }

    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// http(s) with a host, nothing else (no javascript:, no data:).
    static func isWebAddress(_ text: String) -> Bool {
        guard text.storedLength <= maximumSourceUrl, !text.contains(where: \.isWhitespace),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The tags as typed: split, trimmed, empty ones dropped, the second of two that fold alike dropped.
    static func tags(_ typed: String) -> [String] {
        var seen = Set<String>()
        return typed.split(whereSeparator: { tagSeparators.contains($0) }).map { trimmed(String($0)) }
            .filter { !$0.isEmpty && seen.insert(SearchText.fold($0)).inserted }
    }

    /// nil: a line with nothing typed (dropped). A unit chosen alone does not count as typed: the
    /// editor's select always sends one.
    static func ingredient(_ line: IngredientInput) -> Result<IngredientValue, FieldErrors>? {
        let name = trimmed(line.name)
        let amountText = trimmed(line.amount)
        let note = trimmed(line.note)
        if name.isEmpty, amountText.isEmpty, note.isEmpty, line.productId == nil { return nil }
        var errors: [String: FieldProblem] = [:]
        // A line linked to a product may leave the name to the product (filled in by `save`).
        if name.isEmpty, line.productId == nil {
            errors["name"] = .ingredientNameRequired
        } else if name.storedLength > 100 {
            errors["name"] = .nameTooLong
        }
        var amount: Double?
        if !amountText.isEmpty {
            if let value = AmountText.value(amountText) {
                let rounded = (value * 1000).rounded() / 1000
                if value > Quantity.maximum {
                    errors["amount"] = .amountTooLarge
                } else if rounded <= 0 {
                    errors["amount"] = .amountInvalid
                } else {
                    amount = rounded
                }
            } else {
                errors["amount"] = .amountInvalid
            }
        }
        let unitText = trimmed(line.unit)
        if !unitText.isEmpty, IngredientUnit(rawValue: unitText) == nil { errors["unit"] = .unitInvalid }
        if note.storedLength > maximumNote { errors["note"] = .recipeNoteTooLong }
        guard errors.isEmpty else { return .failure(FieldErrors(errors)) }
        return .success(IngredientValue(name: name, amount: amount, unit: unitText.isEmpty ? nil : unitText, note: note, productId: line.productId))
    }

    /// Nothing when no name is given; with a name, every other field must make sense.
    static func produce(_ input: ProduceInput) -> Result<RecipeProduce?, FieldErrors> {
        let name = trimmed(input.name)
        if name.isEmpty { return .success(nil) }
        var errors: [String: FieldProblem] = [:]
        if name.storedLength > 100 { errors["produce_name"] = .nameTooLong }
        let quantityText = trimmed(input.quantity.precomposedStringWithCompatibilityMapping).replacingOccurrences(of: ",", with: ".")
        var quantity = 1.0
        if let value = AmountText.value(quantityText) {
            let rounded = (value * 1000).rounded() / 1000
            if value > Quantity.maximum {
                errors["produce_quantity"] = .quantityTooLarge
            } else if rounded <= 0 {
                errors["produce_quantity"] = .produceQuantityInvalid
            } else {
                quantity = rounded
            }
        } else {
            errors["produce_quantity"] = .produceQuantityInvalid
        }
        let unit = ItemUnit(rawValue: input.unit)
        if unit == nil { errors["produce_unit"] = .unitInvalid }
        let kind = ItemKind(rawValue: input.kind)
        if kind == nil { errors["produce_kind"] = .kindInvalid }
        let daysText = trimmed(input.dueDays.precomposedStringWithCompatibilityMapping)
        var dueDays: Int?
        if !daysText.isEmpty {
            if daysText.allSatisfy({ $0.isASCII && $0.isNumber }), let days = Int(daysText), (0...3650).contains(days) {
                dueDays = days
            } else {
                errors["produce_due_days"] = .produceDueDaysInvalid
            }
        }
        guard errors.isEmpty, let unit, let kind else { return .failure(FieldErrors(errors)) }
        return .success(RecipeProduce(name: name, quantity: quantity, unit: unit, kind: kind, dueDays: dueDays, folderId: input.folderId))
    }
}
