import Foundation
import GRDB
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// Cooking over HTTP: the confirmation page in both languages, the cook and its redirect, a
/// shortfall that changes nothing, cooking with what we have, undo (from the notice and from an
/// item's history), adding what is missing to a shopping list, the used-up setting, and other
/// households, viewers and forged forms kept out.
@Suite("Cook pages")
struct CookPagesTests {
    /// Home with seed 002's juice (1 apple + 2 carrots, a pinch of salt, 300 g chicken) and its stock:
    /// 2 apples and 2 carrots in the Fridge, salt in the Pantry, a pack of chicken (units that do not compare).
    struct Kitchen {
        let fixture: HouseholdFixture
        let home: SignedIn
        let fridge: Int64, pantry: Int64, supermarket: Int64
        var recipeId: Int64 = 0
        var ids: [String: Int64] = [:]

        init() async throws {
            fixture = try await HouseholdFixture()
            home = try #require(try fixture.accounts.session(token: fixture.owner))
            let folders = try fixture.items.folders(in: home.household)
            fridge = try #require(folders.first { $0.name == "Fridge" }?.id)
            pantry = try #require(folders.first { $0.name == "Pantry" }?.id)
            supermarket = try #require(folders.first { $0.kind == .shopping }?.id)
            ids["Apple"] = try add("Apple", 2, "piece", fridge)
            ids["Carrot"] = try add("Carrot", 2, "piece", fridge)
            ids["Salt"] = try add("Salt", 1, "bag", pantry)
            ids["Chicken"] = try add("Chicken", 1, "pack", fridge)
            recipeId = try recipe(
                "Apple juice", servings: 1,
                [("Apple", 1, "piece"), ("Carrot", 2, "piece"), ("Salt", nil, "pinch"), ("Chicken", 300, "g")],
                produce: RecipeProduce(name: "Juice", quantity: 1, unit: .bottle, kind: .drinks, dueDays: 2, folderId: fridge))
        }

        func add(_ name: String, _ quantity: Double, _ unit: String, _ folder: Int64, household: SignedIn? = nil) throws -> Int64 {
            var input = ItemInput()
            input.name = name
            input.quantity = Quantity.text(quantity)
            input.unit = unit
            let who = household ?? home
            return try fixture.items.register([input], into: folder, in: who.household, by: who.memberId, timeZone: .gmt)[0]
        }

        func recipe(
            _ name: String, servings: Int, _ ingredients: [(String, Double?, String?)], produce: RecipeProduce? = nil, in other: HouseholdScope? = nil
        ) throws -> Int64 {
            let household = (other ?? home.household).householdId
            return try fixture.app.database.writer.write { db in
                var recipe = Recipe(householdId: household, name: name, servings: servings, produce: produce)
                try recipe.insert(db)
                for (position, ingredient) in ingredients.enumerated() {
                    var row = RecipeIngredient(
                        householdId: household, recipeId: recipe.id!, position: position, name: ingredient.0, amount: ingredient.1, unit: ingredient.2)
                    try row.insert(db)
                }
                return recipe.id!
            }
        }

        func quantity(_ name: String) throws -> Double {
            try fixture.items.item(try #require(ids[name]), in: home.household).quantity
        }

        func setQuantity(_ name: String, _ quantity: Double) throws {
            try fixture.app.database.writer.write { db in
                try db.execute(sql: "UPDATE item SET quantity = ? WHERE id = ?", arguments: [quantity, ids[name]])
            }
        }

        /// Every item on a list.
        func onList(_ folderId: Int64, _ household: HouseholdScope) throws -> [Item] {
            let folder = try fixture.items.folder(folderId, in: household)
            return try fixture.items.page(of: folder, filter: ListFilter(), page: 1).items
        }

        /// The path and query of a redirect.
        func location(_ response: Response) -> String { response.header("Location") ?? "" }
    }

    // MARK: The confirmation page

    @Test func thePageSaysWhatWillBeTakenFromWhichItemAndWhatIsNot() async throws {
        let kitchen = try await Kitchen()
        let response = try kitchen.fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook?servings=1", as: kitchen.fixture.member)
        #expect(response.status == 200)
        let html = response.text
        #expect(html.contains("<h1>Cook Apple juice</h1>"))
        #expect(html.contains("<h3>Apple</h3>"))
        #expect(html.contains("1 piece from Apple in Fridge"))
        #expect(html.contains("2 pieces from Carrot in Fridge</span> <span class=\"badge cook-uses-up\">uses it up</span>"))
        #expect(!html.contains("1 piece from Apple in Fridge</span> <span class=\"badge"), "the apples are not used up")
        #expect(html.contains("<strong>Salt</strong>: only needs to be there"))
        #expect(html.contains("<strong>Chicken</strong>: 1 pack in stock, units do not compare with 300 g — adjust it by hand"))
        #expect(html.contains("Makes 1 bottle of Juice in Fridge"))
        #expect(!html.contains("cook-short"), "nothing is short")
        #expect(html.contains("<button class=\"button button-wide cook-button\" type=\"submit\">Cook</button>"))
        #expect(html.contains("<input type=\"hidden\" name=\"servings\" value=\"1\">"))
        // The stepper is a GET form: − is disabled at one serving, + asks for two.
        #expect(html.contains("type=\"button\" disabled aria-label=\"Fewer servings\""))
        #expect(html.contains("name=\"servings\" value=\"2\" aria-label=\"More servings\""))
    }

    @Test func thePageInJapanese() async throws {
        let kitchen = try await Kitchen()
        let response = try kitchen.fixture.send(
            "GET", "/recipes/\(kitchen.recipeId)/cook?servings=1", as: kitchen.fixture.owner, headers: [("Accept-Language", "ja")])
        let html = response.text
        #expect(html.contains("<h1>Apple juiceを作る</h1>"))
        #expect(html.contains("冷蔵庫のCarrotから 2個</span> <span class=\"badge cook-uses-up\">使い切り</span>"))
        #expect(html.contains("<strong>Salt</strong>: あれば大丈夫（減らしません）"))
        #expect(html.contains("1人分"))
        #expect(html.contains(">作る</button>"))
    }

    @Test func theStepperScalesTheAmounts() async throws {
        let kitchen = try await Kitchen()
        // Two servings need 2 apples and 4 carrots: the carrots are short by 2.
        let html = try kitchen.fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook?servings=2", as: kitchen.fixture.member).text
        #expect(html.contains("2 pieces from Apple in Fridge</span> <span class=\"badge cook-uses-up\">uses it up</span>"))
        #expect(html.contains("Not enough for 2 servings"))
        #expect(html.contains("<strong>Carrot</strong>: 2 pieces more needed"))
        #expect(html.contains("name=\"servings\" value=\"1\" aria-label=\"Fewer servings\""))
        // Nonsense servings read as the recipe's own (1); a huge number is capped.
        let own = try kitchen.fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook?servings=abc", as: kitchen.fixture.member).text
        #expect(own.contains("1 serving<"))
    }

    @Test func whenShortThePageNamesEveryMissingIngredientAndOffersBothWaysOn() async throws {
        let kitchen = try await Kitchen()
        try kitchen.setQuantity("Apple", 0)
        let html = try kitchen.fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook?servings=1", as: kitchen.fixture.member).text
        #expect(html.contains("Not enough for 1 serving"))
        #expect(html.contains("<strong>Apple</strong>: 1 piece more needed"))
        #expect(html.contains("name=\"with_what_we_have\" value=\"1\""))
        #expect(html.contains(">Cook with what we have</button>"))
        #expect(html.contains("action=\"/recipes/\(kitchen.recipeId)/shopping\""))
        #expect(html.contains("name=\"return\" value=\"/recipes/\(kitchen.recipeId)/cook?servings=1\""))
        #expect(html.contains("<option value=\"\(kitchen.supermarket)\" selected>Supermarket</option>"))
        #expect(!html.contains(">Cook</button>"), "the plain Cook button would only fail")
    }

    // MARK: Cooking

    @Test func cookingTakesItAllAndRedirectsWithTheCook() async throws {
        let kitchen = try await Kitchen()
        let response = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        #expect(response.status == 303)
        let location = kitchen.location(response)
        #expect(location.hasPrefix("/recipes/\(kitchen.recipeId)?cooked="))
        #expect(location.hasSuffix("&taken=2"))
        #expect(try kitchen.quantity("Apple") == 1)
        #expect(try kitchen.quantity("Salt") == 1, "presence only: nothing taken")
        #expect(try kitchen.quantity("Chicken") == 1, "units do not compare: nothing taken")
        // The carrots are used up: the household's choice is the trash.
        #expect(throws: InventoryError.notFound) { try kitchen.quantity("Carrot") }
    }

    @Test func aShortfallSeenAtCookingIsA409NamingItAndNothingChanges() async throws {
        let kitchen = try await Kitchen()
        // The page was read with enough; then someone else used the apples up.
        _ = try kitchen.fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook?servings=1", as: kitchen.fixture.member)
        try kitchen.setQuantity("Apple", 0)
        let response = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        #expect(response.status == 409)
        #expect(response.text.contains("The stock changed since this page was opened, so nothing was taken."))
        #expect(response.text.contains("<strong>Apple</strong>: 1 piece more needed"))
        #expect(try kitchen.quantity("Carrot") == 2)
    }

    @Test func twoMembersCookingTheSameStockTheSecondSeesTheShortfall() async throws {
        let kitchen = try await Kitchen()
        // Both opened the page with 2 carrots; the owner cooks first.
        let first = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.owner, form: [("servings", "1")])
        #expect(first.status == 303)
        let second = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        #expect(second.status == 409)
        #expect(second.text.contains("<strong>Carrot</strong>: 2 pieces more needed"))
        #expect(try kitchen.quantity("Apple") == 1, "taken once, never twice")
    }

    @Test func cookingWithWhatWeHaveTakesWhatThereIs() async throws {
        let kitchen = try await Kitchen()
        try kitchen.setQuantity("Apple", 0)
        let response = try kitchen.fixture.send(
            "POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1"), ("with_what_we_have", "1")])
        #expect(response.status == 303)
        #expect(kitchen.location(response).hasPrefix("/recipes/\(kitchen.recipeId)?cooked="))
        #expect(throws: InventoryError.notFound) { try kitchen.quantity("Carrot") }
    }

    // MARK: Undo

    @Test func undoGivesEverythingBackAndASecondUndoChangesNothing() async throws {
        let kitchen = try await Kitchen()
        let cooked = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        let cookId = try #require(URLComponents(string: kitchen.location(cooked))?.queryItems?.first { $0.name == "cooked" }?.value)
        let undone = try kitchen.fixture.send("POST", "/cooks/\(cookId)/undo", as: kitchen.fixture.member)
        #expect(undone.status == 303)
        #expect(kitchen.location(undone) == "/recipes/\(kitchen.recipeId)?undone=1")
        #expect(try kitchen.quantity("Apple") == 2)
        #expect(try kitchen.quantity("Carrot") == 2)
        let again = try kitchen.fixture.send("POST", "/cooks/\(cookId)/undo", as: kitchen.fixture.member)
        #expect(again.status == 303)
        #expect(try kitchen.quantity("Apple") == 2, "not given back twice")
    }

    @Test func anItemsHistoryOffersUndoUntilTheCookIsUndone() async throws {
        let kitchen = try await Kitchen()
        let apple = try #require(kitchen.ids["Apple"])
        let cooked = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        let cookId = try #require(URLComponents(string: kitchen.location(cooked))?.queryItems?.first { $0.name == "cooked" }?.value)
        let page = try kitchen.fixture.send("GET", "/items/\(apple)", as: kitchen.fixture.member).text
        #expect(page.contains("action=\"/cooks/\(cookId)/undo\""))
        #expect(page.contains("<input type=\"hidden\" name=\"return\" value=\"/items/\(apple)\">"))
        #expect(page.contains("aria-label=\"Undo cooking Apple juice\">Undo</button>"))
        #expect(page.contains("<span class=\"history-cook\">Cooking Apple juice</span>"))
        // A viewer reads the history without the button.
        #expect(!(try kitchen.fixture.send("GET", "/items/\(apple)", as: kitchen.fixture.viewer).text.contains("/undo\"")))
        let undone = try kitchen.fixture.send("POST", "/cooks/\(cookId)/undo", as: kitchen.fixture.member, form: [("return", "/items/\(apple)")])
        #expect(kitchen.location(undone) == "/items/\(apple)?undone=1")
        let after = try kitchen.fixture.send("GET", "/items/\(apple)?undone=1", as: kitchen.fixture.member).text
        #expect(after.contains("Cooking undone: everything it took is back."))
        #expect(!after.contains("action=\"/cooks/\(cookId)/undo\""))
        #expect(after.contains("<span class=\"history-cook\">Cooking Apple juice (undone)</span>"))
        #expect(try kitchen.quantity("Apple") == 2)
    }

    // MARK: What is missing, to a shopping list

    @Test func addingWhatIsMissingMergesIntoTheList() async throws {
        let kitchen = try await Kitchen()
        try kitchen.setQuantity("Apple", 0)
        let form = [("servings", "1"), ("folder", "\(kitchen.supermarket)")]
        let added = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/shopping", as: kitchen.fixture.member, form: form)
        #expect(added.status == 303)
        #expect(kitchen.location(added) == "/recipes/\(kitchen.recipeId)?servings=1&added=1&list=\(kitchen.supermarket)")
        // From the cook page it comes back there, and the page says what was added.
        let again = try kitchen.fixture.send(
            "POST", "/recipes/\(kitchen.recipeId)/shopping", as: kitchen.fixture.member,
            form: form + [("return", "/recipes/\(kitchen.recipeId)/cook?servings=1")])
        let back = kitchen.location(again)
        #expect(back.hasPrefix("/recipes/\(kitchen.recipeId)/cook?servings=1&added="))
        let page = try kitchen.fixture.send("GET", back.replacingOccurrences(of: "added=0", with: "added=1"), as: kitchen.fixture.member).text
        #expect(page.contains("Added 1 item to Supermarket."))
        let list = try kitchen.onList(kitchen.supermarket, kitchen.home.household)
        #expect(list.filter { $0.name == "Apple" }.map(\.quantity) == [1], "merged, not duplicated: \(list.map(\.name))")
    }

    // MARK: Settings

    @Test func theOwnerChoosesWhereUsedUpItemsGo() async throws {
        let kitchen = try await Kitchen()
        let settings = try kitchen.fixture.send("GET", "/settings", as: kitchen.fixture.owner).text
        #expect(settings.contains("id=\"cooking\""))
        #expect(settings.contains("value=\"trash\" checked"))
        let saved = try kitchen.fixture.send(
            "POST", "/settings/used-up", as: kitchen.fixture.owner, form: [("used_up", "shopping"), ("used_up_folder", "\(kitchen.supermarket)")])
        #expect(saved.status == 303 && kitchen.location(saved) == "/settings?saved=used_up#cooking")
        let household = try HouseholdSettings(database: kitchen.fixture.app.database).household(kitchen.home.household)
        #expect(household.usedUp == "shopping" && household.usedUpFolderId == kitchen.supermarket)
        let after = try kitchen.fixture.send("GET", "/settings?saved=used_up", as: kitchen.fixture.owner).text
        #expect(after.contains("value=\"shopping\" checked"))
        // A member may not change it.
        let refused = try kitchen.fixture.send("POST", "/settings/used-up", as: kitchen.fixture.member, form: [("used_up", "trash")])
        #expect(refused.status == 403)
        #expect(try HouseholdSettings(database: kitchen.fixture.app.database).household(kitchen.home.household).usedUp == "shopping")
        // Cooking now moves the used-up carrots to the shopping list.
        _ = try kitchen.fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: kitchen.fixture.member, form: [("servings", "1")])
        let carrot = try kitchen.fixture.items.item(try #require(kitchen.ids["Carrot"]), in: kitchen.home.household)
        #expect(carrot.folderId == kitchen.supermarket)
    }

    // MARK: Who may

    @Test func anotherHouseholdsRecipeCookAndListAreNotFound() async throws {
        let kitchen = try await Kitchen()
        let fixture = kitchen.fixture
        let grandma = try #require(try fixture.accounts.session(token: fixture.otherOwner))
        let theirList = try #require(try fixture.items.folders(in: grandma.household, kind: .shopping).first?.id)
        let theirRecipe = try kitchen.recipe("Their juice", servings: 1, [("Apple", 1, "piece")], in: grandma.household)
        let cooked = try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.member, form: [("servings", "1")])
        let cookId = try #require(URLComponents(string: kitchen.location(cooked))?.queryItems?.first { $0.name == "cooked" }?.value)

        #expect(try fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook", as: fixture.otherOwner).status == 404)
        #expect(try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.otherOwner, form: [("servings", "1")]).status == 404)
        #expect(try fixture.send("POST", "/cooks/\(cookId)/undo", as: fixture.otherOwner).status == 404)
        #expect(try kitchen.quantity("Apple") == 1, "their undo gave nothing back")
        #expect(
            try fixture.send("POST", "/recipes/\(kitchen.recipeId)/shopping", as: fixture.otherOwner, form: [("servings", "1"), ("folder", "\(theirList)")])
                .status == 404)
        #expect(try fixture.send("GET", "/recipes/\(theirRecipe)/cook", as: fixture.member).status == 404)
        // Home's recipe onto Grandparents' list.
        try kitchen.setQuantity("Apple", 0)
        #expect(
            try fixture.send("POST", "/recipes/\(kitchen.recipeId)/shopping", as: fixture.member, form: [("servings", "1"), ("folder", "\(theirList)")])
                .status == 404)
        #expect(try kitchen.onList(theirList, grandma.household).isEmpty)
        #expect(try fixture.send("GET", "/recipes/999999/cook", as: fixture.member).status == 404)
    }

    @Test func viewersMayNotCookAndForgedFormsChangeNothing() async throws {
        let kitchen = try await Kitchen()
        let fixture = kitchen.fixture
        #expect(try fixture.send("GET", "/recipes/\(kitchen.recipeId)/cook", as: fixture.viewer).status == 403)
        #expect(try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.viewer, form: [("servings", "1")]).status == 403)
        #expect(
            try fixture.send(
                "POST", "/recipes/\(kitchen.recipeId)/shopping", as: fixture.viewer, form: [("servings", "1"), ("folder", "\(kitchen.supermarket)")]
            )
            .status == 403)
        #expect(try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.member, form: [("servings", "1")], csrf: .wrong).status == 403)
        #expect(try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.member, form: [("servings", "1")], csrf: .none).status == 403)
        #expect(try kitchen.quantity("Apple") == 2)
        #expect(try kitchen.quantity("Carrot") == 2)
        let cooked = try fixture.send("POST", "/recipes/\(kitchen.recipeId)/cook", as: fixture.member, form: [("servings", "1")])
        let cookId = try #require(URLComponents(string: kitchen.location(cooked))?.queryItems?.first { $0.name == "cooked" }?.value)
        #expect(try fixture.send("POST", "/cooks/\(cookId)/undo", as: fixture.member, csrf: .wrong).status == 403)
        #expect(try fixture.send("POST", "/cooks/\(cookId)/undo", as: fixture.viewer).status == 403)
        #expect(try kitchen.quantity("Apple") == 1, "still cooked")
    }
}
