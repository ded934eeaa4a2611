import Foundation
import GRDB

extension Recipes {
    /// Every recipe of the household (not the trash) with its readiness, filtered and in the default
    /// order: the most urgency first (see `urgency`), then ready before missing one before missing
    /// several, then by name. Five statements whatever the number of recipes: the recipes, their
    /// ingredients, their tags, and `RecipeStock`'s two matching queries (and the products' names
    /// for `filter.ingredient`).
    public func overview(householdId: Int64, filter: RecipeFilter, window: DueWindow) throws -> RecipeOverview {
        let wanted = (filter.ingredient?.trimmingCharacters(in: .whitespacesAndNewlines)).map { SearchText.fold($0) } ?? ""
        // Rows are decoded by column index: GRDB's look-up by name lower-cases the name on every
        // access, which for every ingredient of every recipe cost more than the queries.
        var recipes: [RecipeHeading] = []
        var ingredientsByRecipe: [Int64: [OverviewIngredient]] = [:]
        var tagsByRecipe: [Int64: [String]] = [:]
        var allTags: [String] = []
        var productNames: [Int64: String] = [:]
        let stock = try database.writer.read { db in
            let recipeRows = try Row.fetchCursor(db.cachedStatement(sql: Self.overviewRecipesSQL), arguments: [householdId])
            while let row = try recipeRows.next() {
                recipes.append(
                    RecipeHeading(
                        id: row[0], name: row[1], nameFolded: row[2], photo: row[3], illustration: row[4], servings: row[5]))
            }
            let ingredientRows = try Row.fetchCursor(db.cachedStatement(sql: Self.overviewIngredientsSQL), arguments: [householdId])
            // In recipe order (the index's); consecutive rows share their recipe.
            var recipeId: Int64 = -1
            var lines: [OverviewIngredient] = []
            while let row = try ingredientRows.next() {
                let next: Int64 = row[0]
                if next != recipeId {
                    if !lines.isEmpty { ingredientsByRecipe[recipeId] = lines }
                    recipeId = next
                    lines = []
                }
                let unit: String? = row[4]
                lines.append(
                    OverviewIngredient(nameFolded: row[1], name: row[2], amount: row[3], unit: unit.flatMap(IngredientUnit.init(rawValue:)), productId: row[5]))
            }
            if !lines.isEmpty { ingredientsByRecipe[recipeId] = lines }
            let live = Set(recipes.map(\.id))
            let tagRows = try Row.fetchCursor(db.cachedStatement(sql: Self.overviewTagsSQL), arguments: [householdId])
            while let row = try tagRows.next() {
                let recipeId: Int64 = row[0]
                // Tags of recipes in the trash are no choice.
                guard live.contains(recipeId) else { continue }
                let tag: String = row[1]
                tagsByRecipe[recipeId, default: []].append(tag)
                if allTags.last != tag { allTags.append(tag) }
            }
            // Products' names only matter when asked for the recipes of one ingredient.
            if !wanted.isEmpty {
                let products = try Row.fetchCursor(db.cachedStatement(sql: Self.overviewProductsSQL), arguments: [householdId])
                while let row = try products.next() { productNames[row[0]] = row[1] }
            }
            return try RecipeStock.read(db, householdId: householdId, scope: .household, window: window)
        }

        // Many recipes share an ingredient: its fresh matches and urgency are worked out once.
        let keyed = KeyedStock(
            byName: stock.byName.mapValues { KeyedStock.Standing($0, window) },
            byProduct: stock.byProduct.mapValues { KeyedStock.Standing($0, window) })
        let text = SearchText.fold(filter.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let tag = filter.tag ?? ""
        var summaries: [RecipeSummary] = []
        summaries.reserveCapacity(recipes.count)
        for recipe in recipes {
            let tags = tagsByRecipe[recipe.id] ?? []
            if !tag.isEmpty, !tags.contains(tag) { continue }
            let lines = ingredientsByRecipe[recipe.id] ?? []
            if !text.isEmpty, !recipe.nameFolded.contains(text), !lines.contains(where: { $0.nameFolded.contains(text) }) { continue }
            if !wanted.isEmpty,
                !lines.contains(where: { $0.nameFolded == wanted || ($0.productId.flatMap { productNames[$0] }).map { SearchText.fold($0) } == wanted })
            {
                continue
            }
            let summary = Self.summary(recipe, tags: tags, ingredients: lines, stock: keyed)
            if let readiness = filter.readiness, summary.readiness != readiness { continue }
            summaries.append(summary)
        }
        summaries.sort { a, b in
            if a.urgency != b.urgency { return a.urgency > b.urgency }
            if a.readiness != b.readiness { return a.readiness.rank < b.readiness.rank }
            if a.recipe.nameFolded != b.recipe.nameFolded { return a.recipe.nameFolded < b.recipe.nameFolded }
            return a.recipe.id < b.recipe.id
        }
        return RecipeOverview(recipes: summaries, tags: allTags, total: recipes.count)
    }

    /// An ingredient as /recipes needs it: what it looks for and how much, at the recipe's servings.
    struct OverviewIngredient {
        let nameFolded: String
        let name: String
        let amount: Double?
        let unit: IngredientUnit?
        let productId: Int64?
    }

    /// `RecipeStock` with each ingredient key's standing worked out once.
    struct KeyedStock {
        struct Standing {
            /// Not expired, in taking order.
            let fresh: [StockMatch]
            let urgency: Double

            init(_ matches: [StockMatch], _ window: DueWindow) {
                fresh = matches.filter { !$0.isExpired }
                urgency = Recipes.urgency(of: matches, window: window)
            }

            private init() {
                fresh = []
                urgency = 0
            }

            /// No item matches.
            static let none = Standing()
        }

        let byName: [String: Standing]
        let byProduct: [Int64: Standing]

        func standing(_ ingredient: OverviewIngredient) -> Standing {
            (ingredient.productId.map { byProduct[$0] } ?? byName[ingredient.nameFolded]) ?? .none
        }
    }

    static func summary(_ recipe: RecipeHeading, tags: [String], ingredients: [OverviewIngredient], stock: KeyedStock) -> RecipeSummary {
        var missing: [String] = []
        var useSoon: [String] = []
        var urgency = 0.0
        for ingredient in ingredients {
            let standing = stock.standing(ingredient)
            if IngredientNeed(amount: ingredient.amount, unit: ingredient.unit).standing(fresh: standing.fresh).isLacking {
                missing.append(ingredient.name)
            }
            if standing.urgency > 0 {
                useSoon.append(ingredient.name)
                urgency += standing.urgency
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

    /// The household's recipes outside the trash (`recipe_by_name`), the columns a card shows.
    static let overviewRecipesSQL = """
        SELECT id, name, name_folded, photo, illustration, servings FROM recipe
        WHERE household_id = ? AND deleted_at IS NULL ORDER BY name_folded, id
        """
    /// Every ingredient of the household's recipes in recipe order (those in the trash are skipped
    /// in Swift), from `recipe_ingredient_by_household` alone.
    static let overviewIngredientsSQL = """
        SELECT recipe_id, name_folded, name, amount, unit, product_id FROM recipe_ingredient WHERE household_id = ? ORDER BY recipe_id, position
        """
    /// The household's products' names, for `?ingredient=` (an ingredient linked to a product).
    static let overviewProductsSQL = "SELECT id, name FROM product WHERE household_id = ?"
    /// Every tag of the household's recipes, sorted (`recipe_tag_by_household`, which covers it).
    static let overviewTagsSQL = "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY tag"
}
