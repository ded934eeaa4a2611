import Foundation
import GRDB

/// What the cook's confirmation page shows, read in one transaction (one snapshot).
public struct CookPageContents: Sendable {
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    public let plan: CookPlan
    /// The household's shopping lists and stock lists, in order.
    public let shoppingLists: [Folder]
    public let stockLists: [Folder]
    /// The recipe against the stock at the plan's servings, when some stock is in units that do
    /// not compare with the recipe's (the page says what there is and what is asked for).
    public let detail: RecipeDetail?
}

extension Cooking {
    /// What cooking recipe `recipeId` for `servings` (nil: the recipe's own) would take, with the
    /// household's lists, as they were at one instant. `now` places the household's due window.
    public func cookPage(_ recipeId: Recipe.ID, servings requested: Int?, in scope: HouseholdScope, now: Date) throws -> CookPageContents {
        try database.writer.read { db in
            let window = DueWindow(household: try HouseholdSettings.household(db, scope.householdId), now: now)
            var plan = try CookPlanner.plan(db, recipeId: recipeId, servings: requested ?? 1, householdId: scope.householdId, window: window)
            if requested == nil {
                plan = try CookPlanner.plan(db, recipeId: recipeId, servings: plan.recipe.servings, householdId: scope.householdId, window: window)
            }
            let folders = try Items.folders(db, scope.householdId)
            let detail =
                plan.notTaken.contains { $0.reason == .unitsDoNotCompare }
                // Cooking takes from the whole stock, planned or not.
                ? try Recipes.detail(
                    db, recipeId, householdId: scope.householdId, servings: plan.servings, window: window, reservations: .empty, ignoringPlan: true)
                : nil
            return CookPageContents(
                window: window, plan: plan, shoppingLists: folders.filter { $0.kind == .shopping }, stockLists: folders.filter { $0.kind == .stock },
                detail: detail)
        }
    }
}
