import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Inventory

/// The change feed: every writer's changes to folders, items, products and recipes become records
/// of their household, numbered in order, naming who and when; read back since a number, in pages,
/// or as "too far behind" once the oldest were dropped; and a call after each commit.
@Suite("Change feed")
struct ChangeFeedTests {
    let kitchen: RecipeKitchen
    let feed: ChangeFeed
    let utc = TimeZone(identifier: "UTC")!

    init() throws {
        kitchen = try RecipeKitchen()
        feed = ChangeFeed(database: kitchen.database)
    }

    var fixture: Fixture { kitchen.fixture }
    var items: Items { fixture.items }
    var household: HouseholdScope { kitchen.household }
    var member: Member.ID { kitchen.member }
    var now: Timestamp { Timestamp(fixture.clock.now) }

    /// Everything recorded after `since` (the whole feed by default), asserting none was dropped.
    func changes(since: Int64 = 0, in scope: HouseholdScope? = nil) throws -> [Change] {
        guard case .changes(let changes, let latest) = try feed.changes(since: since, in: scope ?? household) else {
            Issue.record("too far behind")
            return []
        }
        if changes.count < ChangeFeed.maximumLimit { #expect(changes.last?.sequence ?? since == latest) }
        return changes
    }

    /// What the next write records: runs `write`, returns the records it left.
    func recorded(_ write: () throws -> Void) throws -> [Change] {
        let before = try feed.latestSequence(in: household)
        try write()
        return try changes(since: before)
    }

    func add(_ name: String, to folder: Folder.ID, barcode: String = "") throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.barcode = barcode
        return try items.register([input], into: folder, in: household, by: member, timeZone: utc)[0]
    }

    @Test func anItemsLifeIsRecordedWithWhoAndWhenFromTheNamedWrite() throws {
        let fridge = try kitchen.folder(.stock)
        let pantry = try kitchen.pantry()
        fixture.clock.advance(60)
        let created = now
        var id = Item.ID(0)
        let added = try recorded { id = try add("Milk", to: fridge) }
        #expect(
            added == [
                Change(
                    sequence: added.first?.sequence ?? 0, entity: .item(id), kind: .created, version: 1, toFolderId: fridge, memberId: member,
                    memberName: "Aki", at: created)
            ])
        fixture.clock.advance(60)
        let tapped = try recorded { try items.adjustQuantity(id, by: 1, in: household, by: member) }
        #expect(tapped.map(\.kind) == [.changed])
        #expect(tapped.first?.version == 2)
        #expect(tapped.first?.fromFolderId == fridge && tapped.first?.toFolderId == fridge)
        #expect(tapped.first?.at == now, "the store's clock, not SQLite's")

        let moved = try recorded { try items.move([id], to: pantry, in: household, by: member) }
        #expect(moved.map(\.fromFolderId) == [fridge] && moved.map(\.toFolderId) == [pantry], "a list the row left knows it")

        let trashed = try recorded { try items.trash([id], in: household, by: member) }
        #expect(trashed.map(\.kind) == [.changed] && trashed.map(\.inTrash) == [true])
        let restored = try recorded { try items.restore([id], in: household, by: member) }
        #expect(restored.map(\.kind) == [.changed] && restored.map(\.inTrash) == [false])
        try items.trash([id], in: household, by: member)
        let purged = try recorded { try items.purge([id], in: household) }
        #expect(purged.map(\.kind) == [.deleted])
        #expect(purged.first?.fromFolderId == pantry && purged.first?.toFolderId == nil)
        #expect(purged.first?.memberId == nil, "purge names no member")
        #expect(purged.first?.at == now, "but its time is the store's")

        let all = try changes()
        #expect(all.map(\.sequence) == Array(1...Int64(all.count)), "numbered 1, 2, 3… without gaps")
        #expect(try feed.latestSequence(in: household) == Int64(all.count))
    }

    @Test func foldersAndProductsAreRecorded() throws {
        let folders = Folders(database: kitchen.database, clock: fixture.clock.wall)
        var pantry = Folder.ID(0)
        let created = try recorded { pantry = try folders.create(name: "Pantry", kind: .stock, icon: "pantry", in: household) }
        #expect(created.map(\.entity) == [.folder(pantry)] && created.map(\.kind) == [.created])
        #expect(created.first?.at == now && created.first?.memberId == nil)
        let renamed = try recorded { try folders.update(pantry, name: "Shelf", icon: "shelf", in: household) }
        #expect(renamed.map(\.kind) == [.changed])

        var milk = Item.ID(0)
        let scanned = try recorded { milk = try add("Milk", to: pantry, barcode: "4901234567894") }
        let product = try #require(try Products(database: kitchen.database, clock: fixture.clock.wall).product(barcode: "4901234567894", in: household))
        #expect(scanned.map(\.entity) == [.item(milk), .product(product.id)], "the item, then the product it taught")
        #expect(scanned.map(\.kind) == [.created, .created])
        let unchanged = try recorded { try items.adjustQuantity(milk, by: 1, in: household, by: member) }
        #expect(unchanged.map(\.entity) == [.item(milk)], "the product learned nothing new: no record for it")
        let forgotten = try recorded { try Products(database: kitchen.database, clock: fixture.clock.wall).forget(product.id, in: household) }
        #expect(forgotten.map(\.entity) == [.product(product.id)] && forgotten.map(\.kind) == [.deleted])

        let deleted = try recorded { try folders.delete(pantry, in: household, by: member) }
        #expect(deleted.map(\.entity) == [.item(milk), .folder(pantry)], "its items go to the trash with it")
        #expect(deleted.map(\.inTrash) == [true, true])
        #expect(deleted.allSatisfy { $0.memberId == member })
    }

    @Test func aRecipeSaveIsOneRecordThoughItRewritesItsIngredientsAndTags() throws {
        var input = RecipesSaveTests.curry()
        var id = Recipe.ID(0)
        let created = try recorded { id = try kitchen.recipes.save(input, id: nil, in: household, by: member) }
        #expect(created.map(\.entity) == [.recipe(id)] && created.map(\.kind) == [.created] && created.map(\.version) == [1])
        input.name = "Curry"
        let edited = try recorded { _ = try kitchen.recipes.save(input, id: id, in: household, by: member) }
        #expect(edited.map(\.entity) == [.recipe(id)] && edited.map(\.kind) == [.changed] && edited.map(\.version) == [2])
        let trashed = try recorded { try kitchen.recipes.trash(id, in: household, by: member) }
        #expect(trashed.map(\.inTrash) == [true])
        let purged = try recorded { try kitchen.recipes.purge([id], in: household) }
        #expect(purged.map(\.kind) == [.deleted], "its ingredients and tags go with it, unrecorded")

        // Another process adds an ingredient by hand: the recipe changed, by nobody the server knows.
        let other = try kitchen.recipe("Soup")
        let byHand = try recorded {
            try kitchen.database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO recipe_ingredient (household_id, recipe_id, position, name, name_folded) VALUES (?, ?, 9, 'Leek', 'leek')",
                    arguments: [household.householdId, other])
                try db.execute(sql: "INSERT INTO recipe_tag (household_id, recipe_id, tag) VALUES (?, ?, 'winter')", arguments: [household.householdId, other])
            }
        }
        #expect(byHand.map(\.entity) == [.recipe(other), .recipe(other)], "no named write: each row's change is recorded")
        #expect(byHand.allSatisfy { $0.kind == .changed && $0.memberId == nil })
    }

    @Test func aWriteByHandNamesNoMemberAndAnItemChangedTwiceInOneTransactionIsRecordedTwice() throws {
        let fridge = try kitchen.folder(.stock)
        let id = try add("Milk", to: fridge)
        let byHand = try recorded {
            try kitchen.database.writer.write { db in
                try db.execute(sql: "UPDATE item SET quantity = 3, version = version + 1 WHERE id = ?", arguments: [id])
                try db.execute(sql: "UPDATE item SET note = 'organic', version = version + 1 WHERE id = ?", arguments: [id])
            }
        }
        #expect(byHand.map(\.version) == [2, 3], "one record per row change, the later with the later version")
        #expect(byHand.allSatisfy { $0.memberId == nil && $0.memberName == nil })
        #expect(byHand.allSatisfy { $0.at != now }, "SQLite's clock, not the store's")

        let unseen = try recorded {
            try kitchen.database.writer.write { db in
                try db.execute(
                    sql: "UPDATE item SET reminder_sent_for = '2026-11-23T09:00:00Z', search_text = 'x', updated_at = ? WHERE id = ?", arguments: [now, id])
                try db.execute(sql: "UPDATE folder SET item_count = item_count WHERE id = ?", arguments: [fridge])
            }
        }
        #expect(unseen.isEmpty, "nothing a page shows changed")
        let actor = try kitchen.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change_actor") }
        #expect(actor == 0, "a named write clears who and when before it commits")
    }

    @Test func anotherHouseholdsChangesNeverAppear() throws {
        let grandma = try fixture.otherHousehold()
        let theirFridge = try fixture.firstFolder(.stock, in: grandma.household)
        let mine = try changes()
        let latest = try feed.latestSequence(in: household)
        let theirsBefore = try feed.latestSequence(in: grandma.household)
        var input = ItemInput()
        input.name = "Tofu"
        let theirs = try items.register([input], into: theirFridge, in: grandma.household, by: grandma.memberId, timeZone: utc)[0]
        try items.adjustQuantity(theirs, by: 1, in: grandma.household, by: grandma.memberId)

        #expect(try changes() == mine)
        #expect(try feed.latestSequence(in: household) == latest)
        #expect(try changes(in: grandma.household).first?.sequence == 1, "each household counts its own (from its starter folders)")
        let theirChanges = try changes(since: theirsBefore, in: grandma.household)
        #expect(theirChanges.map(\.entity) == [.item(theirs), .item(theirs)])
        #expect(theirChanges.map(\.sequence) == [theirsBefore + 1, theirsBefore + 2])
        #expect(theirChanges.allSatisfy { $0.memberName == "Grandma" })
    }

    @Test func changesArePagedSinceASequenceNumber() throws {
        let fridge = try kitchen.folder(.stock)
        let id = try add("Milk", to: fridge)
        let start = try feed.latestSequence(in: household)
        for _ in 1...6 { try items.adjustQuantity(id, by: 1, in: household, by: member) }
        let latest = try feed.latestSequence(in: household)
        #expect(latest == start + 6)

        #expect(try feed.changes(since: 0, in: household, limit: 3) == .changes(try Array(changes().prefix(3)), latest: latest))
        guard case .changes(let page, _) = try feed.changes(since: start + 1, in: household, limit: 3) else {
            Issue.record("too far behind")
            return
        }
        #expect(page.map(\.sequence) == [start + 2, start + 3, start + 4])
        #expect(page.map(\.version) == [3, 4, 5])
        #expect(try feed.changes(since: latest, in: household, limit: 3) == .changes([], latest: latest))
        guard case .changes(let one, _) = try feed.changes(since: 0, in: household, limit: 0) else { return }
        #expect(one.count == 1, "a limit below 1 is 1")
        #expect(try feed.changes(since: latest + 1, in: household) == .tooFarBehind(latest: latest), "ahead of the household: the database went back")
    }

    @Test func aReaderIsTooFarBehindOnceTheRecordsAfterItWereDropped() throws {
        let fridge = try kitchen.folder(.stock)
        let id = try add("Milk", to: fridge)
        try items.adjustQuantity(id, by: 1, in: household, by: member)
        let before = try changes().map(\.sequence)
        #expect(before == Array(1...Int64(before.count)), "the starter folders, the item, its quantity")

        // A fortnight later, each record written drops the oldest one older than 14 days.
        fixture.clock.advance(14 * 86400 + 1)
        try items.adjustQuantity(id, by: 1, in: household, by: member)
        let latest = try feed.latestSequence(in: household)
        #expect(try feed.changes(since: 0, in: household) == .tooFarBehind(latest: latest))
        #expect(try changes(since: 1).map(\.sequence) == Array(2...latest), "the one after 1 is still there")
        try items.adjustQuantity(id, by: 1, in: household, by: member)
        #expect(try feed.changes(since: 1, in: household) == .tooFarBehind(latest: latest + 1))
        #expect(try changes(since: 2).map(\.sequence) == Array(3...latest + 1))
    }

    @Test func theFeedKeepsAtMost5000RecordsPerHousehold() throws {
        let fridge = try kitchen.folder(.stock)
        let id = try add("Milk", to: fridge)
        try kitchen.database.writer.write { db in
            for _ in 1...5005 { try db.execute(sql: "UPDATE item SET version = version + 1 WHERE id = ?", arguments: [id]) }
        }
        let kept = try kitchen.database.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS count, MIN(seq) AS oldest FROM change_record WHERE household_id = ?", arguments: [household.householdId])
        }
        let latest = try feed.latestSequence(in: household)
        #expect(latest > 5005)
        #expect(kept?["count"] == 5000)
        #expect(kept?["oldest"] == latest - 4999, "the newest 5000 kept")
        #expect(try feed.changes(since: latest - 5001, in: household) == .tooFarBehind(latest: latest))
        #expect(try changes(since: latest - 5000).count == 500, "a page is at most 500")
    }

    @Test func theCommitCallbackFiresOncePerCommitWithTheLatestSequenceAndNeverForARollback() throws {
        let calls = Mutex<[(Household.ID, Int64)]>([])
        feed.onCommit { household, latest in calls.withLock { $0.append((household, latest)) } }
        func taken() -> [(Household.ID, Int64)] {
            calls.withLock { calls in
                defer { calls.removeAll() }
                return calls
            }
        }
        let fridge = try kitchen.folder(.stock)
        let pantry = try kitchen.pantry()
        _ = taken()

        let milk = try add("Milk", to: fridge), eggs = try add("Eggs", to: fridge)
        _ = taken()
        try items.move([milk, eggs], to: pantry, in: household, by: member)
        let moved = taken()
        #expect(moved.map(\.0) == [household.householdId], "two records, one commit, one call")
        #expect(moved.map(\.1) == [try feed.latestSequence(in: household)])

        #expect(throws: InventoryError.notFound) { try items.move([milk, Item.ID(999)], to: fridge, in: household, by: member) }
        #expect(taken().isEmpty, "rolled back: nothing advanced")
        #expect(try changes(since: moved[0].1).isEmpty)

        _ = kitchen.database.healthProblem()
        #expect(taken().isEmpty, "a write the feed does not record")

        let grandma = try fixture.otherHousehold()
        let leeks = try addShopping(in: grandma)
        _ = taken()
        try items.setUrgent(leeks, true, in: grandma.household, by: grandma.memberId)
        #expect(taken().map(\.0) == [grandma.household.householdId], "only the household that changed")
    }

    /// An item on the other household's shopping list.
    func addShopping(in other: SignedIn) throws -> Item.ID {
        var input = ItemInput()
        input.name = "Leeks"
        return try items.register(
            [input], into: try fixture.firstFolder(.shopping, in: other.household), in: other.household, by: other.memberId, timeZone: utc)[0]
    }

    @Test func inTheBasketIsSharedRecordedAndLeftWhenBought() throws {
        let list = try kitchen.folder(.shopping)
        let fridge = try kitchen.folder(.stock)
        let milk = try add("Milk", to: list), eggs = try add("Eggs", to: list), rice = try add("Rice", to: list)

        let ticked = try recorded { try items.setInBasket(milk, true, in: household, by: member) }
        #expect(ticked.map(\.entity) == [.item(milk)] && ticked.map(\.version) == [2])
        #expect(try items.item(milk, in: household).inBasket)
        #expect(try items.item(milk, in: household).inBasketBy == member)
        #expect(try recorded { try items.setInBasket(milk, true, in: household, by: member) }.isEmpty, "already there: nothing changes")
        try items.setInBasket(eggs, true, in: household, by: member)
        try items.setInBasket(rice, true, in: household, by: member)
        #expect(try items.basketCounts(in: household) == [list: 3])

        try items.setInBasket(rice, false, in: household, by: member)
        #expect(try items.item(rice, in: household).inBasket == false && items.item(rice, in: household).inBasketBy == nil)
        try items.markBought([milk], into: fridge, in: household, by: member)
        #expect(try items.item(milk, in: household).inBasket == false, "bought into stock: out of the basket")
        try items.move([eggs], to: fridge, in: household, by: member)
        #expect(try items.item(eggs, in: household).inBasketBy == nil, "moved to a stock list: out of the basket")
        #expect(try items.basketCounts(in: household).isEmpty)

        #expect(throws: InventoryError.notFound) { try items.setInBasket(milk, true, in: household, by: member) }
        #expect(try items.item(milk, in: household).inBasket == false, "a stock item has no basket")
    }

    @Test func anEditThatMovesABasketRowToAStockListTakesItOutOfTheBasket() throws {
        let list = try kitchen.folder(.shopping)
        let fridge = try kitchen.folder(.stock)
        let milk = try add("Milk", to: list)
        try items.setInBasket(milk, true, in: household, by: member)
        let item = try items.item(milk, in: household)
        var input = ItemInput(item, timeZone: utc)
        input.quantity = "2"
        try items.update(milk, with: input, folderId: fridge, version: item.version, in: household, by: member, timeZone: utc)
        #expect(try items.item(milk, in: household).inBasket == false)
    }
}
