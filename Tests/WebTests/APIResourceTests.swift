import Foundation
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// The API's resources beyond items and lists: recipes (against the stock, cooked, what they lack
/// onto a list), putting bought things away and buying again, products by barcode, keep rules,
/// use-soon, the calendar's counts and the meal plan. The fixture's Home has Milk (1, barcode
/// 4901234567894) in the fridge and "Milk jelly", which needs one Milk.
@Suite("The API's resources")
struct APIResourceTests {
    let api: APITests
    var home: HouseholdFixture { api.home }

    init() async throws {
        api = try await APITests()
    }

    func owner() throws -> SignedIn { try #require(try home.accounts.session(token: home.owner)) }

    func shoppingList() throws -> Folder {
        try #require(try home.items.folders(in: try owner().household, kind: .shopping).first)
    }

    func row(_ name: String, quantity: Double = 1, on folder: Folder.ID) throws -> Item.ID {
        var draft = ItemInput()
        draft.name = name
        draft.quantity = Quantity.text(quantity)
        let owner = try owner()
        return try home.items.register([draft], into: folder, in: owner.household, by: owner.memberId, timeZone: .gmt)[0]
    }

    func quantity(_ id: Item.ID) throws -> Double { try home.items.item(id, in: try owner().household).quantity }

    var recipe: String { "/api/v1/recipes/\(home.recipeId.rawValue)" }

    @Test func aRecipeIsReadAgainstTheStockCookedFromItAndWhatItLacksGoesOnAList() throws {
        let token = try api.token(home.member, .all)
        let listed = try api.object(try api.call("GET", "/api/v1/recipes?readiness=ready", token: token))
        let jelly = try #require((listed["recipes"] as? [[String: Any]])?.first)
        #expect(jelly["name"] as? String == "Milk jelly")
        #expect(jelly["missing"] as? [String] == [])
        // It serves 2 with one Milk: for 4 it needs two.
        let detail = try api.object(try api.call("GET", recipe + "?servings=4", token: token))
        let milk = try #require((detail["ingredients"] as? [[String: Any]])?.first)
        #expect(detail["servings"] as? Int == 4)
        #expect(milk["amount"] as? Double == 2)
        #expect(milk["standing"] as? String == "short")
        #expect(milk["missing_amount"] as? Double == 1)
        #expect((milk["stock"] as? [[String: Any]])?.first?["item_id"] as? Int == Int(home.itemId.rawValue))

        // Short for four: nothing taken, the shortfall said in the member's language.
        let short = try api.call("POST", recipe + "/cook", token: token, json: ["servings": 4], headers: [("Accept-Language", "ja")])
        #expect(short.status == 409)
        #expect(short.header("Content-Type") == "application/problem+json")
        let problem = try api.object(short)
        #expect(problem["title"] as? String == "レシピの材料が足りません")
        #expect((problem["shortfalls"] as? [[String: Any]])?.first?["ingredient"] as? String == "Milk")
        #expect((problem["shortfalls"] as? [[String: Any]])?.first?["missing"] as? Double == 1)
        #expect(try quantity(home.itemId) == 1)

        // What it lacks onto a shopping list; asked twice, added once.
        let list = try shoppingList()
        let missing = try api.call("POST", recipe + "/missing", token: token, json: ["folder_id": list.id.rawValue, "servings": 4])
        #expect(missing.status == 200, "\(missing.text)")
        #expect((try api.object(missing)["added"] as? [[String: Any]])?.first?["amount"] as? Double == 1)
        let again = try api.call("POST", recipe + "/missing", token: token, json: ["folder_id": list.id.rawValue, "servings": 4])
        #expect((try api.object(again)["added"] as? [[String: Any]])?.isEmpty == true)
        let stockList = try api.call("POST", recipe + "/missing", token: token, json: ["folder_id": home.fridgeId.rawValue])
        #expect(stockList.status == 422)

        // Cooked for two: the milk is taken (and, used up, goes to the trash), once, with an idempotent retry.
        let key = [("Idempotency-Key", "cook-jelly-0001")]
        let cooked = try api.call("POST", recipe + "/cook", token: token, json: ["servings": 2], headers: key)
        #expect(cooked.status == 200, "\(cooked.text)")
        #expect(try api.object(cooked)["taken"] as? Int == 1)
        let replay = try api.call("POST", recipe + "/cook", token: token, json: ["servings": 2], headers: key)
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(try api.object(replay)["cook_id"] as? Int == (try api.object(cooked)["cook_id"] as? Int))
        #expect((try? quantity(home.itemId)) == nil)
        #expect(try home.items.trashEntries(in: try owner().household).contains { $0.item.id == home.itemId })
        #expect(try api.call("POST", recipe + "/cook", token: token, json: ["servings": 101]).status == 400)
        #expect(try api.call("GET", "/api/v1/recipes/999999", token: token).status == 404)
    }

    /// Used-up items go to a shopping list when the household says so: cooking then needs a token
    /// that may change shopping lists too. A meal cooked from the plan is marked cooked.
    @Test func cookingThatMovesUsedUpItemsToAListNeedsTheShoppingScopeAndMarksItsMeal() throws {
        let owner = try owner()
        try Cooking(database: home.database, clock: home.clock.wall).setUsedUp("shopping", folderId: nil, in: owner.household)
        let stockOnly = try api.token(home.member, .stock)
        let refused = try api.call("POST", recipe + "/cook", token: stockOnly, json: ["servings": 2])
        #expect(refused.status == 403)
        #expect(try api.object(refused)["type"] as? String == "/api#forbidden_scope")
        #expect(try quantity(home.itemId) == 1)

        let today = try #require(try api.object(try api.call("GET", "/api/v1/summary", token: stockOnly))["today"] as? String)
        let window = DueWindow(household: try HouseholdSettings(database: home.database).household(owner.household), now: home.clock.now)
        let meal = try MealPlan(database: home.database, clock: home.clock.wall).add(
            MealInput(day: today, slot: "lunch", recipe: "\(home.recipeId.rawValue)"), in: owner.household, by: owner.memberId, window: window)
        let all = try api.token(home.member, .all)
        let cooked = try api.call("POST", recipe + "/cook", token: all, json: ["servings": 2, "meal_id": meal.id.rawValue])
        #expect(cooked.status == 200, "\(cooked.text)")
        #expect(try api.object(cooked)["used_up"] as? Int == 1)
        #expect(try home.items.item(home.itemId, in: owner.household).folderId == (try shoppingList().id))
        let meals = try api.object(try api.call("GET", "/api/v1/meals?from=\(today)&to=\(today)", token: all))
        #expect((meals["meals"] as? [[String: Any]])?.first?["state"] as? String == "cooked")
    }

    /// Ids in a body are the holder's household's too: another household's list or meal is not found.
    @Test func anotherHouseholdsListOrMealInABodyIsNotFound() throws {
        let grandparents = try #require(try home.accounts.session(token: home.otherOwner))
        let theirList = try #require(try home.items.folders(in: grandparents.household, kind: .shopping).first)
        let theirStock = try #require(try home.items.folders(in: grandparents.household, kind: .stock).first)
        let theirMeal = try MealPlan(database: home.database, clock: home.clock.wall).add(
            MealInput(day: "2031-01-01", slot: "dinner", note: "Out"), in: grandparents.household, by: grandparents.memberId,
            window: DueWindow(today: CalendarDay(year: 2031, month: 1, day: 1), soonDays: 3))
        let token = try api.token(home.owner, .all)
        let bread = try row("Bread", on: try shoppingList().id)
        let answers = [
            try api.call("POST", "/api/v1/items/\(bread.rawValue)/bought", token: token, json: ["folder_id": theirStock.id.rawValue]),
            try api.call("POST", "/api/v1/items/\(home.itemId.rawValue)/buy-again", token: token, json: ["folder_id": theirList.id.rawValue]),
            try api.call("POST", recipe + "/missing", token: token, json: ["folder_id": theirList.id.rawValue]),
            try api.call("POST", recipe + "/cook", token: token, json: ["meal_id": theirMeal.id.rawValue, "with_what_we_have": true]),
        ]
        #expect(answers.map { $0.status } == [404, 404, 404, 404], "\(answers.map { $0.text })")
        #expect(try home.items.item(bread, in: try owner().household).folderId == (try shoppingList().id))
        #expect(try quantity(home.itemId) == 1)
        // Buy again onto a stock list is refused beside its field.
        let onStock = try api.call("POST", "/api/v1/items/\(home.itemId.rawValue)/buy-again", token: token, json: ["folder_id": home.fridgeId.rawValue])
        #expect(onStock.status == 422)
        #expect((try api.object(onStock)["errors"] as? [[String: Any]])?.first?["field"] as? String == "folder_id")
    }

    @Test func aBoughtShoppingRowJoinsTheSameRowInTheStockListOrMovesThere() throws {
        let token = try api.token(home.member, .all)
        let list = try shoppingList()
        let joined = try api.call(
            "POST", "/api/v1/items/\(try row("milk", quantity: 2, on: list.id).rawValue)/bought", token: token,
            json: ["folder_id": home.fridgeId.rawValue, "quantity": 3])
        #expect(joined.status == 200, "\(joined.text)")
        #expect(try api.object(joined)["id"] as? Int == Int(home.itemId.rawValue))
        #expect(try quantity(home.itemId) == 4)
        let jam = try row("Jam", on: list.id)
        let moved = try api.call(
            "POST", "/api/v1/items/\(jam.rawValue)/bought", token: token,
            json: ["folder_id": home.fridgeId.rawValue, "due": "2031-02-03", "join_existing": false])
        let item = try api.object(moved)
        #expect(item["id"] as? Int == Int(jam.rawValue))
        #expect(item["folder_id"] as? Int == Int(home.fridgeId.rawValue))
        #expect(item["due"] as? String == "2031-02-03")
        #expect(item["status"] as? String == "unopened")
        // A wrong date is refused beside its field, in the member's language, and nothing moves.
        let bread = try row("Bread", on: list.id)
        let refused = try api.call(
            "POST", "/api/v1/items/\(bread.rawValue)/bought", token: token, json: ["folder_id": home.fridgeId.rawValue, "due": "31/02"],
            headers: [("Accept-Language", "ja")])
        #expect(refused.status == 422)
        let errors = try #require(try api.object(refused)["errors"] as? [[String: Any]])
        #expect(errors.first?["field"] as? String == "due")
        #expect((errors.first?["message"] as? String)?.unicodeScalars.contains { $0.value > 0x3000 } == true)
        #expect(try home.items.item(bread, in: try owner().household).folderId == list.id)
        // Stock into stock, or shopping into shopping, is refused.
        #expect(try api.call("POST", "/api/v1/items/\(jam.rawValue)/bought", token: token, json: ["folder_id": home.fridgeId.rawValue]).status == 422)
        #expect(try api.call("POST", "/api/v1/items/\(bread.rawValue)/bought", token: token, json: ["folder_id": list.id.rawValue]).status == 422)

        // Buy again: a copy on the list, the stock row stays.
        let copy = try api.call("POST", "/api/v1/items/\(home.itemId.rawValue)/buy-again", token: token, json: ["folder_id": list.id.rawValue])
        #expect(copy.status == 201)
        #expect(try api.object(copy)["name"] as? String == "Milk")
        #expect(try api.object(copy)["in_basket"] as? Bool == false)
        #expect(try quantity(home.itemId) == 4)
    }

    @Test func productsByBarcodeKeepRulesUseSoonTheCalendarAndTheMealPlan() throws {
        let token = try api.token(home.viewer, .read)
        let product = try api.object(try api.call("GET", "/api/v1/products/by-barcode/4901234567894", token: token))
        #expect(product["name"] as? String == "Milk")
        #expect(product["folder_id"] as? Int == Int(home.fridgeId.rawValue))
        #expect(try api.call("GET", "/api/v1/products/by-barcode/0000000000000", token: token).status == 404)
        #expect(try api.call("GET", "/api/v1/products/by-barcode/" + String(repeating: "9", count: 101), token: token).status == 400)

        let owner = try owner()
        try KeepRules(database: home.database, clock: home.clock.wall).keep(
            forItem: home.itemId, minimum: "2", refillTo: "4", pack: "1", in: owner.household, by: owner.memberId)
        let rule = try #require((try api.object(try api.call("GET", "/api/v1/keep", token: token))["rules"] as? [[String: Any]])?.first)
        #expect(rule["name"] as? String == "Milk")
        #expect(rule["minimum"] as? Double == 2)
        #expect(rule["below_minimum"] as? Bool == true)

        // Milk due today: in use-soon's today, and on the calendar's day with a meal of that day.
        let today = try #require(try api.object(try api.call("GET", "/api/v1/summary", token: token))["today"] as? String)
        var milk = ItemInput(try home.items.item(home.itemId, in: owner.household), timeZone: .gmt)
        milk.due = today
        let version = try home.items.item(home.itemId, in: owner.household).version
        try home.items.update(
            home.itemId, with: milk, folderId: home.fridgeId, version: version, in: owner.household, by: owner.memberId, timeZone: .gmt)
        let soon = try api.object(try api.call("GET", "/api/v1/use-soon", token: token))
        #expect(soon["due_today_count"] as? Int == 1)
        #expect(((soon["due_today"] as? [[String: Any]])?.first?["item"] as? [String: Any])?["name"] as? String == "Milk")
        #expect(try api.call("GET", "/api/v1/use-soon?page=0", token: token).status == 400)

        let window = DueWindow(household: try HouseholdSettings(database: home.database).household(owner.household), now: home.clock.now)
        _ = try MealPlan(database: home.database, clock: home.clock.wall).add(
            MealInput(day: today, slot: "dinner", recipe: "\(home.recipeId.rawValue)", servings: "3"), in: owner.household, by: owner.memberId,
            window: window)
        let month = try api.object(try api.call("GET", "/api/v1/calendar?month=" + today.prefix(7), token: token))
        let day = try #require((month["days"] as? [[String: Any]])?.first { $0["day"] as? String == today })
        #expect(day["due"] as? Int == 1)
        #expect(day["meals"] as? Int == 1)
        #expect(try api.call("GET", "/api/v1/calendar?month=2026-13", token: token).status == 400)

        let meals = try api.object(try api.call("GET", "/api/v1/meals?from=\(today)&to=\(today)", token: token))
        let dinner = try #require((meals["meals"] as? [[String: Any]])?.first)
        #expect(dinner["slot"] as? String == "dinner")
        #expect(dinner["recipe_name"] as? String == "Milk jelly")
        #expect(dinner["state"] as? String == "planned")
        #expect(dinner["missing"] as? [String] == ["Milk"])
        #expect(try api.call("GET", "/api/v1/meals?from=2026-01-01&to=2026-03-01", token: token).status == 400)
    }
}
