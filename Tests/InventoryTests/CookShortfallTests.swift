import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// What is missing goes to a shopping list: less what the list already has, merged into its rows.
struct CookShortfallTests {
    func add(_ kitchen: CookKitchen, _ recipe: Int64, servings: Int = 2, to list: Int64? = nil) throws -> [AddedToList] {
        try kitchen.cooking.addShortfall(
            recipe, servings: servings, to: try list ?? kitchen.folder(.shopping), in: kitchen.household, by: kitchen.member,
            window: kitchen.window)
    }

    func shoppingRows(_ kitchen: CookKitchen) throws -> [String] {
        let list = try kitchen.folder(.shopping)
        return try kitchen.database.writer.read { db in
            try Item.fetchAll(db, sql: "SELECT * FROM item WHERE folder_id = ? AND deleted_at IS NULL ORDER BY id", arguments: [list])
                .map { "\($0.name) \(Quantity.text($0.quantity)) \($0.unit.rawValue) \($0.kind.rawValue)" }
        }
    }

    @Test func theMissingAmountsAreAddedLessWhatTheListHasMergedIntoRowsOfTheSameNameAndUnit() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Milk", 200, "ml")
        try kitchen.add("Egg", 1, due: "2026-11-01") // expired: its kind is kept for the new row
        try kitchen.add("Sugar", 1, "bag")
        try kitchen.add("ＭＩＬＫ", 0.1, "L", kind: .shopping) // on the list already, another unit
        try kitchen.add("milk", 50, "ml", kind: .shopping)
        try kitchen.add("Flour", 1, "pack", kind: .shopping) // does not compare: does not count
        let pancakes = try kitchen.recipe(
            "Pancakes", [("Milk", 600, "ml"), ("Flour", 250, "g"), ("Egg", 2, nil), ("Sugar", 1, "tbsp"), ("Butter", nil, nil), ("egg", 1, nil)])

        let added = try add(kitchen, pancakes)
        #expect(
            added == [
                AddedToList(name: "milk", amount: 250, unit: "ml", merged: true),
                AddedToList(name: "Flour", amount: 250, unit: "g", merged: false),
                AddedToList(name: "Egg", amount: 3, unit: "piece", merged: false),
                AddedToList(name: "Butter", amount: nil, unit: "piece", merged: false),
            ])
        #expect(
            try shoppingRows(kitchen) == [
                "ＭＩＬＫ 0.1 L other", "milk 300 ml other", "Flour 1 pack other", "Flour 250 g other", "Egg 3 piece other", "Butter 1 piece other",
            ])

        // Nothing is added twice.
        #expect(try add(kitchen, pancakes) == [])
        // More servings: only the difference.
        #expect(try add(kitchen, pancakes, servings: 4).first == AddedToList(name: "milk", amount: 600, unit: "ml", merged: true))
    }

    @Test func aNewRowTakesTheKindOfTheHouseholdsItemsOfThatName() throws {
        let kitchen = try CookKitchen()
        let stock = try kitchen.folder(.stock)
        try kitchen.database.writer.write { db in
            var item = Item(householdId: kitchen.household.householdId, folderId: stock, name: "Egg", quantity: 1, kind: .dairyEggs, due: "2026-11-01")
            try item.insert(db)
        }
        let omelette = try kitchen.recipe("Omelette", [("egg", 3, nil)])
        #expect(try add(kitchen, omelette) == [AddedToList(name: "egg", amount: 3, unit: "piece", merged: false)])
        #expect(try shoppingRows(kitchen) == ["egg 3 piece dairy_eggs"])
    }

    @Test func theListMustBeOneOfTheHouseholdsShoppingLists() throws {
        let kitchen = try CookKitchen()
        let recipe = try kitchen.recipe("Toast", [("Bread", 1, nil)])
        #expect(throws: InventoryError.validation(["folder": .folderNotShopping])) { try add(kitchen, recipe, to: try kitchen.folder(.stock)) }
        let nextDoor = try kitchen.nextDoor()
        let theirs = try kitchen.fixture.firstFolder(.shopping, in: nextDoor)
        #expect(throws: InventoryError.notFound) { try add(kitchen, recipe, to: theirs) }
        let theirRecipe = try kitchen.recipe("Their toast", [("Bread", 1, nil)], in: nextDoor)
        #expect(throws: InventoryError.notFound) { try add(kitchen, theirRecipe) }
        #expect(try shoppingRows(kitchen) == [])
    }
}
