import Foundation
import GRDB

extension Recipes {
    /// Every recipe of the household (not the trash) with its readiness, filtered and in the default
    /// order: the most urgency first (see `urgency`), then ready before missing one before missing
    /// several, then by name. A few statements whatever the number of recipes: the catalog's
    /// version (and, when the recipes changed, the recipes, their ingredients and their tags:
    /// `RecipeCatalog`), `RecipeStock`'s two matching queries, and the products' names for
    /// `filter.ingredient`.
    public func overview(in scope: HouseholdScope, filter: RecipeFilter, window: DueWindow) throws -> RecipeOverview {
        try database.writer.read { db in try overview(db, householdId: scope.householdId, filter: filter, window: window) }
    }

    func overview(_ db: Database, householdId: Household.ID, filter: RecipeFilter, window: DueWindow) throws -> RecipeOverview {
        let wanted = (filter.ingredient?.trimmingCharacters(in: .whitespacesAndNewlines)).map { SearchText.fold($0) } ?? ""
        var productNames: [Product.ID: String] = [:]
        let catalog = try catalogs.catalog(db, householdId: householdId)
        // Products' names only matter when asked for the recipes of one ingredient.
        if !wanted.isEmpty {
            let products = try Row.fetchCursor(db.cachedStatement(sql: Self.overviewProductsSQL), arguments: [householdId])
            while let row = try products.next() { productNames[row[0]] = row[1] }
        }
        let scope = RecipeStock.Scope.given(names: catalog.names, products: catalog.products)
        let allStock = try RecipeStock.read(db, householdId: householdId, scope: scope, window: window)
        let reservations = filter.ignoresPlan ? .empty : try database.reservations.reservations(db, householdId: householdId, window: window)
        let stock = allStock.less(reservations)
        // Each ingredient key's standing once, for every recipe that uses it.
        let standings =
            catalog.names.map { Standing(stock.byName[$0] ?? [], window) } + catalog.products.map { Standing(stock.byProduct[$0] ?? [], window) }

        let text = SearchText.fold(filter.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let tag = filter.tag ?? ""
        var summaries: [RecipeSummary] = []
        summaries.reserveCapacity(catalog.recipes.count)
        for entry in catalog.recipes {
            let lines = entry.ingredients
            if !tag.isEmpty, !entry.tags.contains(tag) { continue }
            if !text.isEmpty, !entry.heading.nameFolded.contains(text), !lines.contains(where: { $0.nameFolded.contains(text) }) { continue }
            if !wanted.isEmpty,
                !lines.contains(where: { $0.nameFolded == wanted || ($0.productId.flatMap { productNames[$0] }).map { SearchText.fold($0) } == wanted })
            {
                continue
            }
            let summary = Self.summary(entry, standings)
            if let readiness = filter.readiness, summary.readiness != readiness { continue }
            summaries.append(summary)
        }
        summaries.sort { a, b in
            if a.urgency != b.urgency { return a.urgency > b.urgency }
            if a.readiness != b.readiness { return a.readiness.rank < b.readiness.rank }
            if a.recipe.nameFolded != b.recipe.nameFolded { return a.recipe.nameFolded < b.recipe.nameFolded }
            return a.recipe.id < b.recipe.id
        }
        return RecipeOverview(
            recipes: summaries, tags: catalog.tags, total: catalog.recipes.count,
            // Ignoring the plan does not read it: whether it reserves anything is not known then.
            planReserves: !reservations.reserved.isEmpty)
    }

    /// An ingredient key's matches as /recipes weighs them.
    struct Standing {
        /// Not expired, with their units parsed.
        let fresh: [(quantity: Double, unit: IngredientUnit?)]
        let urgency: Double

        init(_ matches: [StockMatch], _ window: DueWindow) {
            fresh = matches.filter { !$0.isExpired }.map { ($0.quantity, IngredientUnit(rawValue: $0.unit)) }
            urgency = Recipes.urgency(of: matches, window: window)
        }
    }

    static func summary(_ entry: RecipeCatalog.Entry, _ standings: [Standing]) -> RecipeSummary {
        var missing: [String] = []
        var useSoon: [String] = []
        var urgency = 0.0
        for ingredient in entry.ingredients {
            let standing = standings[ingredient.key]
            if IngredientNeed(amount: ingredient.amount, unit: ingredient.unit).standing(of: standing.fresh).isLacking {
                missing.append(ingredient.name)
            }
            if standing.urgency > 0 {
                useSoon.append(ingredient.name)
                urgency += standing.urgency
            }
        }
        return RecipeSummary(
            recipe: entry.heading, tags: entry.tags, readiness: RecipeReadiness(lacking: missing.count), missing: missing, useSoon: useSoon,
            urgency: urgency)
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
                guard let due = match.due else { continue }
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

    /// The household's products' names, for `?ingredient=` (an ingredient linked to a product).
    static let overviewProductsSQL = "SELECT id, name FROM product WHERE household_id = ?"
    /// Every tag of the household's recipes, sorted (`recipe_tag_by_household`, which covers it).
    static let overviewTagsSQL = "SELECT recipe_id, tag FROM recipe_tag WHERE household_id = ? ORDER BY tag"
}
