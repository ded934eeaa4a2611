import Inventory

/// How the recipe pages say amounts, standings and readiness in the reader's language: "200 g",
/// 「大さじ2」, "to taste"; "Short by 100 g"; "Missing 1: milk". One place, so both pages and the
/// tests agree on the words.
enum RecipeWords {
    /// An ingredient's scaled amount as a cook reads it; nil when it has none to say.
    static func amount(_ need: IngredientNeed, _ t: Catalog) -> String? {
        guard let unit = need.unit else { return need.amount.map { t.quantity($0, unit: IngredientUnit.piece.rawValue) } }
        switch unit {
        case .toTaste:
            return t[.recipesUnitToTaste]
        case .tbsp, .tsp, .cup, .pinch:
            guard let amount = need.amount else { return unit == .pinch ? t[.recipesUnitAPinch] : nil }
            return t.plural(.recipeQuantity, unit.rawValue, number: Quantity.text(amount))
        default:
            return need.amount.map { t.quantity($0, unit: unit.rawValue) }
        }
    }

    /// An amount in a need's unit (a shortfall): "100 g", 「大さじ1」.
    static func amount(_ value: Double, unit: IngredientUnit?, _ t: Catalog) -> String {
        amount(IngredientNeed(amount: value, unit: unit), t) ?? Quantity.text(value)
    }

    /// The standing of an ingredient as a word or phrase, with its class and a mark for the eye
    /// (the words carry the meaning; the mark and colour only repeat it).
    struct Standing: Sendable, Equatable {
        let key: String
        let mark: String
        let text: String
    }

    static func standing(_ standing: IngredientStanding, need: IngredientNeed, fresh: [StockMatch], _ t: Catalog) -> Standing {
        switch standing {
        case .enough where need.presenceOnly:
            return Standing(key: "present", mark: "✓", text: t[.recipesStandingPresent])
        case .enough:
            return Standing(key: "enough", mark: "✓", text: t[.recipesStandingEnough])
        case .short(let missing):
            return Standing(
                key: "short", mark: "◐", text: t.format(.recipesStandingShort, ["amount": amount(missing, unit: need.unit, t)]))
        case .missing:
            return Standing(key: "missing", mark: "✗", text: t[.recipesStandingMissing])
        case .uncomparable:
            return Standing(
                key: "uncomparable", mark: "≠", text: t.format(.recipesStandingUncomparable, ["stock": stockTotal(fresh, t)]))
        }
    }

    /// What the fresh matches hold, summed per unit: "1 pack", "1 pack, 300 g".
    static func stockTotal(_ matches: [StockMatch], _ t: Catalog) -> String {
        var totals: [(unit: String, quantity: Double)] = []
        for match in matches where match.quantity > 0 {
            if let index = totals.firstIndex(where: { $0.unit == match.unit }) {
                totals[index].quantity += match.quantity
            } else {
                totals.append((match.unit, match.quantity))
            }
        }
        return totals.map { t.quantity($0.quantity, unit: $0.unit) }.joined(separator: t[.recipesListSeparator])
    }

    /// "Ready now", "Missing 1", "Missing 3": the state in words, and its mark.
    static func readiness(_ readiness: RecipeReadiness, missingCount: Int, _ t: Catalog) -> (text: String, mark: String) {
        switch readiness {
        case .ready: return (t[.recipesStateReady], "✓")
        case .missingOne: return (t.count(.recipesStateMissing, max(1, missingCount)), "!")
        case .missingSeveral: return (t.count(.recipesStateMissing, max(2, missingCount)), "✗")
        }
    }

    /// The label of a readiness filter chip.
    /// (Keys not ending in `_one`: that suffix means a plural form in the catalogs.)
    static func filterLabel(_ readiness: RecipeReadiness, _ t: Catalog) -> String {
        switch readiness {
        case .ready: return t[.recipesFilterReady]
        case .missingOne: return t[.recipesFilterLacking1]
        case .missingSeveral: return t[.recipesFilterLacking2]
        }
    }

    /// Names joined as a list in the reader's language ("milk, eggs" / 「牛乳、卵」).
    static func list(_ names: [String], _ t: Catalog) -> String { names.joined(separator: t[.recipesListSeparator]) }
}
