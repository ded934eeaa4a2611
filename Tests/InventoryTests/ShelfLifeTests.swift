import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The shelf life a product usually gets: learned from each registration and purchase with a due
/// date (the days from that day to its due date), the median of the newest, per stock list, and
/// offered as the due date of the next one.
@Suite("Shelf life")
struct ShelfLifeTests: ActingAsOwner {
    let fixture: Fixture
    let utc = TimeZone(identifier: "UTC")!

    init() throws { fixture = try Fixture() }

    var products: Products { Products(database: fixture.database, clock: fixture.clock.wall) }
    var today: CalendarDay { CalendarDay.today(in: utc, now: fixture.clock.now) }

    func folder(_ name: String) throws -> Folder.ID {
        try #require(try items.folders(in: household).first { $0.name == name }?.id, "no folder \(name)")
    }

    /// Registers `name` in `folderName` due `days` from today, then moves the clock on a day.
    @discardableResult
    func register(_ name: String, in folderName: String = "Fridge", unit: String = "bottle", dueIn days: Int?, barcode: String = "") throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.unit = unit
        input.barcode = barcode
        input.due = days.map { today.adding(days: $0).description } ?? ""
        let id = try #require(try items.register([input], into: folder(folderName), in: household, by: member, timeZone: utc).first)
        fixture.clock.advance(86_400)
        return id
    }

    /// The due date "Bought" would offer for a shopping row called `name` put away into `folderName`.
    func offered(_ name: String, unit: String = "bottle", into folderName: String = "Fridge") throws -> CalendarDay? {
        var input = ItemInput()
        input.name = name
        input.unit = unit
        let row = try #require(try items.register([input], into: folder("Supermarket"), in: household, by: member, timeZone: utc).first)
        let item = try items.item(row, in: household)
        return try items.usualDues(for: [item], into: folder(folderName), in: household)[row]
    }

    @Test func theMedianOfTheProductsRegistrationsIsOfferedFromToday() throws {
        try register("Milk", dueIn: 7)
        try register("Milk", dueIn: 9)
        try register("milk ", dueIn: 8) // the same product: names are folded as search folds them
        #expect(try offered("MILK") == today.adding(days: 8))
        #expect(try offered("Milk", unit: "L") == nil, "another unit is another product")
        #expect(try offered("Cream") == nil, "nothing learned, nothing offered")
    }

    @Test func eachStockListKeepsItsOwnAndAnotherStockListBorrowsFromAll() throws {
        try register("Bread", unit: "pack", dueIn: 4)
        try register("Bread", unit: "pack", dueIn: 5)
        try register("Bread", in: "Freezer", unit: "pack", dueIn: 90)
        #expect(try offered("Bread", unit: "pack", into: "Fridge") == today.adding(days: 4))
        #expect(try offered("Bread", unit: "pack", into: "Freezer") == today.adding(days: 90))
        // Nothing learned in the pantry: the median of every stock list's newest (4, 5, 90).
        #expect(try offered("Bread", unit: "pack", into: "Pantry") == today.adding(days: 5))
    }

    @Test func outliersAndItemsWithoutADueDateTeachNothingWrong() throws {
        try register("Yogurt", dueIn: 7)
        try register("Yogurt", dueIn: 7)
        try register("Yogurt", dueIn: 8)
        try register("Yogurt", dueIn: 400) // a year typed wrong: outvoted
        try register("Yogurt", dueIn: -3) // expired already when registered: not a shelf life
        try register("Yogurt", dueIn: 20 * 366) // twenty years: a typing mistake
        try register("Yogurt", dueIn: nil)
        #expect(try offered("Yogurt") == today.adding(days: 7))
        try register("Salt", unit: "pack", dueIn: nil)
        #expect(try offered("Salt", unit: "pack") == nil)
        #expect(ShelfLife.median([]) == nil)
        #expect(ShelfLife.median([3, 1, 2, 10]) == 2)
        #expect(ShelfLife.median([-1, 9_999]) == nil)
    }

    @Test func onlyTheNewestRegistrationsCount() throws {
        for _ in 0..<25 { try register("Tofu", unit: "pack", dueIn: 3) }
        for _ in 0..<10 { try register("Tofu", unit: "pack", dueIn: 6) }
        #expect(try offered("Tofu", unit: "pack") == today.adding(days: 6), "the brand changed: the last ten say 6")
        let kept = try fixture.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shelf_life WHERE product_key = 'name:pack:tofu'")
        }
        #expect(kept == ShelfLife.kept)
    }

    @Test func editingTheDueDateCorrectsWhatWasLearned() throws {
        let milk = try register("Milk", dueIn: 70) // 70 typed for 7
        let current = try items.item(milk, in: household)
        var input = ItemInput(current, timeZone: utc)
        // Edited the next day: the sample still counts from the day it was registered.
        input.due = today.adding(days: 6).description
        try items.update(milk, with: input, folderId: current.folderId, version: current.version, in: household, by: member, timeZone: utc)
        #expect(try offered("Milk") == today.adding(days: 7))
        let edited = try items.item(milk, in: household)
        var cleared = ItemInput(edited, timeZone: utc)
        cleared.due = ""
        try items.update(milk, with: cleared, folderId: edited.folderId, version: edited.version, in: household, by: member, timeZone: utc)
        #expect(try offered("Milk") == nil, "a due date cleared is no shelf life")
    }

    @Test func aPurchaseTeachesOnItsOwnRowAndWhenItJoinsOne() throws {
        let supermarket = try folder("Supermarket")
        let fridge = try folder("Fridge")
        var input = ItemInput()
        input.name = "Butter"
        input.unit = "pack"
        let first = try #require(try items.register([input], into: supermarket, in: household, by: member, timeZone: utc).first)
        try items.buy(
            [BoughtInput(id: first, quantity: "1", due: today.adding(days: 30).description)], into: fridge, in: household, by: member)
        #expect(try offered("Butter", unit: "pack") == today.adding(days: 30))
        // Bought again, joining the row already in the fridge: the second purchase is a sample too.
        let second = try #require(try items.register([input], into: supermarket, in: household, by: member, timeZone: utc).first)
        try items.buy(
            [BoughtInput(id: second, quantity: "1", due: today.adding(days: 20).description, addToExisting: true)], into: fridge,
            in: household, by: member)
        #expect(try offered("Butter", unit: "pack") == today.adding(days: 20), "the lower of 30 and 20")
        #expect(try items.page(of: items.folder(fridge, in: household), filter: ListFilter(), page: 1).items.count { $0.name == "Butter" } == 1)
    }

    @Test func whatWasLearnedOutlivesTheItem() throws {
        let milk = try register("Milk", dueIn: 7)
        try items.trash([milk], in: household, by: member)
        try items.purge([milk], in: household)
        #expect(try offered("Milk") == today.adding(days: 7))
    }

    @Test func aRescanOffersTheDueDateAndForgettingTheProductForgetsIt() throws {
        try register("Natto", unit: "pack", dueIn: 10, barcode: "4901234567894")
        var drafts = [ItemInput()]
        drafts[0].barcode = "4901234567894"
        var fridge = try items.folder(folder("Fridge"), in: household)
        #expect(try products.fill(&drafts, at: 0, folder: &fridge, in: household))
        #expect(drafts[0].name == "Natto")
        #expect(drafts[0].due == today.adding(days: 10).description)
        // A date typed before the scan stays.
        var typed = [ItemInput()]
        typed[0].barcode = "4901234567894"
        typed[0].due = "2030-01-01"
        #expect(try products.fill(&typed, at: 0, folder: &fridge, in: household))
        #expect(typed[0].due == "2030-01-01")
        // Into a shopping list: no due date.
        var shopping = try items.folder(folder("Supermarket"), in: household)
        var list = [ItemInput()]
        list[0].barcode = "4901234567894"
        #expect(try products.fill(&list, at: 0, folder: &shopping, in: household))
        #expect(list[0].due == "")

        let product = try #require(try products.product(barcode: "4901234567894", in: household))
        try products.forget(product.id, in: household)
        var again = [ItemInput()]
        again[0].barcode = "4901234567894"
        #expect(try products.fill(&again, at: 0, folder: &fridge, in: household) == false)
        let samples = try fixture.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shelf_life") }
        #expect(samples == 0)
    }

    @Test func aShelfLifeSetOnTheProductPageStandsUntilItIsCleared() throws {
        try register("Natto", unit: "pack", dueIn: 10, barcode: "4901234567894")
        try register("Natto", unit: "pack", dueIn: 10, barcode: "4901234567894")
        let product = try #require(try products.product(barcode: "4901234567894", in: household))
        func set(_ typed: String) throws {
            try products.update(
                product.id, name: "Natto", kind: "prepared", unit: "pack", folderId: nil, picture: nil, shelfLife: typed, in: household)
        }
        func rescan() throws -> String {
            var drafts = [ItemInput()]
            drafts[0].barcode = "4901234567894"
            var fridge = try items.folder(folder("Fridge"), in: household)
            _ = try products.fill(&drafts, at: 0, folder: &fridge, in: household)
            return drafts[0].due
        }
        try set("１４") // full-width digits, as a Japanese keyboard types them
        #expect(try products.product(product.id, in: household).shelfLifeDays == 14)
        #expect(try rescan() == today.adding(days: 14).description)
        #expect(try products.usualShelfLives(in: household)["4901234567894"] == 14)
        #expect(try knownDue("Natto") == today.adding(days: 14))
        // What registrations taught is still known, and they go on teaching beneath it.
        #expect(try products.learnedShelfLife(of: product, in: household) == 10)
        try register("Natto", unit: "pack", dueIn: 10, barcode: "4901234567894")
        #expect(try rescan() == today.adding(days: 14).description)
        // A refused value says why beside its field and changes nothing.
        for typed in ["two weeks", "-1", "1831", "99999999999", "1.5"] {
            #expect(throws: InventoryError.validation(["shelf_life": .shelfLifeInvalid]), "\(typed)") { try set(typed) }
        }
        #expect(try products.product(product.id, in: household).shelfLifeDays == 14)
        // Cleared, the learned one is back; forgotten, both go.
        try set(" ")
        #expect(try products.product(product.id, in: household).shelfLifeDays == nil)
        #expect(try rescan() == today.adding(days: 10).description)
        try set("3")
        try products.forget(product.id, in: household)
        #expect(try products.usualShelfLives(in: household).isEmpty)
    }

    /// The due date the name suggestions give `name` in the Fridge.
    func knownDue(_ name: String) throws -> CalendarDay? {
        try items.knownNames(in: household, stockFolderId: folder("Fridge")).first { $0.name == name }?.due
    }

    @Test func anotherHouseholdLearnsNothingFromThisOne() throws {
        try register("Milk", dueIn: 7)
        let grandma = try fixture.otherHousehold()
        var input = ItemInput()
        input.name = "Milk"
        input.unit = "bottle"
        let shopping = try fixture.firstFolder(.shopping, in: grandma.household)
        let fridge = try fixture.firstFolder(.stock, in: grandma.household)
        let row = try #require(try items.register([input], into: shopping, in: grandma.household, by: grandma.memberId, timeZone: utc).first)
        let item = try items.item(row, in: grandma.household)
        #expect(try items.usualDues(for: [item], into: fridge, in: grandma.household).isEmpty)
    }

    @Test func theNamesAreTheMostUsedFirstWithWhatTheirLatestItemHadAndTheUsualDueDate() throws {
        try register("Milk", dueIn: 7)
        try register("Milk", dueIn: 9)
        try register("milk", dueIn: 8)
        try register("Bread", in: "Freezer", unit: "pack", dueIn: 60)
        try register("Salt", unit: "pack", dueIn: nil)
        let names = try items.knownNames(in: household, stockFolderId: folder("Fridge"))
        #expect(names.map(\.name) == ["milk", "Salt", "Bread"], "the most used first, then the latest; the latest spelling")
        #expect(names[0].unit == .bottle)
        #expect(names[0].due == today.adding(days: 8))
        #expect(names[1].due == nil, "nothing learned")
        #expect(names[2].due == today.adding(days: 60), "only the freezer knows bread: its date")
        // The same in one pass as product by product.
        let fridge = try folder("Fridge")
        let all = try fixture.database.writer.read { db in try ShelfLife.usualDays(db, householdId: household.householdId, folderId: fridge) }
        let one = try fixture.database.writer.read { db in
            try ShelfLife.usualDays(db, householdId: household.householdId, key: "name:bottle:milk", folderId: fridge)
        }
        #expect(all["name:bottle:milk"] == one)
        #expect(try items.knownNames(in: fixture.otherHousehold().household, stockFolderId: nil).isEmpty)
    }
}
