import APIContract
import Foundation
import Inventory

/// Recipes through the API: what each lacks, one against the stock, cooking it, and putting what it
/// lacks on a shopping list — the recipe pages' and the cook page's own operations.
extension HouseholdAPI {
    func listRecipes(_ input: Operations.ListRecipes.Input) async throws -> Operations.ListRecipes.Output {
        let holder = try APICaller.current
        let query = input.query
        if let q = query.q, q.count > 200 { throw APIProblem(.invalid, values: ["reason": "q: at most 200 characters"]) }
        if let tag = query.tag, tag.count > 100 { throw APIProblem(.invalid, values: ["reason": "tag: at most 100 characters"]) }
        let filter = RecipeFilter(readiness: query.readiness.flatMap { RecipeReadiness(rawValue: $0.rawValue) }, tag: query.tag, text: query.q ?? "")
        let overview = try recipes.overview(in: holder.household, filter: filter, window: window(holder))
        let summaries = overview.recipes.map { summary in
            Components.Schemas.RecipeSummary(
                id: summary.recipe.id.rawValue, name: summary.recipe.name, servings: summary.recipe.servings, tags: summary.tags,
                readiness: Self.readiness(summary.readiness), missing: summary.missing, useSoon: summary.useSoon)
        }
        return .ok(.init(body: .json(.init(recipes: summaries, tags: overview.tags, total: overview.total))))
    }

    func getRecipe(_ input: Operations.GetRecipe.Input) async throws -> Operations.GetRecipe.Output {
        let holder = try APICaller.current
        let servings = try Self.servings(input.query.servings)
        let detail = try recipes.detail(Recipe.ID(rawValue: input.path.recipeId), in: holder.household, servings: servings, window: window(holder))
        let ingredients = detail.ingredients.map { entry in
            let (standing, missing): (Components.Schemas.Ingredient.StandingPayload, Double?) =
                switch entry.standing {
                case .enough: (.enough, nil)
                case .short(let missing): (.short, missing)
                case .missing: (.missing, entry.need.amount)
                case .uncomparable: (.uncomparable, nil)
                }
            return Components.Schemas.Ingredient(
                name: entry.ingredient.name, amount: entry.need.amount, unit: entry.need.unit?.rawValue, standing: standing, missingAmount: missing,
                stock: entry.fresh.map {
                    .init(
                        itemId: $0.itemId.rawValue, name: $0.name, quantity: $0.quantity, unit: $0.unit, due: $0.due?.description,
                        folderId: $0.folderId.rawValue)
                })
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        id: detail.recipe.id.rawValue, name: detail.recipe.name, servings: detail.servings, tags: detail.tags,
                        readiness: Self.readiness(detail.readiness), steps: detail.recipe.steps, ingredients: ingredients,
                        planReserves: detail.planReserves))))
    }

    func cookRecipe(_ input: Operations.CookRecipe.Input) async throws -> Operations.CookRecipe.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let recipe = try recipes.recipe(Recipe.ID(rawValue: input.path.recipeId), in: holder.household)
        try Self.requireWrite(holder, on: [.stock])
        let servings = try Self.servings(payload.servings) ?? recipe.servings
        do {
            // Used-up items move to a shopping list when the household says so: that list is
            // written too, which the cook checks in its transaction.
            let result = try cooking.cook(
                recipe.id, servings: servings, withWhatWeHave: payload.withWhatWeHave ?? false, meal: payload.mealId.map(Meal.ID.init(rawValue:)),
                mayMoveToList: holder.scope.allowsWrites(on: .shopping), in: holder.household, by: holder.memberId, window: window(holder))
            return .ok(
                .init(
                    body: .json(
                        .init(
                            cookId: result.cookId.rawValue, taken: result.taken, usedUp: result.usedUp, producedItemId: result.producedItemId?.rawValue))))
        } catch is UsedUpGoesToAList {
            throw APIProblem(.forbiddenScope)
        } catch let short as CookShortfall {
            var problem = APIProblem(.recipeShort)
            problem.extra["shortfalls"] = try? JSONEncoder().encode(short.shortfalls.map(Self.shortfall))
            throw problem
        }
    }

    func addMissingToList(_ input: Operations.AddMissingToList.Input) async throws -> Operations.AddMissingToList.Output {
        let holder = try APICaller.current
        guard case .json(let payload) = input.body else { throw APIProblem(.invalid, values: ["reason": "a JSON body"]) }
        let recipe = try recipes.recipe(Recipe.ID(rawValue: input.path.recipeId), in: holder.household)
        let list = try items.folder(Folder.ID(rawValue: payload.folderId), in: holder.household)
        try Self.requireWrite(holder, on: [list.kind])
        try Self.require(list.kind, is: .shopping)
        let added = try cooking.addShortfall(
            recipe.id, servings: try Self.servings(payload.servings) ?? recipe.servings, to: list.id, in: holder.household, by: holder.memberId,
            window: window(holder))
        return .ok(.init(body: .json(.init(added: added.map { .init(name: $0.name, amount: $0.amount, unit: $0.unit, merged: $0.merged) }))))
    }

    // MARK: - Between the domain and the document

    /// Servings asked for, within what a recipe may have; nil when not asked (the recipe's own).
    static func servings(_ asked: Int?) throws -> Int? {
        guard let asked else { return nil }
        guard Recipes.servingsRange.contains(asked) else { throw APIProblem(.invalid, values: ["reason": "servings: 1 to 100"]) }
        return asked
    }

    static func readiness(_ readiness: RecipeReadiness) -> Components.Schemas.Readiness {
        switch readiness {
        case .ready: .ready
        case .missingOne: .missingOne
        case .missingSeveral: .missingSeveral
        }
    }

    static func shortfall(_ shortfall: Shortfall) -> Components.Schemas.Shortfall {
        .init(ingredient: shortfall.ingredientName, missing: shortfall.missing, unit: shortfall.unit?.rawValue)
    }
}
