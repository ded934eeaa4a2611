import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Keep rules: a product under its minimum goes on the keep list, in the same transaction as the
/// write that took it under, whichever write that is; back at the minimum it comes off again.
@Suite("Keep stock")
struct KeepStockTests {
    let kitchen: KeepKitchen

    init() throws { kitchen = try KeepKitchen() }

    @Test func usingTheLastBottlePutsTheRefillOnTheListAndRestockingTakesItOff() throws {
        let milk = try kitchen.add("Milk", 2, "bottle")
        try kitchen.keep(milk, minimum: "2", refillTo: "4")
        #expect(try kitchen.onList("Milk") == [], "at the minimum: nothing to buy")

        try kitchen.items.adjustQuantity(milk, by: -1, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == ["3 bottle, the rule's 3"], "refilled up to 4 from 1")
        #expect(try kitchen.row(milk).status == .runningLow)
        #expect(try kitchen.rules.belowMinimumCount(in: kitchen.household) == 1)

        try kitchen.items.adjustQuantity(milk, by: -1, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == ["4 bottle, the rule's 4"], "the same row follows the stock")

        try kitchen.items.adjustQuantity(milk, by: 2, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == [], "recovered before shopping: the rule's row is gone")
        #expect(try kitchen.row(milk).status == nil)
        #expect(try kitchen.rules.belowMinimumCount(in: kitchen.household) == 0)
    }

    @Test func refillsComeInWholePacksAndOtherProductsAreLeftAlone() throws {
        let eggs = try kitchen.add("Eggs", 2)
        let eggsByThePack = try kitchen.add("Eggs", 1, "pack")
        try kitchen.keep(eggs, minimum: "4", refillTo: "10", pack: "6")
        #expect(try kitchen.onList("Eggs") == ["12 piece, the rule's 12"], "8 short: two packs of 6")
        #expect(try kitchen.row(eggsByThePack).status == .unopened, "another unit is another product")
    }

    @Test func aPersonsRowOfTheSameProductTakesTheRefillAndKeepsWhatThePersonPutThere() throws {
        let milk = try kitchen.add("Milk", 2, "bottle")
        try kitchen.add("milk", 1, "bottle", in: try kitchen.folder(.shopping))
        try kitchen.keep(milk, minimum: "2", refillTo: "4")
        try kitchen.items.adjustQuantity(milk, by: -2, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("milk") == ["4 bottle, the rule's 3"], "4 needed, 1 was on the list already")

        try kitchen.items.adjustQuantity(milk, by: 3, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("milk") == ["1 bottle"], "the person's bottle stays")
    }

    @Test func aPersonWhoChangesTheRulesRowMakesItTheirsAndOneWhoRemovesItDeclinesTheRefill() throws {
        let milk = try kitchen.add("Milk", 1, "bottle")
        try kitchen.keep(milk, minimum: "2", refillTo: "3")
        let row = try #require(try kitchen.listRows("Milk").first)
        try kitchen.items.adjustQuantity(row, by: -1, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == ["1 bottle"], "the person's now, and the person decided: nothing added")
        try kitchen.items.adjustQuantity(milk, by: 5, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == ["1 bottle"], "recovered: a person's row is never touched")

        try kitchen.items.trash([row], in: kitchen.household, by: kitchen.member)
        try kitchen.items.adjustQuantity(milk, by: -5, in: kitchen.household, by: kitchen.member)
        let again = try #require(try kitchen.listRows("Milk").first)
        try kitchen.items.trash([again], in: kitchen.household, by: kitchen.member)
        try kitchen.items.adjustQuantity(milk, by: -1, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == [], "taken off the list: not put back while still short")
        try kitchen.items.adjustQuantity(milk, by: 3, in: kitchen.household, by: kitchen.member)
        try kitchen.items.adjustQuantity(milk, by: -3, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == ["3 bottle, the rule's 3"], "short again after recovering: back on the list")
    }

    @Test func expiredItemsDoNotCountAsStockUnlessTheHouseholdSaysSo() throws {
        let milk = try kitchen.add("Milk", 2, "bottle", due: "2026-11-20")
        try kitchen.keep(milk, minimum: "1", refillTo: "2")
        #expect(try kitchen.onList("Milk") == ["2 bottle, the rule's 2"])
        try kitchen.rules.setSettings(folderId: nil, countsExpired: true, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == [])
    }

    @Test func anItemThatExpiresOvernightCountsNoMoreAtTheDailyCheck() throws {
        let milk = try kitchen.add("Milk", 2, "bottle", due: "2026-11-23")
        try kitchen.keep(milk, minimum: "1", refillTo: "2")
        #expect(try kitchen.onList("Milk") == [])
        let queue = ReminderQueue(database: kitchen.database, clock: kitchen.fixture.clock.wall)
        try queue.checkKeepRulesOnNewDays()
        #expect(try kitchen.onList("Milk") == [], "due today: still good")
        let day = try #require(try queue.schedule().keepDays.first)
        #expect(ReminderQueue.nextKeepCheck(day, now: kitchen.fixture.clock.now) == utc("2026-11-24T00:00:00Z"), "checked today: next at midnight")
        kitchen.fixture.clock.advance(15 * 3600)
        try queue.checkKeepRulesOnNewDays()
        #expect(try kitchen.onList("Milk") == ["2 bottle, the rule's 2"], "expired overnight, without a write")
    }

    @Test func refillsGoToTheChosenShoppingList() throws {
        let drugstore = try kitchen.makeFolder("Drugstore", .shopping)
        let soap = try kitchen.add("Soap", 1)
        try kitchen.rules.setSettings(folderId: drugstore, countsExpired: false, in: kitchen.household, by: kitchen.member)
        try kitchen.keep(soap, minimum: "2")
        let row = try #require(try kitchen.listRows("Soap").first)
        #expect(try kitchen.row(row).folderId == drugstore)
        #expect(throws: InventoryError.validation(["keep_folder": .folderNotShopping])) {
            try kitchen.rules.setSettings(folderId: try kitchen.folder(.stock), countsExpired: false, in: kitchen.household, by: kitchen.member)
        }
    }

    /// Every write that changes a kept product's stock checks its rule in its own transaction.
    @Test(arguments: KeepKitchen.Path.allCases)
    func everyWritePathChecksTheRule(_ path: KeepKitchen.Path) throws {
        let milk = try kitchen.add("Milk", 2, "bottle")
        try kitchen.keep(milk, minimum: "2", refillTo: "3")
        #expect(try kitchen.onList("Milk") == [])
        try kitchen.takeAway(milk, by: path)
        // 3 less what is left in stock (1 after use, cook and edit) and what a person has on a list
        // (the 2 bottles moved to one).
        let share = [KeepKitchen.Path.use: 2, .cook: 2, .edit: 2, .rename: 3, .trash: 3, .move: 1, .csvImport: 3][path]!
        #expect(try kitchen.onList("Milk").filter { $0.contains("rule") } == ["\(share) bottle, the rule's \(share)"], "\(path)")
    }

    @Test func boughtIntoStockTheRowIsStockAndTheListIsClear() throws {
        let milk = try kitchen.add("Milk", 1, "bottle")
        try kitchen.keep(milk, minimum: "2", refillTo: "3")
        let row = try #require(try kitchen.listRows("Milk").first)
        try kitchen.items.markBought([row], into: try kitchen.folder(.stock), in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == [])
        #expect(
            try kitchen.database.writer.read { db in try Double.fetchOne(db, sql: "SELECT refill_quantity FROM item WHERE id = ?", arguments: [row]) } == nil)
        #expect(try kitchen.rules.belowMinimumCount(in: kitchen.household) == 0)
    }

    @Test func stoppingTakesTheRulesShareOffTheList() throws {
        let milk = try kitchen.add("Milk", 0, "bottle")
        try kitchen.keep(milk, minimum: "1", refillTo: "2")
        #expect(try kitchen.onList("Milk").count == 1)
        try kitchen.rules.stopKeeping(forItem: milk, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.onList("Milk") == [])
        #expect(try kitchen.rules.rule(forItem: milk, in: kitchen.household) == nil)
        #expect(try kitchen.row(milk).status == nil)
    }

    @Test func anotherHouseholdsStockAndRulesAreApart() throws {
        let other = try kitchen.fixture.otherHousehold()
        let theirMilk = try kitchen.fixture.items.register(
            [KeepKitchen.input("Milk", 5, "bottle")], into: try kitchen.fixture.firstFolder(.stock, in: other.household), in: other.household,
            by: other.memberId, timeZone: kitchen.zone)[0]
        let milk = try kitchen.add("Milk", 0, "bottle")
        try kitchen.keep(milk, minimum: "1", refillTo: "1")
        #expect(try kitchen.onList("Milk") == ["1 bottle, the rule's 1"], "their five bottles are not ours")
        #expect(throws: InventoryError.notFound) {
            try kitchen.rules.keep(forItem: theirMilk, minimum: "1", refillTo: "", pack: "", in: kitchen.household, by: kitchen.member)
        }
    }

    @Test(arguments: [
        ("0", "", "", ["keep_minimum": FieldProblem.keepMinimumInvalid]),
        ("lots", "", "", ["keep_minimum": .keepMinimumInvalid]),
        ("2", "1", "", ["keep_refill_to": .keepRefillBelowMinimum]),
        ("2", "", "-1", ["keep_pack": .keepAmountInvalid]),
        ("1e300", "", "0", ["keep_minimum": .keepMinimumInvalid, "keep_pack": .keepAmountInvalid]),
    ])
    func amountsThatAreNotAmountsAreRefusedBesideTheirField(_ minimum: String, _ refillTo: String, _ pack: String, _ problems: [String: FieldProblem])
        throws
    {
        let milk = try kitchen.add("Milk", 1, "bottle")
        #expect(throws: InventoryError.validation(problems)) {
            try kitchen.rules.keep(forItem: milk, minimum: minimum, refillTo: refillTo, pack: pack, in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.rules.all(in: kitchen.household) == [])
    }

    @Test func fullWidthDigitsAndDecimalCommasAreAmounts() throws {
        let flour = try kitchen.add("Flour", 300, "g")
        try kitchen.keep(flour, minimum: "５００", refillTo: "1000,5")
        let rule = try #require(try kitchen.rules.rule(forItem: flour, in: kitchen.household))
        #expect((rule.minimum, rule.refillTo, rule.pack, rule.inStock) == (500, 1000.5, 1, 300))
    }
}

/// A household on 2026-11-23 (UTC) with its keep rules.
struct KeepKitchen {
    let base: CookKitchen

    init() throws { base = try CookKitchen() }

    var fixture: Fixture { base.fixture }
    var household: HouseholdScope { base.household }
    var member: Member.ID { base.member }
    var database: AppDatabase { base.database }
    var zone: TimeZone { base.zone }
    var items: Items { fixture.items }
    var rules: KeepRules { KeepRules(database: database, clock: fixture.clock.wall) }

    func folder(_ kind: FolderKind) throws -> Folder.ID { try base.folder(kind) }
    func makeFolder(_ name: String, _ kind: FolderKind) throws -> Folder.ID { try base.makeFolder(name, kind) }
    func row(_ id: Item.ID) throws -> Item { try base.row(id) }

    static func input(_ name: String, _ quantity: Double, _ unit: String) -> ItemInput {
        var input = ItemInput()
        input.name = name
        input.quantity = Quantity.text(quantity)
        input.unit = unit
        return input
    }

    @discardableResult
    func add(_ name: String, _ quantity: Double, _ unit: String = "piece", in folderId: Folder.ID? = nil, due: String? = nil) throws -> Item.ID {
        try base.add(name, quantity, unit, in: folderId, due: due)
    }

    func keep(_ item: Item.ID, minimum: String, refillTo: String = "", pack: String = "") throws {
        try rules.keep(forItem: item, minimum: minimum, refillTo: refillTo, pack: pack, in: household, by: member)
    }

    /// The shopping rows (outside the trash) called `name` however written, as "3 bottle, the rule's 2".
    func onList(_ name: String) throws -> [String] {
        try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.quantity, i.unit, i.refill_quantity FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE f.kind = 'shopping' AND i.deleted_at IS NULL AND i.name_key = ? AND i.household_id = ? ORDER BY i.id
                    """, arguments: [KeepStock.nameKey(name), household.householdId]
            ).map { row in
                let refill: Double? = row["refill_quantity"]
                return "\(Quantity.text(row["quantity"])) \(row["unit"] as String)" + (refill.map { ", the rule's \(Quantity.text($0))" } ?? "")
            }
        }
    }

    func listRows(_ name: String) throws -> [Item.ID] {
        try database.writer.read { db in
            try Item.ID.fetchAll(
                db, sql: "SELECT i.id FROM item i JOIN folder f ON f.id = i.folder_id WHERE f.kind = 'shopping' AND i.deleted_at IS NULL AND i.name_key = ?",
                arguments: [KeepStock.nameKey(name)])
        }
    }

    /// The writes that take stock away.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case use, cook, edit, rename, trash, move, csvImport
        var testDescription: String { rawValue }
    }

    /// Takes one bottle of the 2 in `milk` away (`cook` uses one; the others leave one or none) by `path`.
    func takeAway(_ milk: Item.ID, by path: Path) throws {
        let item = try row(milk)
        switch path {
        case .use:
            try items.adjustQuantity(milk, by: -1, in: household, by: member)
        case .cook:
            let recipe = try base.recipe("Milk tea", [("milk", 1, "bottle")])
            try base.cook(recipe)
        case .edit:
            var input = ItemInput(item, timeZone: zone)
            input.quantity = "1"
            try items.update(milk, with: input, folderId: item.folderId, version: item.version, in: household, by: member, timeZone: zone)
        case .rename:
            var input = ItemInput(item, timeZone: zone)
            input.name = "Oat milk"
            try items.update(milk, with: input, folderId: item.folderId, version: item.version, in: household, by: member, timeZone: zone)
        case .trash:
            try items.trash([milk], in: household, by: member)
        case .move:
            try items.move([milk], to: try makeFolder("Later", .shopping), in: household, by: member)
        case .csvImport:
            let folders = Dictionary(uniqueKeysWithValues: try items.folders(in: household).map { ($0.name.lowercased(), $0.id) })
            let plan = try items.runImport(
                [ImportRow(line: 2, id: "\(milk)", fields: ["name": "Milk", "quantity": "0", "unit": "bottle"])], defaultFolderId: item.folderId,
                folderIds: folders, in: household, by: member, timeZone: zone)
            #expect(plan.problems.isEmpty)
        }
    }
}
