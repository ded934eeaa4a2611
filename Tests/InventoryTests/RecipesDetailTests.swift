import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A recipe against the stock, through `Recipes.detail`: matching and folding, units, the
/// presence-only rule, several stock lists, expired stock apart, isolation.
@Suite("Recipes: a recipe's page")
struct RecipesDetailTests {
    @Test func anIngredientMatchesItemsWhoseNameFoldsToItsName() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Ｍｉｌｋ", 1, "L")
        try kitchen.add("MILK", 500, "ml")
        try kitchen.add("Milk tea")
        try kitchen.add("Milk", 1, "L")
        try kitchen.add("ＢＵＴＴＥＲ")
        let id = try kitchen.recipe("Pancakes", [("milk", 300, "ml"), ("Butter", nil, nil), ("Flour", 200, "g")])

        let detail = try kitchen.detail(id)
        #expect(detail.ingredients.map(\.ingredient.name) == ["milk", "Butter", "Flour"])
        #expect(Set(detail.ingredients[0].fresh.map(\.name)) == ["Ｍｉｌｋ", "MILK", "Milk"])
        #expect(detail.ingredients[0].standing == .enough)
        #expect(detail.ingredients[1].fresh.map(\.name) == ["ＢＵＴＴＥＲ"])
        #expect(detail.ingredients[2].standing == .missing)
        #expect(detail.readiness == .missingOne)
    }

    @Test func amountsConvertWithinADimensionAndScaleWithServings() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Flour", 0.5, "kg")
        try kitchen.add("Chicken", 1, "pack")
        try kitchen.add("Egg", 3)
        let id = try kitchen.recipe("Pie", [("Flour", 300, "g"), ("Chicken", 200, "g"), ("Egg", 2, nil)], servings: 2)

        let two = try kitchen.detail(id)
        #expect(two.servings == 2)
        #expect(two.ingredients.map(\.standing) == [.enough, .uncomparable, .enough])
        #expect(two.readiness == .ready)

        let four = try kitchen.detail(id, servings: 4)
        #expect(four.servings == 4)
        #expect(four.ingredients.map(\.need.amount) == [600, 400, 4])
        #expect(four.ingredients.map(\.standing) == [.short(missing: 100), .uncomparable, .short(missing: 1)])
        #expect(four.readiness == .missingSeveral)
    }

    @Test func measuresAndIngredientsWithoutAnAmountOnlyNeedToBeThere() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Salt", 1, "bag")
        try kitchen.add("Soy sauce", 0, "bottle")
        let id = try kitchen.recipe("Soup", [("Salt", 2, "tsp"), ("Pepper", nil, "to_taste"), ("Soy sauce", nil, nil)])

        let detail = try kitchen.detail(id, servings: 10)
        #expect(detail.ingredients.map(\.need.presenceOnly) == [true, true, true])
        #expect(detail.ingredients[0].need.amount == 10, "a measure is shown scaled")
        // Salt is there; pepper is not; a bottle with nothing left is not there either.
        #expect(detail.ingredients.map(\.standing) == [.enough, .missing, .missing])
        #expect(detail.readiness == .missingSeveral)
    }

    @Test func availabilityCountsFreshStockInEveryStockListAndShowsExpiredApart() throws {
        let kitchen = try RecipeKitchen()
        let pantry = try kitchen.pantry()
        try kitchen.add("Rice", 300, "g", due: "2026-12-30")
        try kitchen.add("Rice", 0.5, "kg", folder: pantry)
        try kitchen.add("Rice", 2, "kg", due: "2026-11-20", folder: pantry)
        try kitchen.add("Rice", 5, "kg", folder: try kitchen.folder(.shopping))
        let id = try kitchen.recipe("Onigiri", [("Rice", 700, "g")])

        let rice = try #require(try kitchen.detail(id).ingredients.first)
        #expect(rice.fresh.map(\.quantity) == [300, 0.5])
        #expect(Set(rice.fresh.map(\.folderId)) == [try kitchen.folder(.stock), pantry])
        #expect(rice.expired.map(\.quantity) == [2])
        #expect(rice.expired.map(\.folderId) == [pantry])
        // 300 g + 500 g fresh; the expired 2 kg and the shopping list's 5 kg do not count.
        #expect(rice.standing == .enough)
        let more = try #require(try kitchen.detail(id, servings: 6).ingredients.first)
        #expect(more.standing == .short(missing: 1300))
    }

    @Test func onlyExpiredStockIsMissing() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("Milk", 1, "L", due: "2026-11-22")
        let id = try kitchen.recipe("Latte", [("Milk", 200, "ml")])
        let milk = try #require(try kitchen.detail(id).ingredients.first)
        #expect(milk.fresh.isEmpty)
        #expect(milk.expired.count == 1)
        #expect(milk.standing == .missing)
    }

    @Test func servingsOutsideOneToAHundredShowTheRecipesOwn() throws {
        let kitchen = try RecipeKitchen()
        let id = try kitchen.recipe("Tea", [("Tea", 1, nil)], servings: 3)
        #expect(try kitchen.detail(id, servings: 0).servings == 3)
        #expect(try kitchen.detail(id, servings: 101).servings == 3)
        #expect(try kitchen.detail(id, servings: nil).servings == 3)
        #expect(try kitchen.detail(id, servings: 100).servings == 100)
        #expect(try kitchen.detail(id, servings: 1).ingredients[0].need.amount == 0.333)
    }

    @Test func anIngredientLinkedToAProductMatchesItsBarcode() throws {
        let kitchen = try RecipeKitchen()
        try kitchen.add("明治おいしい牛乳", 1, "bottle") { $0.barcode = "4902705001046" }
        try kitchen.add("Milk")
        let product = try kitchen.product(barcode: "4902705001046")
        let id = try kitchen.recipe("Latte", [("Milk", 1, "bottle")], productIds: [product])
        #expect(try kitchen.detail(id).ingredients[0].fresh.map(\.name) == ["明治おいしい牛乳"])
    }

    @Test func anotherHouseholdsRecipesItemsAndProductsStayTheirs() throws {
        let kitchen = try RecipeKitchen()
        let (nextDoor, theirFolder) = try kitchen.nextDoor()
        try kitchen.database.writer.write { db in
            var item = Item(householdId: nextDoor.householdId, folderId: theirFolder, name: "Milk")
            item.barcode = "4902705001046"
            try item.insert(db)
            try db.execute(
                sql:
                    "INSERT INTO product (household_id, barcode, name, kind, unit, updated_at) VALUES (?, '4902705001046', 'Milk', 'dairy_eggs', 'bottle', '2026-11-23T00:00:00Z')",
                arguments: [nextDoor.householdId])
        }
        let theirProduct = try kitchen.product(barcode: "4902705001046", in: nextDoor)
        let theirRecipe = try kitchen.recipe("Their latte", [("Milk", nil, nil)], in: nextDoor)
        // Our recipe naming their product (a row written past validation) still never sees their stock.
        let ours = try kitchen.recipe("Latte", [("Milk", nil, nil), ("Cream", nil, nil)], productIds: [nil, theirProduct])

        #expect(throws: InventoryError.notFound) { try kitchen.detail(theirRecipe) }
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.recipe(theirRecipe, in: kitchen.household) }
        #expect(throws: InventoryError.notFound) { try kitchen.recipes.input(theirRecipe, in: kitchen.household) }
        let detail = try kitchen.detail(ours)
        #expect(detail.ingredients.allSatisfy { $0.fresh.isEmpty && $0.expired.isEmpty })
        #expect(detail.readiness == .missingSeveral)
        #expect(try kitchen.overview().recipes.map(\.recipe.name) == ["Latte"])
        #expect(try kitchen.recipes.products(in: kitchen.household).isEmpty)
        #expect(try kitchen.recipes.ingredientSuggestions(in: kitchen.household).isEmpty)
    }
}
