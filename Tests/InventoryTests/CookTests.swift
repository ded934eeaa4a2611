import Dispatch
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Cooking takes it all in one transaction or nothing: quantities, history with the cook's id,
/// used-up items to the trash or a shopping list, the produced item, shortfalls.
struct CookTests {
    @Test func cookingTakesEveryPlannedAmountAndSaysSoInEachItemsHistory() throws {
        let kitchen = try CookKitchen()
        let apples = try kitchen.add("Apple", 3, due: "2026-11-24")
        let milk = try kitchen.add("Milk", 1, "L")
        let versionBefore = try kitchen.row(milk).version
        let smoothie = try kitchen.recipe("Smoothie", [("Apple", 2, "piece"), ("Milk", 300, "ml"), ("Sugar", 1, "tsp")])
        try kitchen.add("Sugar", 1, "bag")

        let result = try kitchen.cook(smoothie)
        #expect(result.taken == 2)
        #expect(result.usedUp == 0)
        #expect(result.producedItemId == nil)
        #expect(try kitchen.quantity(apples) == 1)
        #expect(try kitchen.quantity(milk) == 0.7)
        #expect(try kitchen.row(milk).version == versionBefore + 1)
        #expect(try kitchen.row(milk).updatedAt == "2026-11-23T09:00:00Z")
        let event = try #require(try kitchen.history(milk).first)
        #expect(event.kind == "quantity")
        #expect(event.detail == "1 → 0.7")
        #expect(event.cookId == result.cookId)
        #expect(event.memberName == "Aki")

        let cook = try kitchen.cooking.cook(result.cookId, in: kitchen.household)
        #expect(cook.recipeId == smoothie)
        #expect(cook.recipeName == "Smoothie")
        #expect(cook.servings == 2)
        #expect(cook.undoneAt == nil)
        #expect(cook.memberId == kitchen.member)
        let takes = try kitchen.database.writer.read { db in
            try CookTake.fetchAll(db, sql: "SELECT * FROM cook_take WHERE cook_id = ? ORDER BY id", arguments: [result.cookId])
        }
        #expect(takes.map(\.itemId) == [apples, milk])
        #expect(takes.map(\.amount) == [2, 0.3])
        #expect(takes.map(\.ingredientName) == ["Apple", "Milk"])
        #expect(takes.allSatisfy { $0.usedUp == nil })
    }

    @Test func usedUpItemsGoToTheTrashByDefault() throws {
        let kitchen = try CookKitchen()
        let lemon = try kitchen.add("Lemon", 1)
        let lemonade = try kitchen.recipe("Lemonade", [("Lemon", 1, nil)])

        let result = try kitchen.cook(lemonade)
        #expect(result.usedUp == 1)
        let row = try kitchen.row(lemon)
        #expect(row.deletedAt == "2026-11-23T09:00:00Z")
        #expect(row.quantity == 0)
        #expect(try kitchen.fixture.items.trashEntries(in: kitchen.household).map(\.item.id) == [lemon])
        #expect(try kitchen.history(lemon).prefix(2).map(\.kind) == ["deleted", "quantity"])
        #expect(try kitchen.history(lemon).prefix(2).allSatisfy { $0.cookId == result.cookId })
        let take = try #require(try kitchen.database.writer.read { db in try CookTake.fetchOne(db, sql: "SELECT * FROM cook_take") })
        #expect(take.usedUp == .trashed)
    }

    @Test func usedUpItemsMoveToTheChosenShoppingListKeepingTheirStockFieldsForTheUndo() throws {
        let kitchen = try CookKitchen()
        let list = try kitchen.makeFolder("Weekend shop", .shopping)
        try kitchen.cooking.setUsedUp("shopping", folderId: list, in: kitchen.household)
        let fridge = try kitchen.folder(.stock)
        let tofu = try kitchen.add("Tofu", 1, "pack", due: "2026-11-25", status: "opened")
        let miso = try kitchen.recipe("Miso soup", [("Tofu", 1, "pack")])

        let result = try kitchen.cook(miso)
        #expect(result.usedUp == 1)
        let row = try kitchen.row(tofu)
        #expect(row.folderId == list && row.deletedAt == nil)
        #expect(row.due == nil && row.status == nil)
        #expect(row.quantity == 1) // one to buy, as a move to a shopping list makes it
        let moved = try #require(try kitchen.history(tofu).first)
        #expect(moved.kind == "moved" && moved.plainText == "Fridge → Weekend shop" && moved.cookId == result.cookId)
        let take = try #require(try kitchen.database.writer.read { db in try CookTake.fetchOne(db, sql: "SELECT * FROM cook_take") })
        #expect(take.usedUp == .moved)
        #expect(take.fromFolderId == fridge && take.due == "2026-11-25" && take.status == "opened")
    }

    @Test func withoutAChosenListUsedUpItemsGoToTheFirstShoppingListOrTheTrashWhenThereIsNone() throws {
        let kitchen = try CookKitchen()
        try kitchen.cooking.setUsedUp("shopping", folderId: nil, in: kitchen.household)
        let first = try kitchen.add("Natto", 1)
        let rice = try kitchen.recipe("Natto rice", [("Natto", 1, nil)])
        try kitchen.cook(rice)
        #expect(try kitchen.row(first).folderId == kitchen.folder(.shopping))

        try kitchen.database.writer.write { db in try db.execute(sql: "UPDATE folder SET deleted_at = '2026-11-23T08:00:00Z' WHERE kind = 'shopping'") }
        let second = try kitchen.add("Natto", 1)
        try kitchen.cook(rice)
        #expect(try kitchen.row(second).deletedAt != nil)
    }

    @Test func aRecipeProducesItsItemDueSomeDaysLater() throws {
        let kitchen = try CookKitchen()
        let freezer = try kitchen.makeFolder("Freezer box", .stock)
        try kitchen.add("Apple", 2)
        try kitchen.add("Orange", 2)
        let juice = try kitchen.recipe(
            "Apple-orange juice", [("Apple", 1, nil), ("Orange", 1, nil)],
            produce: RecipeProduce(name: "Fresh juice", quantity: 500, unit: .ml, kind: .drinks, dueDays: 2, folderId: freezer))

        let result = try kitchen.cook(juice)
        let juiceId = try #require(result.producedItemId)
        let item = try kitchen.row(juiceId)
        #expect(item.name == "Fresh juice")
        #expect(item.quantity == 500)
        #expect(item.unit == .ml)
        #expect(item.kind == .drinks)
        #expect(item.folderId == freezer)
        #expect(item.due == "2026-11-25")
        #expect(item.status == .unopened)
        let created = try #require(try kitchen.history(juiceId).first)
        #expect(created.kind == "created" && created.detail == "Freezer box" && created.cookId == result.cookId)
        #expect(try kitchen.cooking.cook(result.cookId, in: kitchen.household).producedItemId == juiceId)

        // Its list gone: the first stock list.
        try kitchen.database.writer.write { db in
            try db.execute(sql: "UPDATE folder SET deleted_at = '2026-11-23T08:00:00Z' WHERE id = ?", arguments: [freezer])
        }
        let again = try #require(try kitchen.cook(juice).producedItemId)
        #expect(try kitchen.row(again).folderId == kitchen.folder(.stock))
    }

    @Test func somethingShortRefusesTheCookAndChangesNothing() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Apple", 2)
        try kitchen.add("Orange", 1)
        let juice = try kitchen.recipe("Juice", [("Apple", 2, nil), ("Orange", 2, nil), ("Kiwi", 1, nil)])
        let before = try kitchen.snapshot()

        let error = try #require(throws: CookShortfall.self) { try kitchen.cook(juice) }
        #expect(
            error.shortfalls == [
                Shortfall(ingredientName: "Orange", missing: 1, unit: .piece), Shortfall(ingredientName: "Kiwi", missing: 1, unit: .piece),
            ])
        #expect(try kitchen.snapshot() == before)
    }

    @Test func cookingWithWhatWeHaveTakesWhatThereIs() throws {
        let kitchen = try CookKitchen()
        let apple = try kitchen.add("Apple", 2)
        let orange = try kitchen.add("Orange", 1)
        let juice = try kitchen.recipe("Juice", [("Apple", 2, nil), ("Orange", 2, nil), ("Kiwi", 1, nil)])

        let result = try kitchen.cook(juice, withWhatWeHave: true)
        #expect(result.taken == 2 && result.usedUp == 2)
        #expect(try kitchen.quantity(apple) == 0 && kitchen.quantity(orange) == 0)
    }

    @Test func withWhatWeHaveButNothingToTakeOrMakeIsRefused() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Kiwi", 1, due: "2026-11-01") // expired
        let juice = try kitchen.recipe("Kiwi juice", [("Kiwi", 2, nil)])
        let before = try kitchen.snapshot()
        let error = try #require(throws: CookShortfall.self) { try kitchen.cook(juice, withWhatWeHave: true) }
        #expect(error.shortfalls == [Shortfall(ingredientName: "Kiwi", missing: 2, unit: .piece)])
        #expect(try kitchen.snapshot() == before)

        // Nothing to take but something to make: a cook.
        let tea = try kitchen.recipe("Tea", [("Kiwi", 1, nil)], produce: RecipeProduce(name: "Tea", quantity: 1, unit: .bottle, kind: .drinks))
        #expect(try kitchen.cook(tea, withWhatWeHave: true).producedItemId != nil)
    }

    @Test func aRecipeThatOnlyNeedsThingsToBeThereIsCookedWithoutTakingAnything() throws {
        let kitchen = try CookKitchen()
        let salt = try kitchen.add("Salt", 1, "bag")
        let recipe = try kitchen.recipe("Salted water", [("Salt", 1, "pinch")])
        let result = try kitchen.cook(recipe)
        #expect(result.taken == 0)
        #expect(try kitchen.quantity(salt) == 1)
    }

    @Test func aFailureMidwayLeavesEveryQuantityAsItWas() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Apple", 3)
        let orange = try kitchen.add("Orange", 1)
        try kitchen.add("Carrot", 5)
        let juice = try kitchen.recipe("Juice", [("Apple", 2, nil), ("Orange", 1, nil), ("Carrot", 1, nil)])
        let before = try kitchen.snapshot()
        // The second item's update fails after the first item was written.
        try kitchen.database.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: "CREATE TEMP TRIGGER fail_orange BEFORE UPDATE OF quantity ON item WHEN NEW.id = \(orange) BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
        }
        #expect(throws: DatabaseError.self) { try kitchen.cook(juice) }
        #expect(try kitchen.snapshot() == before)
    }

    @Test func aProducedItemThatCannotBeWrittenUndoesEveryTake() throws {
        let kitchen = try CookKitchen()
        try kitchen.add("Apple", 1)
        try kitchen.add("Orange", 4)
        let juice = try kitchen.recipe(
            "Juice", [("Apple", 1, nil), ("Orange", 2, nil)], produce: RecipeProduce(name: "Juice", quantity: 1, unit: .bottle, kind: .drinks))
        let before = try kitchen.snapshot()
        try kitchen.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TEMP TRIGGER fail_insert BEFORE INSERT ON item BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
        }
        #expect(throws: DatabaseError.self) { try kitchen.cook(juice) }
        #expect(try kitchen.snapshot() == before)
    }

    @Test func anotherHouseholdsRecipeCannotBeCookedNorItsCookRead() throws {
        let kitchen = try CookKitchen()
        let nextDoor = try kitchen.nextDoor()
        let theirs = try kitchen.recipe("Their juice", [("Apple", 1, nil)], in: nextDoor)
        try kitchen.add("Apple", 1)
        #expect(throws: InventoryError.notFound) { try kitchen.cook(theirs) }
        let ours = try kitchen.recipe("Juice", [("Apple", 1, nil)])
        let cookId = try kitchen.cook(ours).cookId
        #expect(throws: InventoryError.notFound) { try kitchen.cooking.cook(cookId, in: nextDoor) }
    }

    // MARK: - Two members at once

    /// `count` cooks of the same recipe started together on threads of their own, over a database
    /// file (a WAL pool: readers and the writer on separate connections, as in the server).
    static func cookTogether(_ count: Int, stock: Double, need: Double, withWhatWeHave: Bool) throws -> (
        results: [Result<CookResult, any Error>], kitchen: CookKitchen, item: Item.ID, folder: TemporaryFolder
    ) {
        let folder = try TemporaryFolder()
        let kitchen = try CookKitchen(database: AppDatabase.open(at: folder.databaseURL))
        let item = try kitchen.add("Milk", stock, "L")
        let recipe = try kitchen.recipe("Milk jelly", [("Milk", need, "L")])
        let (cooking, household, member, window) = (kitchen.cooking, kitchen.household, kitchen.member, kitchen.window)
        let results = Outcomes()
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                let result = Result {
                    try cooking.cook(recipe, servings: 2, withWhatWeHave: withWhatWeHave, in: household, by: member, window: window)
                }
                results.append(result)
                group.leave()
            }
        }
        for _ in 0..<count { start.signal() }
        group.wait()
        return (results.all, kitchen, item, folder)
    }

    static func takenInAll(_ kitchen: CookKitchen) throws -> Double {
        try kitchen.database.writer.read { db in try Double.fetchOne(db, sql: "SELECT TOTAL(amount) FROM cook_take") ?? -1 }
    }

    @Test func twoMembersCookingAtOnceNeverTakeTheSameStockTwice() throws {
        let (results, kitchen, item, folder) = try Self.cookTogether(2, stock: 3, need: 2, withWhatWeHave: false)
        defer { folder.remove() }
        let cooked = results.compactMap { try? $0.get() }
        #expect(cooked.count == 1)
        let refused = results.compactMap { result -> CookShortfall? in
            if case .failure(let error) = result { return error as? CookShortfall }
            return nil
        }
        #expect(refused.map(\.shortfalls) == [[Shortfall(ingredientName: "Milk", missing: 1, unit: .L)]])
        #expect(try kitchen.quantity(item) == 1)
        #expect(try Self.takenInAll(kitchen) == 2)
    }

    @Test func manyMembersCookingWithWhatWeHaveTakeNoMoreThanThereIs() throws {
        let (results, kitchen, item, folder) = try Self.cookTogether(6, stock: 5, need: 2, withWhatWeHave: true)
        defer { folder.remove() }
        // 2 + 2 + 1, then nothing left to take: refused.
        let cooked = results.compactMap { try? $0.get() }
        #expect(cooked.count == 3)
        #expect(results.filter { if case .failure(let error) = $0 { error is CookShortfall } else { false } }.count == 3)
        #expect(try Self.takenInAll(kitchen) == 5)
        let row = try kitchen.row(item)
        #expect(row.quantity == 0 && row.deletedAt != nil)
        let amounts = try kitchen.database.writer.read { db in try Double.fetchAll(db, sql: "SELECT amount FROM cook_take ORDER BY id") }
        #expect(amounts == [2, 2, 1])
    }
}

/// What the threads of a test reported, in the order they finished.
private final class Outcomes: @unchecked Sendable {
    // Every access holds `lock`.
    private let lock = NSLock()
    private var results: [Result<CookResult, any Error>] = []

    func append(_ result: Result<CookResult, any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<CookResult, any Error>] { lock.withLock { results } }
}
