import Foundation
import HTTPServer
import Inventory

/// Cooking on the web: the confirmation page (what will be taken from which item), the cook
/// itself, its undo, and adding what is missing to a shopping list.
struct CookController {
    let cooking: Cooking
    let plan: MealPlan
    let settings: HouseholdSettings
    let renderer: Renderer
    let clock: WallClock

    /// The most servings the stepper offers: enough for a party, small enough that a typo is not a feast.
    static let maxServings = 99

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Recipe.pattern.cook, .writer, use: cookForm)
        router.post(Route.Recipe.pattern.cook, .writer, use: cook)
        router.post(Route.Cook.pattern.undo, .writer, use: undo)
        router.post(Route.Recipe.pattern.shopping, .writer, use: addShortfall)
        router.post(Route.Settings.usedUp, .owner, use: saveUsedUp)
    }

    /// The confirmation page for the servings asked for (`?servings=`), else the recipe's own.
    /// From the plan (`?meal=`), the page cooks that meal and leads back to the plan.
    func cookForm(_ context: RequestContext) throws -> Response {
        try page(context, servings: Self.servings(context.request.query["servings"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }))
    }

    /// Cooks: takes the ingredients from stock (and adds what it makes), then back to the recipe
    /// with Undo; the confirmation again with what is short when the stock changed meanwhile.
    func cook(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let recipeId: Recipe.ID = try context.id()
        let form = try context.form(CookForm.self)
        let window = try window(member)
        let servings = try Self.servings(form.servings) ?? cooking.plan(recipeId, servings: 1, in: member.household, window: window).recipe.servings
        do {
            let result = try cooking.cook(
                recipeId, servings: servings, withWhatWeHave: form.withWhatWeHave, meal: form.meal, in: member.household,
                by: member.memberId, window: window)
            if let meal = form.meal {
                // Back to the plan, at the meal, with its Undo.
                let day = try plan.meal(meal, in: member.household).day
                return .redirect(
                    to: PlanController.back(
                        to: day, shown: nil, today: window.today, anchor: "meal-\(meal.rawValue)", ["cooked": "\(result.cookId.rawValue)"]))
            }
            return .redirect(to: Route.recipe(recipeId).path + "?cooked=\(result.cookId)&taken=\(result.taken)")
        } catch is CookShortfall {
            // The stock changed since the page was read (someone else cooked): say what is short now.
            return try page(context, servings: servings, conflict: true, status: 409)
        }
    }

    /// Undo of a cook: what it took back in stock, what it made gone.
    func undo(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let cookId: Cook.ID = try context.id()
        let cook = try cooking.cook(cookId, in: member.household)
        do {
            try cooking.undo(cookId, in: member.household, by: member.memberId)
        } catch InventoryError.conflict {
            // Already undone (a second tap, or another member): the stock is as the person wants it.
        }
        let fallback = cook.recipeId.map { Route.recipe($0).path } ?? Route.Recipes.path
        return .redirect(to: ListQuery.adding(["undone": "1"], to: context.returnPath(fallback: fallback)))
    }

    /// What the recipe lacks, onto a shopping list.
    func addShortfall(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let recipeId: Recipe.ID = try context.id()
        let form = try context.form(ShortfallForm.self)
        guard let servings = Self.servings(form.servings), let folder = form.folder else {
            throw InventoryError.notFound
        }
        let added: [AddedToList]
        do {
            added = try cooking.addShortfall(
                recipeId, servings: servings, to: folder, in: member.household, by: member.memberId, window: window(member))
        } catch InventoryError.validation {
            // A stock list where a shopping list was asked for: the form offers none, so no such list.
            throw InventoryError.notFound
        }
        let back = context.returnPath(fallback: Route.recipe(recipeId).path + "?servings=\(servings)")
        return .redirect(to: ListQuery.adding(["added": "\(added.count)", "list": "\(folder)"], to: back))
    }

    /// Settings' cooking card: where used-up items go.
    func saveUsedUp(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(UsedUpForm.self)
        do {
            try cooking.setUsedUp(form.usedUp, folderId: form.usedUp == "shopping" ? form.usedUpFolder : nil, in: member.household)
        } catch InventoryError.validation {
            return .redirect(to: Route.Settings.path + "?used_up_error=1#cooking")
        }
        return .redirect(to: Route.Settings.path + "?saved=used_up#cooking")
    }

    /// Servings asked for, within 1…maxServings; nil when absent or not a number (the recipe's own).
    static func servings(_ asked: Int?) -> Int? {
        asked.map { min(max($0, 1), maxServings) }
    }

    func window(_ member: SignedIn) throws -> DueWindow {
        DueWindow(household: try settings.household(member.household), now: clock.now())
    }

    /// For each ingredient whose stock is in units that do not compare with the recipe's, what there
    /// is and what the recipe asks for, in the reader's words ("1 pack in stock, … with 300 g").
    static func uncomparable(_ detail: RecipeDetail?, t: Catalog) -> [String: String] {
        guard let detail else { return [:] }
        var texts: [String: String] = [:]
        for entry in detail.ingredients where entry.standing == .uncomparable {
            guard let amount = entry.need.amount, let unit = entry.need.unit else { continue }
            let stock = entry.fresh.filter { $0.quantity > 0 }.map { t.quantity($0.quantity, unit: $0.unit) }
            texts[entry.ingredient.name] = t.format(
                .cookUnitsDoNotCompareDetail,
                ["stock": stock.joined(separator: t[.cookListSeparator]), "need": t.quantity(amount, unit: unit.rawValue)])
        }
        return texts
    }

    /// The confirmation page for `servings` (nil: the recipe's own), read now.
    func page(_ context: RequestContext, servings requested: Int?, conflict: Bool = false, status: Int = 200) throws -> Response {
        let member = try context.signedIn
        let recipeId: Recipe.ID = try context.id()
        let contents = try cooking.cookPage(recipeId, servings: requested, in: member.household, now: clock.now())
        let (plan, lists, stockLists) = (contents.plan, contents.shoppingLists, contents.stockLists)
        let produceFolder = stockLists.first { $0.id == plan.recipe.produceFolderId } ?? stockLists.first
        let query = context.request.query
        let added = Int(query["added"] ?? "").flatMap { count in Folder.ID(query["list"] ?? "").map { (count: count, list: $0) } }
        let meal = try (context.request.form["meal"] ?? query["meal"]).flatMap { Int64($0) }.map {
            try self.plan.meal(Meal.ID(rawValue: $0), in: member.household)
        }
        let view = CookPage(
            plan: plan, meal: meal.flatMap { $0.recipeId == recipeId ? $0 : nil }, today: contents.window.today, shoppingLists: lists,
            produceFolder: produceFolder, conflict: conflict, added: added,
            uncomparable: Self.uncomparable(contents.detail, t: context.locale), t: context.locale)
        return renderer.response(view, context, status: status)
    }
}
