import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Inventory

/// /recipes through `Recipes.overview`: readiness, the default order, filters, and that the page
/// costs the same few statements whatever the number of recipes.
@Suite("Recipes: what can we make")
struct RecipesOverviewTests {
    @Test func eachRecipeSaysWhetherItIsReadyAndWhatIsMissing() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Apple", 2)
        try kitchen.add("Banana", 1, due: "2026-11-01")
        try kitchen.recipe("Apple juice", [("Apple", 2, nil)])
        try kitchen.recipe("Fruit juice", [("Apple", 1, nil), ("Banana", 1, nil)])
        try kitchen.recipe("Smoothie", [("Banana", 1, nil), ("Milk", 200, "ml"), ("Apple", 1, nil)])

        let byName = Dictionary(uniqueKeysWithValues: try kitchen.overview().recipes.map { ($0.recipe.name, $0) })
        #expect(byName["Apple juice"]?.readiness == .ready)
        #expect(byName["Fruit juice"]?.readiness == .missingOne)
        #expect(byName["Fruit juice"]?.missing == ["Banana"], "the banana expired: it does not count")
        #expect(byName["Smoothie"]?.readiness == .missingSeveral)
        #expect(byName["Smoothie"]?.missing == ["Banana", "Milk"])
        #expect(byName["Smoothie"]?.useSoon == ["Banana"], "an expired match still flags the recipe")
        #expect(try kitchen.overview().total == 3)
    }

    @Test func recipesUsingWhatExpiresSoonestComeFirst() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Tofu", due: "2026-11-23") // today
        try kitchen.add("Milk", due: "2026-11-25") // in two days
        try kitchen.add("Egg", due: "2026-11-24") // tomorrow
        try kitchen.add("Ham", due: "2026-11-20") // expired
        try kitchen.add("Rice", due: "2027-01-01") // later
        try kitchen.add("Bread")
        try kitchen.recipe("A rice bowl", [("Rice", 1, nil)])
        try kitchen.recipe("B toast", [("Bread", 1, nil), ("Jam", 1, nil)])
        try kitchen.recipe("C sandwich", [("Bread", 1, nil), ("Ham", 1, nil)])
        try kitchen.recipe("D pudding", [("Milk", 1, nil), ("Egg", 1, nil)])
        try kitchen.recipe("E miso soup", [("Tofu", 1, nil)])
        try kitchen.recipe("F latte", [("Milk", 1, nil)])
        try kitchen.recipe("G omelette", [("Egg", 1, nil)])
        try kitchen.recipe("H pancakes", [("Flour", 1, nil), ("Sugar", 1, nil)])

        let order = try kitchen.overview().recipes.map(\.recipe.name)
        // Milk in 2 days (1.67) + egg tomorrow (2) beat tofu today (3) alone; then egg, milk; the
        // expired ham (0.5) still comes before recipes with nothing urgent, which go ready first.
        #expect(order == ["D pudding", "E miso soup", "G omelette", "F latte", "C sandwich", "A rice bowl", "B toast", "H pancakes"])
        let pudding = try #require(try kitchen.overview().recipes.first)
        #expect(pudding.useSoon == ["Milk", "Egg"])
    }

    @Test func recipesFilterByReadinessTagTextAndIngredient() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("牛乳", 1, "L")
        try kitchen.add("Ｃｏｆｆｅｅ", 1, "bag") { $0.barcode = "4901111111110" }
        let coffee = try kitchen.product(barcode: "4901111111110")
        try kitchen.recipe("カフェオレ", [("ミルク", 200, "ml"), ("beans", nil, nil)], tags: ["drinks", "朝"], productIds: [nil, coffee])
        try kitchen.recipe("Milk jelly", [("牛乳", 300, "ml"), ("Gelatin", 5, "g")], tags: ["dessert"])
        try kitchen.recipe("Hot milk", [("牛乳", 200, "ml")], tags: ["drinks"])
        try kitchen.recipe("Green salad", [("Lettuce", 1, nil)])

        func names(_ filter: RecipeFilter) throws -> [String] { try kitchen.overview(filter).recipes.map(\.recipe.name).sorted() }
        #expect(try names(RecipeFilter(readiness: .ready)) == ["Hot milk"])
        #expect(try names(RecipeFilter(readiness: .missingOne)) == ["Green salad", "Milk jelly", "カフェオレ"])
        #expect(try names(RecipeFilter(readiness: .missingSeveral)) == [])
        #expect(try names(RecipeFilter(tag: "drinks")) == ["Hot milk", "カフェオレ"])
        #expect(try names(RecipeFilter(tag: "朝")) == ["カフェオレ"])
        #expect(try names(RecipeFilter(text: "MILK")) == ["Hot milk", "Milk jelly"])
        #expect(try names(RecipeFilter(text: " ｍｉｌｋ ")) == ["Hot milk", "Milk jelly"])
        // Ingredient names count for the text too.
        #expect(try names(RecipeFilter(text: "gelat")) == ["Milk jelly"])
        #expect(try names(RecipeFilter(text: "ミルク")) == ["カフェオレ"])
        // ?ingredient=: the whole folded name, or a linked product's name.
        #expect(try names(RecipeFilter(ingredient: "牛乳")) == ["Hot milk", "Milk jelly"])
        #expect(try names(RecipeFilter(ingredient: "牛")) == [])
        #expect(try names(RecipeFilter(ingredient: "coffee")) == ["カフェオレ"])
        #expect(try names(RecipeFilter(readiness: .ready, tag: "drinks", text: "hot", ingredient: "牛乳")) == ["Hot milk"])
        #expect(try names(RecipeFilter(tag: "drinks", ingredient: "gelatin")) == [])
        let overview = try kitchen.overview(RecipeFilter(tag: "dessert"))
        #expect(overview.tags == ["dessert", "drinks", "朝"])
        #expect(overview.total == 4)
    }

    @Test func trashedRecipesAndTheirTagsLeaveTheOverview() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.recipe("Kept", tags: ["a"])
        let gone = try kitchen.recipe("Gone", [("Milk", nil, nil)], tags: ["b"])
        try kitchen.database.writer.write { db in
            try db.execute(sql: "UPDATE recipe SET deleted_at = '2026-11-23T00:00:00Z' WHERE id = ?", arguments: [gone])
        }
        let overview = try kitchen.overview()
        #expect(overview.recipes.map(\.recipe.name) == ["Kept"])
        #expect(overview.tags == ["a"])
        #expect(overview.total == 1)
        #expect(throws: InventoryError.notFound) { try kitchen.detail(gone) }
    }

    // MARK: - Cost

    /// Every statement a database runs.
    final class StatementLog: Sendable {
        let texts = Mutex<[String]>([])
        func take() -> [String] {
            texts.withLock { texts in
                defer { texts.removeAll() }
                return texts
            }
        }
    }

    static func tracedKitchen() throws -> (RecipeKitchen, StatementLog) {
        let log = StatementLog()
        var configuration = AppDatabase.configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { log.texts.withLock { $0.append(statement.sql) } }
            }
        }
        return (try RecipeKitchen(database: try AppDatabase(DatabaseQueue(configuration: configuration))), log)
    }

    /// `count` recipes of ten ingredients each, half of them found in stock.
    static func fill(_ kitchen: RecipeKitchen, recipes range: Range<Int>) throws {
        try kitchen.database.writer.write { db in
            for number in range {
                let recipe = try Recipe.Draft(householdId: kitchen.household.householdId, name: "Recipe \(number)").insertAndFetch(db, as: Recipe.self)
                for position in 0..<10 {
                    try RecipeIngredient.Draft(
                        householdId: kitchen.household.householdId, recipeId: recipe.id, position: position, name: "Ingredient \((number + position) % 40)",
                        amount: 100, unit: "g"
                    ).insert(db)
                }
                try RecipeTag(recipeId: recipe.id, householdId: kitchen.household.householdId, tag: "tag \(number % 7)").insert(db)
            }
        }
    }

    @Test func theOverviewRunsTheSameStatementsForTwentyRecipesAndForTwoHundred() throws {
        let (kitchen, log) = try Self.tracedKitchen()
        for number in stride(from: 0, to: 40, by: 2) { try kitchen.add("Ingredient \(number)", 1, "kg", due: number % 4 == 0 ? "2026-11-24" : "") }
        try Self.fill(kitchen, recipes: 0..<20)
        _ = log.take()
        let small = try kitchen.overview()
        let few = log.take()
        try Self.fill(kitchen, recipes: 20..<200)
        _ = log.take()
        let large = try kitchen.overview()
        let many = log.take()

        #expect(small.recipes.count == 20)
        #expect(large.recipes.count == 200)
        #expect(large.recipes.contains { $0.readiness == .ready } || large.recipes.contains { $0.readiness == .missingSeveral })
        #expect(many.count == few.count, "\(many)")
        #expect(many == few)
        // The catalog's version, the recipes, their ingredients, their tags, two matching queries,
        // the household's change sequence and the meal plan's meals to come (none here: nothing
        // more to read) (plus BEGIN/COMMIT).
        #expect(many.filter { $0.hasPrefix("SELECT") || $0.hasPrefix("WITH") }.count == 8, "\(many)")
        // Read again with nothing changed: the version, the stock and the change sequence only (the
        // plan's reservations are kept until it moves).
        _ = try kitchen.overview()
        let again = log.take()
        #expect(again.filter { $0.hasPrefix("SELECT") || $0.hasPrefix("WITH") }.count == 4, "\(again)")
    }

    @Test func theKeptRecipesFollowEveryChangeWhoeverWritesIt() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Ingredient 1", 1, "kg")
        try Self.fill(kitchen, recipes: 0..<3)
        #expect(try kitchen.overview().recipes.count == 3)
        // The stock is read every time.
        try kitchen.add("Ingredient 2", 1, "kg")
        let stocked = try kitchen.overview().recipes.first { $0.recipe.name == "Recipe 1" }
        #expect(stocked?.missing.contains("Ingredient 2") == false)
        // Recipes, ingredients and tags changed by plain SQL (another process) are seen at once.
        try kitchen.database.writer.write { db in
            try db.execute(sql: "UPDATE recipe SET name = 'Renamed', name_folded = 'renamed' WHERE name = 'Recipe 0'")
            try db.execute(sql: "UPDATE recipe_ingredient SET name = 'Saffron', name_folded = 'saffron' WHERE position = 0")
            try db.execute(sql: "INSERT INTO recipe_tag (recipe_id, household_id, tag) SELECT id, household_id, 'new tag' FROM recipe WHERE name = 'Renamed'")
        }
        let changed = try kitchen.overview()
        #expect(changed.recipes.map(\.recipe.name).sorted() == ["Recipe 1", "Recipe 2", "Renamed"])
        #expect(changed.recipes.allSatisfy { $0.missing.first == "Saffron" })
        #expect(changed.tags.contains("new tag"))
        try kitchen.database.writer.write { db in
            try db.execute(sql: "DELETE FROM recipe_tag WHERE tag = 'new tag'")
            try db.execute(sql: "DELETE FROM recipe_ingredient WHERE name = 'Saffron'")
            try db.execute(sql: "UPDATE recipe SET deleted_at = '2026-11-23T00:00:00Z' WHERE name = 'Renamed'")
        }
        let trimmed = try kitchen.overview()
        #expect(trimmed.recipes.map(\.recipe.name).sorted() == ["Recipe 1", "Recipe 2"])
        #expect(!trimmed.tags.contains("new tag"))
        #expect(trimmed.recipes.allSatisfy { !$0.missing.contains("Saffron") })
    }

    @Test func theOverviewsQueriesReadIndexes() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Ingredient 1")
        try Self.fill(kitchen, recipes: 0..<20)
        func plan(_ sql: String, _ arguments: StatementArguments) throws -> String {
            try kitchen.database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: " | ")
            }
        }
        let household = kitchen.household
        let recipes = try plan(RecipeCatalog.recipesSQL, [household.householdId])
        #expect(recipes.contains("USING INDEX recipe_by_name (household_id=?)"), "\(recipes)")
        #expect(!recipes.contains("TEMP B-TREE"), "\(recipes)")
        let ingredients = try plan(RecipeCatalog.ingredientsSQL, [household.householdId])
        // In recipe order from the index alone: no seek into the table per ingredient, no sorting.
        #expect(ingredients == "SEARCH recipe_ingredient USING COVERING INDEX recipe_ingredient_by_household (household_id=?)", "\(ingredients)")
        let tags = try plan(RecipeCatalog.tagsSQL, [household.householdId])
        #expect(tags.contains("USING COVERING INDEX recipe_tag_by_household (household_id=?)"), "\(tags)")
        let matching = try plan(RecipeStock.nameSQL(filter: RecipeStock.householdFilter), [household.householdId, household.householdId])
        #expect(matching.contains("USING INDEX item_by_folded_name"), "\(matching)")
        // The distinct names from the index alone too.
        #expect(matching.contains("SEARCH ri USING COVERING INDEX recipe_ingredient_by_name (household_id=?)"), "\(matching)")
        // /recipes gives the names it knows from its catalog: each one range of the index.
        let given = try plan(RecipeStock.nameSQL(wanted: "SELECT value AS name FROM json_each(?)"), ["[\"ingredient 1\"]", household.householdId])
        #expect(given.contains("USING INDEX item_by_folded_name (household_id=? AND search_text>? AND search_text<?)"), "\(given)")
    }

    @Test func ingredientSuggestionsAreTheHouseholdsItemAndProductNamesOnceEach() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Milk")
        try kitchen.add("milk")
        try kitchen.add("Butter", folder: try kitchen.folder(.shopping))
        try kitchen.add("Coffee") { $0.barcode = "4901111111110" }
        let trashed = try kitchen.add("Ham")
        try kitchen.fixture.items.trash([trashed], in: kitchen.household, by: kitchen.member)
        try kitchen.database.writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO product (household_id, barcode, name, kind, unit, updated_at) VALUES (?, '123456', 'Apple', 'fruit', 'piece', '2026-11-22T00:00:00Z')",
                arguments: [kitchen.household.householdId])
        }
        let suggestions = try kitchen.recipes.ingredientSuggestions(in: kitchen.household)
        #expect(suggestions.map { SearchText.fold($0) } == ["apple", "butter", "coffee", "milk"])
        #expect(try kitchen.recipes.products(in: kitchen.household).map(\.name) == ["Apple", "Coffee"])
    }

    @Test func ingredientSuggestionsStopAtFiveHundred() throws {
        let kitchen = try RecipeKitchen()
        let folder = try kitchen.folder(.stock)
        try kitchen.database.writer.write { db in
            for number in 0..<520 {
                try Item.Draft(householdId: kitchen.household.householdId, folderId: folder, name: String(format: "Item %03d", number)).insert(db)
            }
        }
        let suggestions = try kitchen.recipes.ingredientSuggestions(in: kitchen.household)
        #expect(suggestions.count == 500)
        #expect(suggestions.first == "Item 000")
        #expect(suggestions.last == "Item 499")
    }
}
