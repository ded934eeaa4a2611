import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A row's − and + step by what the household usually takes of the product (`Schema.v23`):
/// the unit's step until an amount was taken twice among the last five uses, then that amount,
/// on every item of the product, whoever wrote the uses.
@Suite("Steps learned from use")
struct UseStepTests: ActingAsOwner {
    let fixture: Fixture
    let utc = TimeZone(identifier: "UTC")!

    init() throws { fixture = try Fixture() }

    @discardableResult
    func register(_ name: String, _ quantity: Double, _ unit: String, into kind: FolderKind = .stock) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = Quantity.text(quantity)
        input.unit = unit
        return try #require(try items.register([input], into: try fixture.firstFolder(kind), in: household, by: member, timeZone: utc).first)
    }

    func use(_ id: Item.ID, _ amount: Double) throws { try items.adjustQuantity(id, by: -amount, in: household, by: member) }
    func step(_ id: Item.ID) throws -> Double { try items.item(id, in: household).step }

    @Test func theUnitsStepUntilAnAmountIsTakenTwice() throws {
        let flour = try register("Flour", 2000, "g")
        #expect(try step(flour) == 50)
        try use(flour, 200)
        #expect(try step(flour) == 50)
        try use(flour, 200)
        #expect(try step(flour) == 200)
        // The learned step is what − and + send; another use of it keeps it.
        try use(flour, try step(flour))
        #expect(try items.item(flour, in: household).quantity == 1400)
        #expect(try step(flour) == 200)
    }

    @Test func theMostTakenOfTheLastFiveUsesWins() throws {
        let rice = try register("Rice", 5000, "g")
        for amount in [200.0, 200, 30, 30, 30] { try use(rice, amount) }
        #expect(try step(rice) == 30)
        // Newest first: 200, 30, 30, 30, 200, then 200, 200, 30, 30, 30: three 30s still.
        try use(rice, 200)
        #expect(try step(rice) == 30)
        try use(rice, 200)
        #expect(try step(rice) == 30)
        // 200, 200, 200, 30, 30.
        try use(rice, 200)
        #expect(try step(rice) == 200)
    }

    @Test func everyItemOfTheProductLearnsAndOtherProductsDoNot() throws {
        let open = try register("Milk", 1000, "ml")
        let spare = try register("ＭＩＬＫ", 1000, "ml")
        let inLitres = try register("Milk", 1, "L")
        let juice = try register("Juice", 1000, "ml")
        try use(open, 250)
        try use(spare, 250)
        #expect(try step(open) == 250)
        #expect(try step(spare) == 250)
        #expect(try step(inLitres) == 0.1)
        #expect(try step(juice) == 100)
        // Milk registered later takes the learned step; renamed to another product it drops it.
        let bought = try register("milk", 1000, "ml")
        #expect(try step(bought) == 250)
        var input = ItemInput(try items.item(bought, in: household), timeZone: utc)
        input.name = "Oat drink"
        let item = try items.item(bought, in: household)
        try items.update(bought, with: input, folderId: item.folderId, version: item.version, in: household, by: member, timeZone: utc)
        #expect(try step(bought) == 100)
    }

    @Test func theLastOfAnItemIsNotAnAmountTaken() throws {
        // Used 150, then the last 150: the 150 left is what remained, not a use.
        let butter = try register("Butter", 300, "g")
        try use(butter, 150)
        try use(butter, 150)
        #expect(try items.item(butter, in: household).quantity == 0)
        let next = try register("Butter", 300, "g")
        #expect(try step(next) == 50)
    }

    @Test func anotherHouseholdsUsesTeachNothing() throws {
        let other = try fixture.otherHousehold()
        var input = ItemInput()
        input.name = "Flour"
        input.quantity = "2000"
        input.unit = "g"
        let theirs = try #require(
            try items.register([input], into: try fixture.firstFolder(.stock, in: other.household), in: other.household, by: other.memberId, timeZone: utc)
                .first)
        try items.adjustQuantity(theirs, by: -300, in: other.household, by: other.memberId)
        try items.adjustQuantity(theirs, by: -300, in: other.household, by: other.memberId)
        #expect(try items.item(theirs, in: other.household).step == 300)
        #expect(try step(try register("Flour", 2000, "g")) == 50)
    }

    @Test func usesOnAShoppingListAreNotUses() throws {
        let eggs = try register("Eggs", 12, "piece", into: .shopping)
        try use(eggs, 2)
        try use(eggs, 2)
        #expect(try step(eggs) == 1)
    }
}
