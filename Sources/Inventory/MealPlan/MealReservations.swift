import GRDB

/// The stock the plan's meals reserve, meal after meal in date order (then breakfast, lunch,
/// dinner, other, then as placed): each takes as Cook would on its day (earliest due first, opened
/// first, nothing past its date by then) from what the meals before it left. So two dinners that
/// each need 4 of the same 6 eggs are one covered and one 2 short, never both covered.
/// Meals of days gone by, cooked, skipped or of a recipe in the trash reserve nothing.
struct MealReservations: Sendable {
    /// The meals that may reserve, from today on, in the order they reserve.
    let meals: [Meal]
    /// Each planned meal's plan on its day.
    let plans: [Meal.ID: CookPlan]
    /// How much of each item the meals reserve, in the item's unit.
    let reserved: [Item.ID: Double]

    static let empty = MealReservations(meals: [], plans: [:], reserved: [:])

    static let mealsSQL = """
        SELECT * FROM meal WHERE household_id = ? AND day >= ? AND done IS NULL AND recipe_id IS NOT NULL
        ORDER BY day, \(MealSlot.orderSQL), position, id
        """

    /// The reservations of every meal from today on. A meal's plan depends only on the meals
    /// before it, so the plans of a range of days are those of this whole reading.
    static func read(_ db: Database, householdId: Household.ID, window: DueWindow) throws -> MealReservations {
        let meals = try Meal.fetchAll(db.cachedStatement(sql: mealsSQL), arguments: [householdId, window.today])
        guard !meals.isEmpty else { return .empty }
        let recipeIds = Array(Set(meals.compactMap { $0.recipeId }))
        // The ids as one JSON array: one statement text (prepared once) whatever their number.
        let ids = "[" + recipeIds.map { "\($0.rawValue)" }.joined(separator: ",") + "]"
        let recipes = Dictionary(
            uniqueKeysWithValues: try Recipe.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM recipe WHERE household_id = ? AND deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))"),
                arguments: [householdId, ids]
            ).map { ($0.id, $0) })
        let ingredients = Dictionary(
            grouping: try RecipeIngredient.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM recipe_ingredient WHERE household_id = ? AND recipe_id IN (SELECT value FROM json_each(?)) ORDER BY position, id"),
                arguments: [householdId, ids]), by: { $0.recipeId })
        let lines = ingredients.values.joined()
        let stock = try RecipeStock.read(
            db, householdId: householdId,
            scope: .given(
                names: Array(Set(lines.filter { $0.productId == nil }.map(\.nameFolded))), products: Array(Set(lines.compactMap(\.productId)))),
            window: window)
        var left: [Item.ID: Double] = [:]
        var plans: [Meal.ID: CookPlan] = [:]
        var reserved: [Item.ID: Double] = [:]
        for meal in meals {
            guard let recipeId = meal.recipeId, let recipe = recipes[recipeId] else { continue }
            let plan = CookPlanner.plan(
                recipe, ingredients[recipeId] ?? [], stock: stock, servings: meal.servings ?? recipe.servings,
                on: meal.day > window.today ? meal.day : nil, left: &left)
            plans[meal.id] = plan
            for take in plan.takes { reserved[take.itemId, default: 0] += take.amount }
        }
        return MealReservations(meals: meals, plans: plans, reserved: reserved)
    }
}

/// Each household's reservations, kept until its change sequence moves: every change to its
/// items, folders, products, recipes (with their ingredients) and meals advances it, by triggers
/// whoever writes (`Schema.v16`, `v22`), and those are all the reservations read. The day they
/// were read for is part of the key too (a meal of yesterday reserves nothing today). Pages read
/// the plan far more often than anyone changes the stock or the plan: /plan, /recipes and a
/// recipe's page then cost a dictionary look-up instead of Cook's allocation for every meal.
struct ReservationCache: Sendable {
    private let memo = HouseholdMemo<DueWindow, MealReservations>()

    /// The household's reservations as of the caller's transaction.
    func reservations(_ db: Database, householdId: Household.ID, window: DueWindow) throws -> MealReservations {
        try memo.value(db, householdId: householdId, version: try ChangeFeed.latest(db, householdId), key: window) {
            try MealReservations.read(db, householdId: householdId, window: window)
        }
    }
}

extension RecipeStock {
    /// The same stock with what the plan reserves taken off each item (never below 0).
    func less(_ reservations: MealReservations) -> RecipeStock {
        guard !reservations.reserved.isEmpty else { return self }
        func free(_ matches: [StockMatch]) -> [StockMatch] {
            matches.map { match in
                reservations.reserved[match.itemId].map { match.with(quantity: max(0, Quantity.rounded(match.quantity - $0))) } ?? match
            }
        }
        return RecipeStock(byName: byName.mapValues(free), byProduct: byProduct.mapValues(free))
    }
}
