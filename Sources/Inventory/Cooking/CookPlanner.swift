import GRDB

/// Works out what a cook takes: the one rule behind the confirmation page, the cook itself and the
/// shortfall sent to a shopping list.
///
/// For each ingredient in recipe order, its need scaled to the servings against its FRESH matches
/// (expired stock is never taken) in taking order. Presence-only ingredients take nothing. Amounts
/// take from each comparable item as much as it has until the need is met; items in units that do
/// not compare are passed over. Two ingredients matching the same item: the second sees what the
/// first left.
enum CookPlanner {
    static let servingsRange = 1...1000

    static func plan(_ db: Database, recipeId: Recipe.ID, servings: Int, householdId: Household.ID, window: DueWindow) throws -> CookPlan {
        guard servingsRange.contains(servings) else { throw InventoryError.validation(["servings": .cookServingsInvalid]) }
        guard
            let recipe = try Recipe.fetchOne(
                db, sql: "SELECT * FROM recipe WHERE id = ? AND household_id = ? AND deleted_at IS NULL", arguments: [recipeId, householdId])
        else { throw InventoryError.notFound }
        let ingredients = try RecipeIngredient.fetchAll(
            db, sql: "SELECT * FROM recipe_ingredient WHERE recipe_id = ? AND household_id = ? ORDER BY position, id",
            arguments: [recipeId, householdId])
        let stock = try RecipeStock.read(db, householdId: householdId, scope: .recipes([recipeId]), window: window)
        return plan(recipe, ingredients, stock: stock, servings: servings)
    }

    static func plan(_ recipe: Recipe, _ ingredients: [RecipeIngredient], stock: RecipeStock, servings: Int) -> CookPlan {
        var left: [Item.ID: Double] = [:]
        return plan(recipe, ingredients, stock: stock, servings: servings, on: nil, left: &left)
    }

    /// The plan for cooking on `day` (nil: today) with what `left` says remains of each item (what
    /// earlier ingredients, or earlier meals of the plan, took is no longer there); `left` comes
    /// back with this plan's takes taken. On a later day, stock due before it has expired by then:
    /// it is not taken, and an ingredient it would have covered names it in `expiredByThen`.
    static func plan(
        _ recipe: Recipe, _ ingredients: [RecipeIngredient], stock: RecipeStock, servings: Int, on day: CalendarDay?, left: inout [Item.ID: Double]
    ) -> CookPlan {
        var takes: [PlannedTake] = []
        var shortfalls: [Shortfall] = []
        var notTaken: [NotTaken] = []
        var expiredByThen: [String] = []
        for ingredient in ingredients {
            let need = ingredient.need(servings: servings, of: recipe.servings)
            var fresh: [StockMatch] = []
            var expiring = false
            for match in stock.matches(for: ingredient) where !match.isExpired {
                let remaining = left[match.itemId].map { match.with(quantity: $0) } ?? match
                if let day, let due = match.due, due < day {
                    expiring = expiring || remaining.quantity > 0
                } else {
                    fresh.append(remaining)
                }
            }
            let lacking = need.standing(fresh: fresh).isLacking
            if expiring && lacking { expiredByThen.append(ingredient.name) }
            switch need.standing(fresh: fresh) {
            case .missing:
                shortfalls.append(Shortfall(ingredientName: ingredient.name, missing: need.presenceOnly ? nil : need.amount, unit: need.unit))
                continue
            case .uncomparable:
                notTaken.append(NotTaken(ingredientName: ingredient.name, reason: .unitsDoNotCompare))
                continue
            case .enough where need.presenceOnly:
                notTaken.append(NotTaken(ingredientName: ingredient.name, reason: .onlyNeedsToBeThere))
                continue
            case .enough, .short:
                break
            }
            guard var wanted = need.amount else { continue }
            var passedOver = false
            for match in fresh where match.quantity > 0 && wanted > 0 {
                guard let has = need.covered(byQuantity: match.quantity, itemUnit: match.unit) else {
                    passedOver = true
                    continue
                }
                let amount: Double
                if has <= wanted {
                    amount = match.quantity
                    wanted = Quantity.rounded(wanted - has)
                } else {
                    amount = min(match.quantity, need.inItemUnit(wanted, itemUnit: match.unit) ?? 0)
                    wanted = 0
                }
                // Less than a thousandth of the item's unit: nothing to take.
                guard amount > 0 else { continue }
                let rest = max(0, Quantity.rounded(match.quantity - amount))
                left[match.itemId] = rest
                takes.append(
                    PlannedTake(
                        ingredientName: ingredient.name, itemId: match.itemId, itemName: match.name, folderName: match.folderName,
                        folderStarter: match.folderStarter, amount: amount, unit: match.unit, usesUp: rest == 0, due: match.due))
            }
            if wanted > 0 {
                shortfalls.append(Shortfall(ingredientName: ingredient.name, missing: wanted, unit: need.unit))
                if passedOver { notTaken.append(NotTaken(ingredientName: ingredient.name, reason: .unitsDoNotCompare)) }
            }
        }
        return CookPlan(
            recipe: recipe, servings: servings, takes: takes, shortfalls: shortfalls, notTaken: notTaken, expiredByThen: expiredByThen)
    }
}

extension StockMatch {
    /// The same item with what is left of it.
    func with(quantity: Double) -> StockMatch {
        StockMatch(
            itemId: itemId, name: name, quantity: quantity, unit: unit, due: due, status: status, folderId: folderId, folderName: folderName,
            folderStarter: folderStarter, dueState: dueState)
    }
}
