import HTTPServer
import Inventory

/// Trashed recipes on the trash page, in their own section: restore them or delete them for good.
struct RecipeTrash {
    let recipes: Recipes
    let renderer: Renderer

    func register(in router: inout Router<Endpoint>) {
        router.post(Route.Recipes.trashRestore, .writer, use: restore)
        router.post(Route.Recipes.trashPurge, .writer, use: purge)
    }

    /// The ticked recipes back out of the trash.
    func restore(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let ids = try context.form(RecipeIdsForm.self).values
        try recipes.restore(ids, in: member.household, by: member.memberId)
        return .redirect(to: Route.trash + "?recipes_restored=\(ids.count)")
    }

    /// The ticked recipes deleted for good.
    func purge(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let ids = try context.form(RecipeIdsForm.self).values
        try recipes.purge(ids, in: member.household)
        return .redirect(to: Route.trash + "?recipes_purged=\(ids.count)")
    }

    /// The section the trash page shows (nil when no recipe is in the trash and nothing was just done).
    func section(_ context: RequestContext) throws -> RecipeTrashSection? {
        let member = try context.signedIn
        let t = context.locale
        // Recipes leave the trash after 30 days, as items do (the page purges items the same way).
        try recipes.purgeExpiredTrash(in: member.household)
        let rows = try recipes.trashed(in: member.household).map { recipe in
            RecipeTrashSection.Row(
                id: recipe.id, name: recipe.name,
                deleted: recipe.deletedAt.map { DisplayFormat.dateTime($0, timeZone: member.timeZone, locale: t) } ?? "")
        }
        let query = context.request.query
        let notice =
            query["recipes_restored"].map { t.count(.recipeEditorTrashRestored, Int($0) ?? 0) }
            ?? query["recipes_purged"].map { t.count(.recipeEditorTrashPurged, Int($0) ?? 0) }
        if rows.isEmpty, notice == nil { return nil }
        return RecipeTrashSection(rows: rows, notice: notice)
    }
}

/// `partials/trash-recipes`: the trash page's recipes.
struct RecipeTrashSection: Sendable {
    struct Row: Sendable {
        let id: Recipe.ID
        let name: String
        let deleted: String
    }

    let rows: [Row]
    let notice: String?

    var hasRows: Bool { !rows.isEmpty }
}
