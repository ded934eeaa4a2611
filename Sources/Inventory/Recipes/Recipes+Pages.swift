import Foundation
import GRDB

/// What /recipes shows, read in one transaction (one snapshot).
public struct RecipesPageContents: Sendable {
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    public let overview: RecipeOverview
    /// The recipe the address says was just deleted, when it is this household's and in the trash.
    public let trashed: Recipe?
}

/// What a recipe's page shows, read in one transaction (one snapshot).
public struct RecipePageContents: Sendable {
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    public let detail: RecipeDetail
    /// Every folder of the household, in order (where cooking puts what it makes, shopping lists).
    public let folders: [Folder]
}

extension Recipes {
    /// `overview` under `filter`, and the trashed recipe `trashed` names, as they were at one
    /// instant. `now` places the household's due window.
    public func overviewPage(in scope: HouseholdScope, filter: RecipeFilter, trashed: Recipe.ID?, now: Date) throws -> RecipesPageContents {
        try database.writer.read { db in
            let window = DueWindow(household: try HouseholdSettings.household(db, scope.householdId), now: now)
            return RecipesPageContents(
                window: window, overview: try overview(db, householdId: scope.householdId, filter: filter, window: window),
                trashed: try trashed.flatMap { id in try Self.trashed(db, scope.householdId).first { $0.id == id } })
        }
    }

    /// Recipe `id`'s `detail` for `servings`, with the household's folders, as they were at one
    /// instant. `now` places the household's due window.
    public func recipePage(_ id: Recipe.ID, in scope: HouseholdScope, servings: Int?, now: Date, ignoringPlan: Bool = false) throws
        -> RecipePageContents
    {
        try database.writer.read { db in
            let window = DueWindow(household: try HouseholdSettings.household(db, scope.householdId), now: now)
            return RecipePageContents(
                window: window,
                detail: try Self.detail(
                    db, id, householdId: scope.householdId, servings: servings, window: window,
                    reservations: database.reservations.reservations(db, householdId: scope.householdId, window: window), ignoringPlan: ignoringPlan),
                folders: try Items.folders(db, scope.householdId))
        }
    }
}
