import Foundation
import GRDB
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// /recipes and /recipes/{id} over HTTP: the states and standings in words in both languages,
/// filters kept in links, scaled amounts, user text escaped, what viewers see, notices from the
/// address, other households' recipes kept out, and "Recipes with this" on the item and use-soon pages.
@Suite("Recipe pages")
struct RecipePagesTests {
    /// Home with a stock that makes one recipe ready, one short of one thing, one short of two.
    struct Kitchen {
        let fixture: HouseholdFixture
        let home: SignedIn
        let today: CalendarDay
        var folders: [String: Int64] = [:]
        var items: [String: Int64] = [:]
        var recipes: [String: Int64] = [:]

        init() async throws {
            fixture = try await HouseholdFixture()
            home = try #require(try fixture.accounts.session(token: fixture.owner))
            today = CalendarDay.today(in: .gmt, now: fixture.clock.now)
            for folder in try fixture.items.folders(in: home.household) { folders[folder.name] = folder.id! }
            // The fixture's Milk (1 piece, Fridge) stays; the stock the recipes use:
            items["牛乳"] = try add("牛乳", "1", "L", folder: "Fridge", due: 2)
            items["old 牛乳"] = try add("牛乳", "1", "L", folder: "Freezer", due: -3)
            items["卵"] = try add("卵", "2", "piece", folder: "Fridge")
            items["鶏もも肉"] = try add("鶏もも肉", "1", "pack", folder: "Fridge")
            items["醤油"] = try add("醤油", "1", "bottle", folder: "Pantry")
            items["小麦粉"] = try add("小麦粉", "50", "g", folder: "Pantry")
            recipes["tea"] = try recipe("Milk tea", ingredients: [("Milk", 1, "piece"), ("Tea", nil, nil)], tags: ["drink"])
            recipes["pancake"] = try recipe(
                "Pancakes", servings: 2,
                ingredients: [("牛乳", 200, "ml"), ("卵", 1, nil), ("小麦粉", 100, "g"), ("醤油", 2, "tbsp"), ("塩", nil, "to_taste")],
                tags: ["sweet"], steps: "Mix.\nRest a while.\n\nBake <b>both</b> sides.")
            recipes["chicken"] = try recipe("Teriyaki", ingredients: [("鶏もも肉", 200, "g"), ("みりん", 1, "tbsp"), ("砂糖", 1, "tsp")])
        }

        func add(_ name: String, _ quantity: String, _ unit: String, folder: String, due days: Int? = nil) throws -> Int64 {
            var input = ItemInput()
            input.name = name
            input.quantity = quantity
            input.unit = unit
            input.kind = "other"
            if let days { input.due = today.adding(days: days).description }
            return try fixture.items.register([input], into: try #require(folders[folder]), in: home.household, by: home.memberId, timeZone: .gmt)[0]
        }

        func recipe(
            _ name: String, servings: Int = 2, ingredients: [(String, Double?, String?)], tags: [String] = [], steps: String = "",
            source: String? = nil, in other: HouseholdScope? = nil
        ) throws -> Int64 {
            let household = (other ?? home.household).householdId
            return try fixture.app.database.writer.write { db in
                var recipe = Recipe(householdId: household, name: name, servings: servings, steps: steps, sourceUrl: source)
                try recipe.insert(db)
                for (position, ingredient) in ingredients.enumerated() {
                    var row = RecipeIngredient(
                        householdId: household, recipeId: recipe.id!, position: position, name: ingredient.0, amount: ingredient.1, unit: ingredient.2)
                    try row.insert(db)
                }
                for tag in tags { try RecipeTag(recipeId: recipe.id!, householdId: household, tag: tag).insert(db) }
                return recipe.id!
            }
        }

        func get(_ path: String, as token: String? = nil, language: String = "en") throws -> Response {
            try fixture.send("GET", path, as: token ?? fixture.member, headers: [("Accept-Language", language)])
        }
    }

    // MARK: - What can we make

    @Test(arguments: [
        ("en", "Ready now", "Missing 1", "Missing 2", "Use soon: 牛乳"),
        ("ja", "今すぐ作れる", "あと1つ", "あと2つ", "早めに使う：牛乳"),
    ])
    func everyRecipeSaysItsStateInWords(language: String, ready: String, one: String, two: String, soon: String) async throws {
        let kitchen = try await Kitchen()
        let response = try kitchen.get("/recipes", language: language)
        #expect(response.status == 200)
        let html = response.text
        func card(_ id: Int64?) -> String {
            guard let id, let start = html.range(of: "href=\"/recipes/\(id)\""), let end = html[start.upperBound...].range(of: "</li>")
            else { return "" }
            return String(html[start.lowerBound..<end.lowerBound])
        }
        // Milk tea: Milk is there, nothing called Tea: missing one, named.
        #expect(card(kitchen.recipes["tea"]).contains(one) && card(kitchen.recipes["tea"]).contains("Tea"))
        // Pancakes: 小麦粉 50 g of 100 (short) and no salt: missing two, named; it uses the 牛乳 due in 2 days.
        let pancake = card(kitchen.recipes["pancake"])
        #expect(pancake.contains(two) && pancake.contains("小麦粉") && pancake.contains("塩"))
        #expect(pancake.contains(soon))
        // Teriyaki: chicken in packs (units do not compare: present), みりん and 砂糖 missing.
        let teriyaki = card(kitchen.recipes["chicken"])
        #expect(teriyaki.contains(two) && teriyaki.contains("みりん") && !teriyaki.contains("鶏もも肉"))
        // The state chips say how many are in each state, as words beside the numbers.
        #expect(html.contains(ready))
        #expect(html.contains("aria-current=\"true\""))
        // The header links here.
        #expect(html.contains("<a href=\"/recipes\">\(language == "en" ? "Recipes" : "レシピ")</a>"))
    }

    @Test func aReadyRecipeSaysSoAndTheStateChipFiltersKeepingTheOthers() async throws {
        var kitchen = try await Kitchen()
        kitchen.recipes["toast"] = try kitchen.recipe("Egg toast", ingredients: [("卵", 1, "piece"), ("醤油", 1, "tsp")], tags: ["drink"])
        let all = try kitchen.get("/recipes?tag=drink").text
        #expect(all.contains("Egg toast") && all.contains("Milk tea") && !all.contains("Pancakes"))
        // The state chip keeps the tag; the tag chip keeps the state.
        #expect(all.contains("href=\"/recipes?state=ready&amp;tag=drink\""))
        let ready = try kitchen.get("/recipes?state=ready&tag=drink").text
        #expect(ready.contains("Egg toast") && !ready.contains("Milk tea"))
        #expect(ready.contains("Ready now"))
        #expect(ready.contains("href=\"/recipes?state=ready\""), "All kinds keeps the state")
        #expect(ready.contains("<input type=\"hidden\" name=\"state\" value=\"ready\">"), "the search keeps the state")
        #expect(ready.contains("<input type=\"hidden\" name=\"tag\" value=\"drink\">"), "the search keeps the tag")
        let missing = try kitchen.get("/recipes?state=missing_several").text
        #expect(missing.contains("Teriyaki") && missing.contains("Pancakes") && !missing.contains("Egg toast") && !missing.contains("Milk tea"))
        let one = try kitchen.get("/recipes?state=missing_one").text
        #expect(one.contains("Milk tea") && !one.contains("Teriyaki"))
        let nonsense = try kitchen.get("/recipes?state=whatever")
        #expect(nonsense.status == 200 && nonsense.text.contains("Teriyaki") && nonsense.text.contains("Egg toast"))
    }

    @Test(arguments: [("en", "Page 1 of 2", "Page 2 of 2"), ("ja", "1 / 2 ページ", "2 / 2 ページ")])
    func thirtyRecipesAPageWithLinksThatKeepTheFilters(language: String, first: String, second: String) async throws {
        let kitchen = try await Kitchen()
        for number in 1...32 { _ = try kitchen.recipe(String(format: "Soup %02d", number), ingredients: [("卵", 1, "piece")], tags: ["soup"]) }
        let one = try kitchen.get("/recipes?tag=soup", language: language).text
        #expect(one.components(separatedBy: "class=\"recipe-card ").count - 1 == 30)
        #expect(one.contains(first) && one.contains("Soup 30") && !one.contains("Soup 31"))
        #expect(one.contains("rel=\"next\" href=\"/recipes?tag=soup&amp;page=2\""))
        #expect(!one.contains("rel=\"prev\""))
        // The summary and the chips count every recipe, not the page's.
        #expect(one.contains(">32</span>"))
        let two = try kitchen.get("/recipes?tag=soup&page=2", language: language).text
        #expect(two.components(separatedBy: "class=\"recipe-card ").count - 1 == 2)
        #expect(two.contains(second) && two.contains("Soup 31") && two.contains("Soup 32") && !two.contains("Soup 01"))
        #expect(two.contains("rel=\"prev\" href=\"/recipes?tag=soup\""))
        // A chip starts its filter from the first page; a page past the end shows the last.
        #expect(two.contains("href=\"/recipes?state=ready&amp;tag=soup\""))
        let past = try kitchen.get("/recipes?tag=soup&page=99", language: language).text
        #expect(past.contains("Soup 32") && past.contains(second))
    }

    @Test func theSearchFindsByRecipeAndIngredientName() async throws {
        let kitchen = try await Kitchen()
        let byName = try kitchen.get("/recipes?q=PANCAKE").text
        #expect(byName.contains("Pancakes") && !byName.contains("Teriyaki"))
        #expect(byName.contains("value=\"PANCAKE\""), "the field keeps what was typed")
        let none = try kitchen.get("/recipes?q=zzz").text
        #expect(none.contains("No recipe matches these filters.") && none.contains("<a href=\"/recipes\">All recipes</a>"))
    }

    @Test(arguments: [("en", "Recipes with 牛乳", "All recipes"), ("ja", "牛乳を使うレシピ", "すべてのレシピ")])
    func recipesWithAnIngredientHaveTheirHeadingAndAWayBack(language: String, heading: String, back: String) async throws {
        let kitchen = try await Kitchen()
        let html = try kitchen.get("/recipes?ingredient=%E7%89%9B%E4%B9%B3", language: language).text
        #expect(html.contains("<h1>\(heading)</h1>"))
        #expect(html.contains("<a href=\"/recipes\">← \(back)</a>"))
        #expect(html.contains("Pancakes") && !html.contains("Teriyaki") && !html.contains("Milk tea"))
        #expect(html.contains("<input type=\"hidden\" name=\"ingredient\" value=\"牛乳\">"))
        // Full-width and case fold as search does.
        let folded = try kitchen.get("/recipes?ingredient=MILK", language: language).text
        #expect(folded.contains("Milk tea") && !folded.contains("Pancakes"))
    }

    @Test func anEmptyHouseholdIsToldSoAndWritersAreShownWhereToStart() async throws {
        let fixture = try await HouseholdFixture()
        try await fixture.app.database.writer.write { db in
            try db.execute(sql: "DELETE FROM recipe_ingredient WHERE recipe_id = ?", arguments: [fixture.recipeId])
            try db.execute(sql: "DELETE FROM recipe WHERE id = ?", arguments: [fixture.recipeId])
        }
        let member = try fixture.send("GET", "/recipes", as: fixture.member).text
        #expect(member.contains("No recipes yet.") && member.contains("href=\"/recipes/new\"") && member.contains("href=\"/recipes/import\""))
        let viewer = try fixture.send("GET", "/recipes", as: fixture.viewer).text
        #expect(viewer.contains("No recipes yet.") && !viewer.contains("/recipes/new") && !viewer.contains("/recipes/import"))
    }

    @Test func theTrashedNoticeNamesTheRecipeAndOffersUndoToWriters() async throws {
        let kitchen = try await Kitchen()
        let tea = kitchen.recipes["tea"]!
        // Not in the trash yet: the address alone says nothing.
        #expect(!(try kitchen.get("/recipes?trashed=\(tea)").text.contains("is in the trash")))
        try Recipes(database: kitchen.fixture.app.database).trash(tea, in: kitchen.home.household, by: kitchen.home.memberId)
        let html = try kitchen.get("/recipes?trashed=\(tea)").text
        #expect(html.contains("“Milk tea” is in the trash."))
        #expect(html.contains("action=\"/recipes/restore\"") && html.contains("name=\"ids\" value=\"\(tea)\""))
        let ja = try kitchen.get("/recipes?trashed=\(tea)", language: "ja").text
        #expect(ja.contains("「Milk tea」をゴミ箱に移しました。"))
        let viewer = try kitchen.get("/recipes?trashed=\(tea)", as: kitchen.fixture.viewer).text
        #expect(viewer.contains("“Milk tea” is in the trash.") && !viewer.contains("/recipes/restore"))
        let theirs = try kitchen.get("/recipes?trashed=\(tea)", as: kitchen.fixture.otherOwner).text
        #expect(!theirs.contains("Milk tea"), "another household's trash")
        let junk = try kitchen.get("/recipes?trashed=%3Cb%3E").text
        #expect(!junk.contains("is in the trash"))
    }

    // MARK: - A recipe

    @Test(arguments: [
        (
            "en",
            [
                "200 ml", "Enough in stock", "1 expired in Freezer", "Short by 50 g", "2 tbsp", "to taste", "Missing: none in stock",
                "In stock (only needs to be there)",
            ]
        ),
        ("ja", ["200ml", "在庫で足ります", "冷凍庫に期限切れが1つ", "50g足りません", "大さじ2", "適量", "在庫がありません", "在庫あり（量は問いません）"]),
    ])
    func eachIngredientSaysItsAmountAndStandingInWords(language: String, words: [String]) async throws {
        let kitchen = try await Kitchen()
        let html = try kitchen.get("/recipes/\(kitchen.recipes["pancake"]!)", language: language).text
        for word in words { #expect(html.contains(word), "\(language): \(word)") }
        // The matched items link to themselves with their quantity and folder; the expired one apart.
        #expect(html.contains("href=\"/items/\(kitchen.items["牛乳"]!)\""))
        #expect(html.contains("href=\"/items/\(kitchen.items["old 牛乳"]!)\""))
        let expiredStart = try #require(html.range(of: "expired-apart"))
        #expect(html[expiredStart.lowerBound...].contains("/items/\(kitchen.items["old 牛乳"]!)"))
        #expect(!html[..<expiredStart.lowerBound].contains("/items/\(kitchen.items["old 牛乳"]!)\""), "the expired item is only listed apart")
        // Paragraphs from blank lines, line breaks kept, markup escaped.
        #expect(html.contains("<p>Mix.<br>Rest a while.</p>"))
        #expect(html.contains("<p>Bake &lt;b&gt;both&lt;/b&gt; sides.</p>"))
    }

    @Test(arguments: [("en", "Units do not compare: 1 pack in stock"), ("ja", "単位が違うので量を比べられません（在庫：1パック）")])
    func unitsThatDoNotCompareAreSaidPlainly(language: String, words: String) async throws {
        let kitchen = try await Kitchen()
        let html = try kitchen.get("/recipes/\(kitchen.recipes["chicken"]!)", language: language).text
        #expect(html.contains(words))
        #expect(html.contains("standing-uncomparable"))
    }

    @Test func theServingsStepperScalesAndKeepsThePlace() async throws {
        let kitchen = try await Kitchen()
        let id = kitchen.recipes["pancake"]!
        let four = try kitchen.get("/recipes/\(id)?servings=4").text
        #expect(four.contains("400 ml") && four.contains("4 tbsp") && four.contains("Short by 150 g"))
        #expect(four.contains("href=\"/recipes/\(id)?servings=3#servings\"") && four.contains("href=\"/recipes/\(id)?servings=5#servings\""))
        #expect(four.contains("name=\"servings\" value=\"4\""))
        #expect(four.contains("the recipe is for 2 servings"))
        #expect(four.contains("action=\"/recipes/\(id)#servings\""), "the GET form comes back to the stepper")
        let one = try kitchen.get("/recipes/\(id)?servings=0").text
        #expect(one.contains("100 ml") && !one.contains("servings=0"), "below one reads as one")
        let junk = try kitchen.get("/recipes/\(id)?servings=lots")
        #expect(junk.status == 200 && junk.text.contains("200 ml"))
    }

    @Test func writersGetCookAndAddMissingViewersGetNoWriteForms() async throws {
        let kitchen = try await Kitchen()
        let id = kitchen.recipes["pancake"]!
        let writer = try kitchen.get("/recipes/\(id)?servings=3").text
        #expect(writer.contains("<form method=\"get\" action=\"/recipes/\(id)/cook\""))
        #expect(writer.contains("<input type=\"hidden\" name=\"servings\" value=\"3\">"))
        #expect(writer.contains("action=\"/recipes/\(id)/shopping\""))
        #expect(writer.contains("<option value=\"\(kitchen.folders["Supermarket"]!)\" selected>Supermarket</option>"))
        #expect(writer.contains("href=\"/recipes/\(id)/edit\"") && writer.contains("action=\"/recipes/\(id)/delete\""))

        let viewer = try kitchen.get("/recipes/\(id)", as: kitchen.fixture.viewer).text
        #expect(viewer.contains("Enough in stock"), "viewers read the same list")
        for write in ["/cook", "/shopping", "/edit", "/delete", "method=\"post\" action=\"/recipes"] {
            #expect(!viewer.contains(write), "viewer sees \(write)")
        }
        let overview = try kitchen.get("/recipes", as: kitchen.fixture.viewer).text
        #expect(!overview.contains("/recipes/new") && !overview.contains("/recipes/import"))
    }

    @Test func nothingLackingMeansNoAddMissingForm() async throws {
        var kitchen = try await Kitchen()
        kitchen.recipes["eggs"] = try kitchen.recipe("Boiled egg", ingredients: [("卵", 1, "piece")])
        let html = try kitchen.get("/recipes/\(kitchen.recipes["eggs"]!)").text
        #expect(html.contains("Ready now") && html.contains("/cook\"") && !html.contains("/shopping\""))
    }

    @Test func userTextIsEscapedEverywhere() async throws {
        var kitchen = try await Kitchen()
        let name = "<b>\"x\"</b>"
        kitchen.recipes["x"] = try kitchen.recipe(
            name, ingredients: [("<i>salt</i>", nil, nil)], tags: ["<s>tag</s>"], steps: "<script>alert(1)</script>",
            source: "javascript:alert(1)")
        let id = kitchen.recipes["x"]!
        for (path, language) in [("/recipes/\(id)", "en"), ("/recipes", "ja"), ("/recipes?q=%3Cb%3E", "en")] {
            let html = try kitchen.get(path, language: language).text
            #expect(html.contains("&lt;b&gt;&quot;x&quot;&lt;/b&gt;"), "\(path)")
            #expect(!html.contains(name) && !html.contains("<i>salt") && !html.contains("<s>tag") && !html.contains("<script>alert"), "\(path)")
        }
        let page = try kitchen.get("/recipes/\(id)").text
        #expect(!page.contains("javascript:"), "a source that is not a web address is not a link")
        #expect(page.contains("<title>&lt;b&gt;&quot;x&quot;&lt;/b&gt; · Zaiko</title>"))
    }

    @Test func aWebSourceIsALinkThatSendsNothingBack() async throws {
        var kitchen = try await Kitchen()
        kitchen.recipes["src"] = try kitchen.recipe("Soup", ingredients: [], source: "https://example.com/soup?a=1&b=2")
        let html = try kitchen.get("/recipes/\(kitchen.recipes["src"]!)").text
        #expect(html.contains("<a href=\"https://example.com/soup?a=1&amp;b=2\" rel=\"noopener noreferrer nofollow\">"))
        #expect(html.contains("This recipe has no ingredients yet."))
    }

    @Test func anotherHouseholdsOrATrashedRecipeIsNotFound() async throws {
        let kitchen = try await Kitchen()
        let grandma = try #require(try kitchen.fixture.accounts.session(token: kitchen.fixture.otherOwner))
        let theirs = try kitchen.recipe("Their stew", ingredients: [("牛乳", 1, "L")], in: grandma.household)
        #expect(try kitchen.get("/recipes/\(theirs)").status == 404)
        #expect(try kitchen.get("/recipes/\(kitchen.recipes["tea"]!)", as: kitchen.fixture.otherOwner).status == 404)
        let overview = try kitchen.get("/recipes").text
        #expect(!overview.contains("Their stew"))
        try await kitchen.fixture.app.database.writer.write { db in
            try db.execute(sql: "UPDATE recipe SET deleted_at = ? WHERE id = ?", arguments: [Timestamp.now(), kitchen.recipes["tea"]!])
        }
        #expect(try kitchen.get("/recipes/\(kitchen.recipes["tea"]!)").status == 404)
        #expect(try kitchen.get("/recipes/nonsense").status == 404)
    }

    @Test(arguments: ["en", "ja"])
    func noticesFromTheAddressSayWhatHappened(language: String) async throws {
        let kitchen = try await Kitchen()
        let id = kitchen.recipes["pancake"]!
        let supermarket = kitchen.folders["Supermarket"]!
        let en = language == "en"
        let cooked = try kitchen.get("/recipes/\(id)?cooked=7&taken=2", language: language).text
        #expect(cooked.contains(en ? "Cooked. Took from 2 items." : "作りました。2件の在庫から使いました。"))
        #expect(cooked.contains("<form method=\"post\" action=\"/cooks/7/undo\""))
        #expect(try kitchen.get("/recipes/\(id)?cooked=7&taken=2", as: kitchen.fixture.viewer).text.contains("/undo") == false)
        let undone = try kitchen.get("/recipes/\(id)?undone=1", language: language).text
        #expect(undone.contains(en ? "Cooking undone" : "作ったことを取り消しました"))
        let added = try kitchen.get("/recipes/\(id)?servings=2&added=3&list=\(supermarket)", language: language).text
        #expect(
            added.contains(
                en
                    ? "Added 3 items to <a href=\"/folders/\(supermarket)\">Supermarket</a>."
                    : "<a href=\"/folders/\(supermarket)\">スーパー</a>に3件追加しました。"))
        let saved = try kitchen.get("/recipes/\(id)?saved=1", language: language).text
        #expect(saved.contains(en ? "Recipe saved." : "レシピを保存しました。"))
        // Words come only from the catalog: an address cannot inject any.
        let forged = try kitchen.get("/recipes/\(id)?cooked=%3Cb%3E&added=x&list=%3Cb%3E", language: language).text
        #expect(!forged.contains("<b>") && !forged.contains("/undo"))
    }

    // MARK: - Recipes with this

    @Test func theItemPageOfAStockItemLinksToTheRecipesThatUseIt() async throws {
        let kitchen = try await Kitchen()
        let html = try kitchen.get("/items/\(kitchen.items["牛乳"]!)").text
        #expect(html.contains("href=\"/recipes?ingredient=%E7%89%9B%E4%B9%B3\""))
        #expect(html.contains("Recipes with this"))
        let viewer = try kitchen.get("/items/\(kitchen.items["牛乳"]!)", as: kitchen.fixture.viewer, language: "ja").text
        #expect(viewer.contains("これを使うレシピ"))
        // A shopping-list item has nothing in stock to cook with.
        var input = ItemInput()
        input.name = "Bread"
        let bread = try kitchen.fixture.items.register(
            [input], into: kitchen.folders["Supermarket"]!, in: kitchen.home.household, by: kitchen.home.memberId, timeZone: .gmt)[0]
        #expect(!(try kitchen.get("/items/\(bread)").text.contains("/recipes?ingredient=")))
    }

    @Test func eachUseSoonRowLinksToTheRecipesThatUseIt() async throws {
        let kitchen = try await Kitchen()
        let html = try kitchen.get("/soon").text
        #expect(html.contains("<a class=\"row-recipes\" href=\"/recipes?ingredient=%E7%89%9B%E4%B9%B3\">"))
        #expect(html.contains("Recipes with this<span class=\"visually-hidden\">: 牛乳</span>"))
        // Not on the stock list's rows.
        #expect(!(try kitchen.get("/folders/\(kitchen.folders["Fridge"]!)").text.contains("row-recipes")))
        // A quick action's row, swapped in by script, keeps the link on the use-soon page.
        let id = kitchen.items["牛乳"]!
        let fragment = try kitchen.fixture.send(
            "POST", "/items/\(id)/opened", as: kitchen.fixture.member, form: [("return", "/soon"), ("fragment", "1"), ("with_folder", "1")])
        #expect(fragment.status == 200 && fragment.text.contains("row-recipes"))
    }
}
