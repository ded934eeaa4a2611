import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Undoing a cook gives back what it took, however the items changed since, in one step.
struct CookUndoTests {
    func undo(_ kitchen: CookKitchen, _ cookId: Cook.ID) throws {
        try kitchen.cooking.undo(cookId, in: kitchen.household, by: kitchen.member)
    }

    @Test func undoAddsBackWhatWasTakenEvenAfterOtherChanges() throws {
        let kitchen = try CookKitchen()
        let apples = try kitchen.add("Apple", 5)
        let milk = try kitchen.add("Milk", 1, "L")
        let smoothie = try kitchen.recipe("Smoothie", [("Apple", 2, nil), ("Milk", 250, "ml")])
        let cookId = try kitchen.cook(smoothie).cookId
        #expect(try kitchen.quantity(apples) == 3)
        // Someone eats an apple after the cook: the undo adds 2 back to what is there now.
        try kitchen.fixture.items.adjustQuantity(apples, by: -1, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(60)

        try undo(kitchen, cookId)
        #expect(try kitchen.quantity(apples) == 4)
        #expect(try kitchen.quantity(milk) == 1)
        let event = try #require(try kitchen.history(milk).first)
        #expect(event.kind == "quantity" && event.detail == "0.75 → 1" && event.cookId == cookId)
        let cook = try kitchen.cooking.cook(cookId, in: kitchen.household)
        #expect(cook.undoneAt == "2026-11-23T09:01:00Z")
    }

    @Test func undoBringsTrashedItemsBackAndTrashesTheProducedItem() throws {
        let kitchen = try CookKitchen()
        let apple = try kitchen.add("Apple", 1)
        let oranges = try kitchen.add("Orange", 4)
        let juice = try kitchen.recipe(
            "Juice", [("Apple", 1, nil), ("Orange", 2, nil), ("orange", 2, nil)],
            produce: RecipeProduce(name: "Juice", quantity: 1, unit: .bottle, kind: .drinks, dueDays: 1))
        let result = try kitchen.cook(juice)
        #expect(result.taken == 2 && result.usedUp == 2)
        #expect(try kitchen.row(apple).deletedAt != nil && kitchen.row(oranges).deletedAt != nil)
        let produced = try #require(result.producedItemId)

        try undo(kitchen, result.cookId)
        let appleRow = try kitchen.row(apple)
        #expect(appleRow.deletedAt == nil && appleRow.quantity == 1)
        let orangeRow = try kitchen.row(oranges)
        #expect(orangeRow.deletedAt == nil && orangeRow.quantity == 4)
        #expect(try kitchen.history(apple).prefix(2).map(\.kind) == ["quantity", "restored"])
        #expect(try kitchen.row(produced).deletedAt != nil)
        let deleted = try #require(try kitchen.history(produced).first)
        #expect(deleted.kind == "deleted" && deleted.cookId == result.cookId)
    }

    @Test func undoMovesUsedUpItemsBackFromTheShoppingListAsTheyWere() throws {
        let kitchen = try CookKitchen()
        try kitchen.cooking.setUsedUp("shopping", folderId: nil, in: kitchen.household)
        let fridge = try kitchen.folder(.stock)
        let tofu = try kitchen.add("Tofu", 2, "pack", due: "2026-11-25", status: "opened")
        let soup = try kitchen.recipe("Miso soup", [("Tofu", 2, "pack")])
        let cookId = try kitchen.cook(soup).cookId
        #expect(try kitchen.row(tofu).folderId == kitchen.folder(.shopping))

        try undo(kitchen, cookId)
        let row = try kitchen.row(tofu)
        #expect(row.folderId == fridge)
        #expect(row.quantity == 2)
        #expect(row.due == "2026-11-25")
        #expect(row.status == .opened)
        let moved = try kitchen.history(tofu).prefix(2)
        #expect(moved.map(\.kind) == ["quantity", "moved"])
        #expect(moved.allSatisfy { $0.cookId == cookId })
    }

    @Test func aMovedItemWhoseListIsGoneComesBackToTheFirstStockList() throws {
        let kitchen = try CookKitchen()
        try kitchen.cooking.setUsedUp("shopping", folderId: nil, in: kitchen.household)
        let box = try kitchen.makeFolder("Veg box", .stock)
        let leek = try kitchen.add("Leek", 1, in: box)
        let soup = try kitchen.recipe("Leek soup", [("Leek", 1, nil)])
        let cookId = try kitchen.cook(soup).cookId
        try kitchen.database.writer.write { db in try db.execute(sql: "UPDATE folder SET deleted_at = '2026-11-23T09:00:00Z' WHERE id = ?", arguments: [box]) }

        try undo(kitchen, cookId)
        #expect(try kitchen.row(leek).folderId == kitchen.folder(.stock))
    }

    @Test func aMovedItemBoughtSinceKeepsWhatWasBoughtAndGetsTheTakenAmountBack() throws {
        let kitchen = try CookKitchen()
        try kitchen.cooking.setUsedUp("shopping", folderId: nil, in: kitchen.household)
        let fridge = try kitchen.folder(.stock)
        let tofu = try kitchen.add("Tofu", 2, "pack")
        let soup = try kitchen.recipe("Miso soup", [("Tofu", 2, "pack")])
        let cookId = try kitchen.cook(soup).cookId
        try kitchen.fixture.items.markBought([tofu], into: fridge, in: kitchen.household, by: kitchen.member)

        try undo(kitchen, cookId)
        let row = try kitchen.row(tofu)
        #expect(row.folderId == fridge && row.quantity == 3)
    }

    @Test func anUndoThatFailsMidwayChangesNothing() throws {
        let kitchen = try CookKitchen()
        let apple = try kitchen.add("Apple", 3)
        try kitchen.add("Orange", 1)
        let juice = try kitchen.recipe(
            "Juice", [("Apple", 2, nil), ("Orange", 1, nil)], produce: RecipeProduce(name: "Juice", quantity: 1, unit: .bottle, kind: .drinks))
        let cookId = try kitchen.cook(juice).cookId
        let before = try kitchen.snapshot()
        // Takes are given back last first: the orange comes out of the trash, then the apple fails.
        try kitchen.database.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: "CREATE TEMP TRIGGER fail_apple BEFORE UPDATE ON item WHEN NEW.id = \(apple) BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
        }
        #expect(throws: DatabaseError.self) { try undo(kitchen, cookId) }
        #expect(try kitchen.snapshot() == before)
        #expect(try kitchen.cooking.cook(cookId, in: kitchen.household).undoneAt == nil)
    }

    @Test func aSecondUndoIsAConflictAndAnotherHouseholdsCookIsNotFound() throws {
        let kitchen = try CookKitchen()
        let apples = try kitchen.add("Apple", 5)
        let recipe = try kitchen.recipe("Apple pie", [("Apple", 2, nil)])
        let cookId = try kitchen.cook(recipe).cookId
        let nextDoor = try kitchen.nextDoor()
        #expect(throws: InventoryError.notFound) { try kitchen.cooking.undo(cookId, in: nextDoor, by: kitchen.member) }
        #expect(try kitchen.quantity(apples) == 3)

        try undo(kitchen, cookId)
        #expect(throws: InventoryError.conflict) { try undo(kitchen, cookId) }
        #expect(try kitchen.quantity(apples) == 5)
        #expect(throws: InventoryError.notFound) { try undo(kitchen, 9999) }
    }
}
