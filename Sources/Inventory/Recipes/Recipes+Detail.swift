import Foundation
import GRDB

extension Recipes {
    /// The servings a recipe may be scaled to.
    public static let servingsRange = 1...100

    /// A recipe's page: every ingredient scaled to `servings` (nil or out of 1…100: the recipe's
    /// own) against the fresh stock, with its fresh and expired matches apart.
    /// What the meal plan reserves is not free (`ignoringPlan`: counted as free).
    public func detail(_ id: Recipe.ID, in scope: HouseholdScope, servings: Int?, window: DueWindow, ignoringPlan: Bool = false) throws -> RecipeDetail {
        try database.writer.read { db in
            try Self.detail(
                db, id, householdId: scope.householdId, servings: servings, window: window,
                reservations: database.reservations.reservations(db, householdId: scope.householdId, window: window), ignoringPlan: ignoringPlan)
        }
    }

    /// `reservations`: what the meal plan reserves (the page says when some of it is this recipe's
    /// stock, whether or not it is `ignoringPlan`).
    static func detail(
        _ db: Database, _ id: Recipe.ID, householdId: Household.ID, servings: Int?, window: DueWindow, reservations: MealReservations,
        ignoringPlan: Bool
    ) throws -> RecipeDetail {
        let recipe = try Self.recipe(db, id, householdId)
        let ingredients = try Self.ingredients(db, of: id)
        let tags = try Self.tags(db, of: id)
        let allStock = try RecipeStock.read(db, householdId: householdId, scope: .recipes([id]), window: window)
        let stock = ignoringPlan ? allStock : allStock.less(reservations)
        let planReserves = ingredients.contains { ingredient in
            allStock.matches(for: ingredient).contains { reservations.reserved[$0.itemId] != nil }
        }
        let shown = servings.flatMap { Self.servingsRange.contains($0) ? $0 : nil } ?? recipe.servings
        let lines = ingredients.map { ingredient in
            let matches = stock.matches(for: ingredient)
            let fresh = matches.filter { !$0.isExpired }
            let need = ingredient.need(servings: shown, of: recipe.servings)
            return IngredientAvailability(
                ingredient: ingredient, need: need, standing: need.standing(fresh: fresh), fresh: fresh, expired: matches.filter(\.isExpired))
        }
        return RecipeDetail(
            recipe: recipe, tags: tags, servings: shown, ingredients: lines,
            readiness: RecipeReadiness(lacking: lines.filter(\.standing.isLacking).count), planReserves: planReserves)
    }
}
