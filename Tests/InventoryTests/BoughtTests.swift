import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Buying back: what goes onto a shopping list asks for at least one, and "Bought" puts items
/// away with the quantity and due date typed on one page, joining a row of the same name and unit.
@Suite struct BoughtTests: ActingAsOwner {
    let fixture: Fixture
    let utc = TimeZone(identifier: "UTC")!

    init() throws { fixture = try Fixture() }

    func id(of folderName: String) throws -> Folder.ID {
        try #require(try items.folders(in: household).first { $0.name == folderName }?.id, "no folder \(folderName)")
    }

    @discardableResult
    func add(_ name: String, to folderName: String = "Fridge", quantity: String = "1", unit: String = "piece", due: String = "") throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = quantity
        input.unit = unit
        input.due = due
        return try #require(try items.register([input], into: id(of: folderName), in: household, by: member, timeZone: utc).first)
    }

    func item(_ id: Item.ID) throws -> Item { try items.item(id, in: household) }

    func rows(in folderName: String) throws -> [Item] {
        let folder = try #require(try items.folders(in: household).first { $0.name == folderName })
        return try items.page(of: folder, filter: ListFilter(), page: 1).items
    }

    @Test func somethingUsedUpGoesOntoTheShoppingListAsOneToBuy() throws {
        let milk = try add("Milk", quantity: "0", unit: "bottle", due: "2026-01-01")
        let eggs = try add("Eggs", quantity: "0")
        let rice = try add("Rice", quantity: "3")
        try items.move([milk, rice], to: id(of: "Supermarket"), in: household, by: member)
        #expect(try item(milk).quantity == 1)
        #expect(try item(milk).due == nil)
        // What was not used up keeps its quantity.
        #expect(try item(rice).quantity == 3)
        // "Buy again" copies: the copy of something at 0 asks for one too; the stock item stays at 0.
        let copy = try items.buyAgain(eggs, onto: id(of: "Supermarket"), in: household, by: member)
        #expect(try item(copy).quantity == 1)
        #expect(try item(eggs).quantity == 0)
        // Moving back to stock keeps the quantity as it is.
        try items.move([rice], to: id(of: "Fridge"), in: household, by: member)
        #expect(try item(rice).quantity == 3)
    }

    @Test func boughtItemsArriveWithTheTypedQuantityAndDueDate() throws {
        let butter = try add("Butter", to: "Supermarket")
        let tofu = try add("Tofu", to: "Supermarket", quantity: "2")
        let pantry = try id(of: "Pantry")
        try items.buy(
            [BoughtInput(id: butter, quantity: "3", due: "2026-12-24"), BoughtInput(id: tofu, quantity: "２", due: "")],
            into: pantry, in: household, by: member)
        let bought = try item(butter)
        #expect(bought.folderId == pantry)
        #expect(bought.quantity == 3)
        #expect(bought.due == "2026-12-24")
        #expect(bought.status == .unopened)
        #expect(try item(tofu).quantity == 2 && item(tofu).due == nil)
        #expect(try rows(in: "Supermarket").isEmpty)
        #expect(try items.folders(in: household).first { $0.name == "Supermarket" }?.lastStockFolderId == pantry)
        #expect(try items.history(of: butter, in: household).first?.kind == "bought")
    }

    @Test func aBadDateOrQuantityStopsEverythingAndNamesTheLine() throws {
        let butter = try add("Butter", to: "Supermarket")
        let tofu = try add("Tofu", to: "Supermarket")
        #expect(throws: InventoryError.validation(["due_\(tofu)": .dueInvalid, "quantity_\(butter)": .quantityInvalid])) {
            try items.buy(
                [BoughtInput(id: butter, quantity: "lots", due: "2026-12-24"), BoughtInput(id: tofu, quantity: "1", due: "2026-02-30")],
                into: id(of: "Pantry"), in: household, by: member)
        }
        #expect(try rows(in: "Supermarket").map(\.name) == ["Butter", "Tofu"])
        // An item of another household stops the batch as well: nothing moves.
        #expect(throws: InventoryError.notFound) {
            try items.buy(
                [BoughtInput(id: butter, quantity: "1"), BoughtInput(id: 999_999, quantity: "1")], into: id(of: "Pantry"), in: household,
                by: member)
        }
        #expect(try rows(in: "Supermarket").count == 2)
    }

    @Test func aRowOfTheSameNameAndUnitIsFoundAsSearchFoldsNames() throws {
        let existing = try add("ＭＩＬＫ", quantity: "1", unit: "bottle")
        try add("Milk", quantity: "1", unit: "pack") // another unit: not the same thing
        let milk = try add("milk", to: "Supermarket", unit: "bottle")
        let bread = try add("Bread", to: "Supermarket")
        let matches = try items.stockMatches(for: [milk, bread], within: id(of: "Fridge"), in: household)
        #expect(matches.mapValues(\.id) == [milk: existing])
        #expect(try items.stockMatches(for: [milk], within: id(of: "Pantry"), in: household).isEmpty)
    }

    @Test func joiningAnExistingRowAddsTheQuantityKeepsTheEarlierDateAndRemovesTheShoppingRow() throws {
        let fridge = try id(of: "Fridge")
        let existing = try add("Milk", quantity: "1", unit: "bottle", due: "2026-12-01")
        let milk = try add("Milk", to: "Supermarket", quantity: "2", unit: "bottle")
        try items.buy([BoughtInput(id: milk, quantity: "2", due: "2026-12-10")], into: fridge, in: household, by: member)
        let joined = try item(existing)
        #expect(joined.quantity == 3 && joined.due == "2026-12-01" && joined.version == 2)
        #expect(throws: InventoryError.notFound) { try item(milk) }
        #expect(try rows(in: "Fridge").map(\.name) == ["Milk"])
        #expect(try items.history(of: existing, in: household).first.map { [$0.kind, $0.plainText] } == ["bought", "Supermarket → Fridge: 1 → 3"])

        // An earlier new date replaces a later one; a row without a date takes the new one.
        let more = try add("Milk", to: "Supermarket", unit: "bottle")
        try items.buy([BoughtInput(id: more, quantity: "1", due: "2026-11-25")], into: fridge, in: household, by: member)
        #expect(try item(existing).due == "2026-11-25" && item(existing).quantity == 4)
    }

    @Test func keepingASeparateRowMakesASecondRow() throws {
        let fridge = try id(of: "Fridge")
        let existing = try add("Milk", quantity: "1", unit: "bottle", due: "2026-12-01")
        let milk = try add("Milk", to: "Supermarket", unit: "bottle")
        try items.buy([BoughtInput(id: milk, quantity: "1", due: "2026-12-20", addToExisting: false)], into: fridge, in: household, by: member)
        #expect(try item(existing).quantity == 1)
        #expect(try item(milk).folderId == fridge && item(milk).due == "2026-12-20")
        #expect(try rows(in: "Fridge").count == 2)
    }
}
