import Foundation
import GRDB

extension Recipes {
    /// Every recipe of the household (not the trash) with its readiness, filtered and in the default
    /// order: the most urgency first (see `urgency`), then ready before missing one before missing
    /// several, then by name. Five statements whatever the number of recipes: the recipes, their
    /// ingredients, their tags, and `RecipeStock`'s two matching queries.
    public func overview(householdId: Int64, filter: RecipeFilter, window: DueWindow) throws -> RecipeOverview {
        let (recipes, ingredients, tagRows, stock) = try database.writer.read { db in
            (
                try Recipe.fetchAll(db.cachedStatement(sql: Self.overviewRecipesSQL), arguments: [householdId]),
                try Row.fetchAll(db.cachedStatement(sql: Self.overviewIngredientsSQL), arguments: [householdId]),
                try Row.fetchAll(db.cachedStatement(sql: Self.overviewTagsSQL), arguments: [householdId]),
                try RecipeStock.read(db, householdId: householdId, scope: .household, window: window)
            )
        }
        var ingredientsByRecipe: [Int64: [(ingredient: RecipeIngredient, productName: String?)]] = [:]
        for row in ingredients {
            let ingredient = try RecipeIngredient(row: row)
            ingredientsByRecipe[ingredient.recipeId, default: []].append((ingredient, row["product_name"]))
        }
        for (id, lines) in ingredientsByRecipe where lines.count > 1 {
            ingredientsByRecipe[id] = lines.sorted { ($0.ingredient.position, $0.ingredient.id!) < ($1.ingredient.position, $1.ingredient.id!) }
        }
        let live = Set(recipes.compactMap(\.id))
        var tagsByRecipe: [Int64: [String]] = [:]
        var allTags: [String] = []
        for row in tagRows {
            let recipeId: Int64 = row["recipe_id"]
            guard live.contains(recipeId) else { continue }
            let tag: String = row["tag"]
            tagsByRecipe[recipeId, default: []].append(tag)
            if allTags.last != tag { allTags.append(tag) }
        }

        let text = SearchText.fold(filter.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let wanted = (filter.ingredient?.trimmingCharacters(in: .whitespacesAndNewlines)).map { SearchText.fold($0) } ?? ""
        let tag = filter.tag ?? ""
        var summaries: [RecipeSummary] = []
        for recipe in recipes {
            let lines = ingredientsByRecipe[recipe.id!] ?? []
            let tags = tagsByRecipe[recipe.id!] ?? []
            if !tag.isEmpty, !tags.contains(tag) { continue }
            if !text.isEmpty, !recipe.nameFolded.contains(text), !lines.contains(where: { $0.ingredient.nameFolded.contains(text) }) { continue }
            if !wanted.isEmpty,
                !lines.contains(where: { $0.ingredient.nameFolded == wanted || $0.productName.map { SearchText.fold($0) } == wanted })
            {
                continue
            }
            let summary = Self.summary(recipe, tags: tags, ingredients: lines.map(\.ingredient), stock: stock, window: window)
            if let readiness = filter.readiness, summary.readiness != readiness { continue }
            summaries.append(summary)
        }
        summaries.sort { a, b in
            if a.urgency != b.urgency { return a.urgency > b.urgency }
            if a.readiness != b.readiness { return a.readiness.rank < b.readiness.rank }
            if a.recipe.nameFolded != b.recipe.nameFolded { return a.recipe.nameFolded < b.recipe.nameFolded }
            return a.recipe.id! < b.recipe.id!
        }
        return RecipeOverview(recipes: summaries, tags: allTags, total: recipes.count)
    }

    static func summary(_ recipe: Recipe, tags: [String], ingredients: [RecipeIngredient], stock: RecipeStock, window: DueWindow) -> RecipeSummary {
        var missing: [String] = []
        var useSoon: [String] = []
        var urgency = 0.0
        for ingredient in ingredients {
            let matches = stock.matches(for: ingredient)
            let need = ingredient.need(servings: recipe.servings, of: recipe.servings)
            if need.standing(fresh: matches.filter { !$0.isExpired }).isLacking { missing.append(ingredient.name) }
            let weight = Self.urgency(of: matches, window: window)
            if weight > 0 {
                useSoon.append(ingredient.name)
                urgency += weight
            }
        }
        return RecipeSummary(
            recipe: recipe, tags: tags, readiness: RecipeReadiness(lacking: missing.count), missing: missing, useSoon: useSoon, urgency: urgency)
    }

    /// How strongly one ingredient's matches ask to be used; a recipe's urgency is the sum over its
    /// ingredients. Only items with something left count.
    /// - A fresh match due today or soon, d days from today (0 = today): 1 + 2 / (1 + d), from the
    ///   soonest such match: today 3, tomorrow 2, in two days 1.67, … always above 1.
    /// - Otherwise, an expired match: 0.5. It cannot be used, so it weighs less than any fresh
    ///   due-soon match, but it still brings the recipe forward (the item is there to deal with).
    /// - Otherwise 0.
    static func urgency(of matches: [StockMatch], window: DueWindow) -> Double {
        var expired = false
        var soonest: Int?
        for match in matches where match.quantity > 0 {
            switch match.dueState {
            case .expired: expired = true
            case .today, .soon:
                guard let due = match.due.flatMap(CalendarDay.init) else { continue }
                let days = Self.days(from: window.today, to: due)
                soonest = min(soonest ?? days, days)
            case .later, .none: continue
            }
        }
        if let soonest { return 1 + 2 / Double(1 + max(0, soonest)) }
        return expired ? 0.5 : 0
    }

    static func days(from a: CalendarDay, to b: CalendarDay) -> Int {
        Int((b.start(in: .gmt).timeIntervalSince(a.start(in: .gmt)) / 86400).rounded())
    }

    /// The household's recipes outside the trash (`recipe_by_name`).
    static let overviewRecipesSQL = "SELECT * FROM recipe WHERE household_id = ? AND deleted_at IS NULL ORDER BY name_folded, id"
    /// Their ingredients, with the name of a linked product of the household. Unordered: each
    /// recipe's few are put in order in Swift, cheaper than sorting them all in a temporary b-tree.
    static let overviewIngredientsSQL = """
        SELECT ri.*, p.name AS product_name FROM recipe_ingredient ri
        JOIN recipe r ON r.id = ri.recipe_id AND r.household_id = ri.household_id AND r.deleted_at IS NULL
        LEFT JOIN product p ON p.id = ri.product_id AND p.household_id = ri.household_id
        WHERE ri.household_id = ?
        """
    /// Every tag of the household's recipes, sorted (`recipe_tag_by_household`, which covers it).
    static let overviewTagsSQL = "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY tag"
}
