import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// What a cook would take: fresh matches only, earliest due and opened first, as much as each item
/// has, presence-only and uncomparable ingredients left alone, shortfalls named with their amounts.
struct CookPlanTests {
    @Test func takesFromFreshMatchesInTakingOrderUntilTheNeedIsMet() throws {
        let kitchen = try CookKitchen()
        let later = try kitchen.add("Milk", 1, "L", due: "2026-11-30")
        let opened = try kitchen.add("Milk", 0.25, "L", due: "2026-11-25", status: "opened")
        let sameDay = try kitchen.add("Milk", 200, "ml", due: "2026-11-25")
        try kitchen.add("Milk", 500, "ml", due: "2026-11-20") // expired: never taken
        let pancakes = try kitchen.recipe("Pancakes", [("milk", 600, "ml")])

        let plan = try kitchen.plan(pancakes)
        #expect(plan.takes.map(\.itemId) == [opened, sameDay, later])
        #expect(plan.takes.map(\.amount) == [0.25, 200, 0.15])
        #expect(plan.takes.map(\.unit) == ["L", "ml", "L"])
        #expect(plan.takes.map(\.usesUp) == [true, true, false])
        #expect(plan.takes.allSatisfy { $0.ingredientName == "milk" && $0.itemName == "Milk" && $0.folderName == "Fridge" })
        #expect(plan.takes.first?.due == "2026-11-25")
        #expect(!plan.isShort)
        #expect(plan.notTaken.isEmpty)
    }

    @Test func amountsScaleWithTheServings() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Egg", 10)
        let omelette = try kitchen.recipe("Omelette", servings: 2, [("Egg", 3, nil)])
        #expect(try kitchen.plan(omelette, servings: 4).takes.map(\.amount) == [6])
        #expect(try kitchen.plan(omelette, servings: 1).takes.map(\.amount) == [1.5])
        #expect(try kitchen.plan(omelette, servings: 6).shortfalls == [])
        #expect(try kitchen.plan(omelette, servings: 8).shortfalls == [Shortfall(ingredientName: "Egg", missing: 2, unit: .piece)])
    }

    @Test func presenceOnlyIngredientsAreNotTakenAndNamedWhenAbsent() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Salt", 1, "bag")
        try kitchen.add("Cucumber", 2)
        let salad = try kitchen.recipe("Salad", [("Cucumber", 1, "piece"), ("salt", 1, "tsp"), ("Soy sauce", nil, nil), ("Pepper", nil, "to_taste")])

        let plan = try kitchen.plan(salad)
        #expect(plan.takes.map(\.ingredientName) == ["Cucumber"])
        #expect(plan.notTaken == [NotTaken(ingredientName: "salt", reason: .onlyNeedsToBeThere)])
        #expect(
            plan.shortfalls == [
                Shortfall(ingredientName: "Soy sauce", missing: nil, unit: nil), Shortfall(ingredientName: "Pepper", missing: nil, unit: .toTaste),
            ])
    }

    @Test func itemsInUnitsThatDoNotCompareAreNeverTaken() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Chicken", 1, "pack", due: "2026-11-24")
        let curry = try kitchen.recipe("Curry", [("Chicken", 200, "g")])

        // Only a pack: there (ready), nothing taken, the page says why.
        let onlyPack = try kitchen.plan(curry)
        #expect(onlyPack.takes.isEmpty)
        #expect(onlyPack.shortfalls.isEmpty)
        #expect(onlyPack.notTaken == [NotTaken(ingredientName: "Chicken", reason: .unitsDoNotCompare)])

        // A pack and 50 g: the grams are taken, 150 g short, and the pack named as not compared.
        let grams = try kitchen.add("chicken", 50, "g", due: "2026-11-26")
        let both = try kitchen.plan(curry)
        #expect(both.takes.map(\.itemId) == [grams])
        #expect(both.takes.map(\.amount) == [50])
        #expect(both.shortfalls == [Shortfall(ingredientName: "Chicken", missing: 150, unit: .g)])
        #expect(both.notTaken == [NotTaken(ingredientName: "Chicken", reason: .unitsDoNotCompare)])

        // Enough in grams: the pack is not mentioned.
        try kitchen.add("Chicken", 0.3, "kg", due: "2026-11-28")
        let enough = try kitchen.plan(curry)
        #expect(enough.takes.map(\.amount) == [50, 0.15])
        #expect(enough.notTaken.isEmpty && !enough.isShort)
    }

    @Test func aSecondIngredientSeesWhatTheFirstLeft() throws {
        let kitchen = try CookKitchen()
        let eggs = try kitchen.add("Egg", 4)
        let recipe = try kitchen.recipe("Egg day", [("Egg", 2, "piece"), ("egg", 3, "piece"), ("EGG", nil, nil)])

        let plan = try kitchen.plan(recipe)
        #expect(plan.takes.map(\.itemId) == [eggs, eggs])
        #expect(plan.takes.map(\.amount) == [2, 2])
        #expect(plan.takes.map(\.usesUp) == [false, true])
        // The third needs eggs to be there: none left.
        #expect(
            plan.shortfalls == [
                Shortfall(ingredientName: "egg", missing: 1, unit: .piece), Shortfall(ingredientName: "EGG", missing: nil, unit: nil),
            ])
    }

    @Test func missingIngredientsAreNamedWithTheWholeAmount() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Apple", 1, due: "2026-11-20") // expired only
        try kitchen.add("Orange", 0) // none left
        try kitchen.add("Carrot", 1)
        let juice = try kitchen.recipe("Juice", [("Apple", 2, "piece"), ("Orange", 1, "piece"), ("Carrot", 3, "piece"), ("Ginger", 10, "g")])

        let plan = try kitchen.plan(juice)
        #expect(
            plan.shortfalls == [
                Shortfall(ingredientName: "Apple", missing: 2, unit: .piece), Shortfall(ingredientName: "Orange", missing: 1, unit: .piece),
                Shortfall(ingredientName: "Carrot", missing: 2, unit: .piece), Shortfall(ingredientName: "Ginger", missing: 10, unit: .g),
            ])
        #expect(plan.takes.map(\.amount) == [1])
        #expect(plan.isShort)
    }

    @Test func anotherHouseholdsRecipeIsNotFoundAndServingsMustBeSensible() throws {
        let kitchen = try CookKitchen()
        let theirs = try kitchen.recipe("Their stew", [("Beef", 1, nil)], in: try kitchen.nextDoor())
        #expect(throws: InventoryError.notFound) { try kitchen.plan(theirs) }
        let ours = try kitchen.recipe("Stew", [("Beef", 1, nil)])
        #expect(throws: InventoryError.validation(["servings": .cookServingsInvalid])) { try kitchen.plan(ours, servings: 0) }
        #expect(throws: InventoryError.validation(["servings": .cookServingsInvalid])) { try kitchen.plan(ours, servings: 1001) }
        // A recipe in the trash is not cooked.
        try kitchen.database.writer.write { db in try db.execute(sql: "UPDATE recipe SET deleted_at = '2026-11-23T08:00:00Z' WHERE id = ?", arguments: [ours]) }
        #expect(throws: InventoryError.notFound) { try kitchen.plan(ours) }
    }
}
