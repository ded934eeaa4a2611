import Foundation
import TestSupport
import Testing

@testable import Inventory

/// Actions a phone made offline and sends when it is back: each id applies once however often it
/// comes, a step made on an old quantity merges with what others did or is a clash, and an item
/// added by name joins the row of that name and unit already on the list.
@Suite("Offline intents")
struct OfflineIntentTests {
    let kitchen: RecipeKitchen
    let utc = TimeZone(identifier: "UTC")!

    init() throws {
        kitchen = try RecipeKitchen()
    }

    var items: Items { kitchen.fixture.items }
    var household: HouseholdScope { kitchen.household }
    var member: Member.ID { kitchen.member }

    func add(_ name: String, quantity: String = "1", unit: ItemUnit = .piece, to folder: Folder.ID) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = quantity
        input.unit = unit.rawValue
        return try items.register([input], into: folder, in: household, by: member, timeZone: utc)[0]
    }

    func intent(_ text: String) throws -> IntentId { try #require(IntentId(text)) }

    @Test func anIdIsEightToSixtyFourLettersDigitsAndHyphens() {
        #expect(IntentId("0f8fad5b-d9cb-469f-a165-70867728950e") != nil)
        #expect(IntentId(String(repeating: "a", count: 64)) != nil)
        #expect(IntentId("short") == nil)
        #expect(IntentId(String(repeating: "a", count: 65)) == nil)
        #expect(IntentId("abc def ghi") == nil)
        #expect(IntentId("'; DROP TABLE item; --") == nil)
        #expect(IntentId(nil) == nil)
    }

    @Test func aStepSentTwiceChangesTheQuantityOnce() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        let id = try intent("step-0001")
        #expect(try items.adjustQuantity(eggs, by: 1, seen: 2, intent: id, in: household, by: member) == 3)
        #expect(throws: InventoryError.alreadyApplied) { try items.adjustQuantity(eggs, by: 1, seen: 2, intent: id, in: household, by: member) }
        #expect(try items.item(eggs, in: household).quantity == 3)
        #expect(try items.history(of: eggs, in: household).filter { $0.kind == "quantity" }.count == 1)
    }

    @Test func aTickSentTwiceIsAppliedOnceAndAnotherMembersIdIsTheirOwn() throws {
        let list = try kitchen.folder(.shopping)
        let milk = try add("Milk", to: list)
        let id = try intent("tick-0001")
        try items.setInBasket(milk, true, intent: id, in: household, by: member)
        #expect(throws: InventoryError.alreadyApplied) { try items.setInBasket(milk, true, intent: id, in: household, by: member) }
        let kenToken = try kitchen.fixture.join("ken", role: .member)
        let ken = try #require(try kitchen.fixture.accounts.session(token: kenToken)).memberId
        try items.setInBasket(milk, false, intent: id, in: household, by: ken)
        #expect(try items.item(milk, in: household).inBasket == false, "the same id from another member is another action")
    }

    @Test func aRefusedActionIsNotRememberedSoItsRetryIsJudgedAgain() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        let id = try intent("step-0002")
        #expect(throws: InventoryError.quantityChanged(current: 2)) {
            try items.adjustQuantity(eggs, by: 1, seen: 5, intent: id, in: household, by: member)
        }
        #expect(try items.adjustQuantity(eggs, by: 1, seen: 2, intent: id, in: household, by: member) == 3)
    }

    @Test func aStepOnAQuantitySomeoneChangedMeanwhileIsAClash() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        // Ken made it 5 while this phone was offline; the phone's + was made on 2.
        try items.adjustQuantity(eggs, by: 3, in: household, by: member)
        #expect(throws: InventoryError.quantityChanged(current: 5)) {
            try items.adjustQuantity(eggs, by: 1, seen: 2, intent: intent("step-0003"), in: household, by: member)
        }
        #expect(try items.item(eggs, in: household).quantity == 5, "nothing written")
    }

    @Test func theSameChangeOnBothSidesIsNoClashAndNotAppliedTwice() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        try items.adjustQuantity(eggs, by: 1, in: household, by: member)
        #expect(try items.adjustQuantity(eggs, by: 1, seen: 2, intent: intent("step-0004"), in: household, by: member) == 3)
        #expect(try items.item(eggs, in: household).quantity == 3)
    }

    @Test func aStepMergesWithOtherFieldsChangedMeanwhile() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        let item = try items.item(eggs, in: household)
        var renamed = ItemInput(item, timeZone: utc)
        renamed.name = "Free-range eggs"
        try items.update(eggs, with: renamed, folderId: list, version: item.version, in: household, by: member, timeZone: utc)
        #expect(try items.adjustQuantity(eggs, by: 1, seen: 2, intent: intent("step-0005"), in: household, by: member) == 3)
        let now = try items.item(eggs, in: household)
        #expect(now.name == "Free-range eggs" && now.quantity == 3, "their name, my quantity")
    }

    @Test func stepsMadeOneAfterAnotherOfflineEachBuildOnTheLast() throws {
        let list = try kitchen.folder(.shopping)
        let eggs = try add("Eggs", quantity: "2", to: list)
        // The phone showed 2, then 3 after its first +, then 4: each step names what it saw.
        try items.adjustQuantity(eggs, by: 1, seen: 2, intent: intent("step-0006"), in: household, by: member)
        try items.adjustQuantity(eggs, by: 1, seen: 3, intent: intent("step-0007"), in: household, by: member)
        try items.adjustQuantity(eggs, by: -1, seen: 4, intent: intent("step-0008"), in: household, by: member)
        #expect(try items.item(eggs, in: household).quantity == 3)
    }

    @Test func anAdditionJoinsTheRowOfTheSameNameAndUnitKeepingTheLargerQuantity() throws {
        let list = try kitchen.folder(.shopping)
        let milk = try add("Milk", quantity: "2", unit: .bottle, to: list)
        var input = ItemInput()
        input.name = "  milk "
        input.unit = ItemUnit.bottle.rawValue
        input.quantity = "1"
        let smaller = try items.addToList(input, list: list, in: household, by: member, timeZone: utc)
        #expect(smaller == ListAddition(id: milk, joined: 2, quantity: 2), "two people who add milk mean the same milk")
        input.quantity = "3"
        input.name = "MILK"
        let larger = try items.addToList(input, list: list, intent: intent("add-00001"), in: household, by: member, timeZone: utc)
        #expect(larger == ListAddition(id: milk, joined: 2, quantity: 3))
        #expect(throws: InventoryError.alreadyApplied) {
            try items.addToList(input, list: list, intent: intent("add-00001"), in: household, by: member, timeZone: utc)
        }
        input.unit = ItemUnit.piece.rawValue
        let other = try items.addToList(input, list: list, in: household, by: member, timeZone: utc)
        #expect(other.id != milk && other.joined == nil, "another unit is another row")
        #expect(try items.item(other.id, in: household).name == "MILK")
    }

    @Test func anAdditionNeedsANameAndAShoppingList() throws {
        let list = try kitchen.folder(.shopping)
        let fridge = try kitchen.folder(.stock)
        var input = ItemInput()
        input.name = "   "
        #expect(throws: ItemFieldErrors([.name: .itemNameRequired])) {
            try items.addToList(input, list: list, in: household, by: member, timeZone: utc)
        }
        input.name = "Milk"
        #expect(throws: InventoryError.notFound) { try items.addToList(input, list: fridge, in: household, by: member, timeZone: utc) }
        let grandparents = try kitchen.fixture.otherHousehold()
        let theirList = try kitchen.fixture.firstFolder(.shopping, in: grandparents.household)
        #expect(throws: InventoryError.notFound) { try items.addToList(input, list: theirList, in: household, by: member, timeZone: utc) }
    }
}
