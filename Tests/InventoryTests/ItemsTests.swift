import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The household "Home" of `Fixture`, with its items and folders, and a clock the test moves.
private struct Kitchen {
    let fixture: Fixture
    let owner: SignedIn
    let items: Items
    let folders: Folders
    let utc = TimeZone(identifier: "UTC")!

    init() throws {
        fixture = try Fixture()
        owner = try fixture.owner
        items = Items(database: fixture.database, clock: fixture.clock.wall)
        folders = Folders(database: fixture.database, clock: fixture.clock.wall)
    }

    var household: HouseholdScope { owner.household }
    var member: Member.ID { owner.memberId }
    var database: AppDatabase { fixture.database }

    /// Moves the fixture's clock to an ISO-8601 instant ("2026-11-20T12:00:00Z").
    func setClock(_ iso: String) throws {
        let target = try #require(Timestamp(iso)?.date)
        fixture.clock.advance(target.timeIntervalSince(fixture.clock.now))
    }

    func setTimeZone(_ identifier: String, dueSoonDays: String = "3") throws {
        try HouseholdSettings(database: database).update(household, name: "Home", timeZone: identifier, dueSoonDays: dueSoonDays)
    }

    /// The household's zone as stored, the way a controller passes it on.
    func householdZone() throws -> TimeZone {
        try #require(TimeZone(identifier: try HouseholdSettings(database: database).household(household).timeZone))
    }

    func folder(_ name: String, in other: HouseholdScope? = nil) throws -> Folder {
        try #require(try items.folders(in: other ?? household).first { $0.name == name }, "no folder \(name)")
    }

    func id(of folderName: String) throws -> Folder.ID { try #require(try folder(folderName).id) }

    @discardableResult
    func add(_ name: String, to folderName: String = "Fridge", _ configure: (inout ItemInput) -> Void = { _ in }) throws -> Item.ID {
        let ids = try items.register([.named(name, configure)], into: id(of: folderName), in: household, by: member, timeZone: utc)
        return try #require(ids.first)
    }

    func item(_ id: Item.ID) throws -> Item { try items.item(id, in: household) }

    func names(in folderName: String, _ filter: ListFilter = ListFilter(), page: Int = 1) throws -> [String] {
        try items.page(of: folder(folderName), filter: filter, page: page).items.map(\.name)
    }

    func history(_ id: Item.ID) throws -> [ItemEvent] { try items.history(of: id, in: household) }

    func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try database.writer.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? -1 }
    }

    func overview(_ folderName: String) throws -> FolderOverview {
        try #require(try folders.overview(in: household).first { $0.name == folderName })
    }
}

extension ItemEvent {
    /// The line with each folder under its stored name, as "Fridge → Supermarket: 1 → 3".
    var plainText: String {
        guard let folders else { return detail }
        let step = "\(folders.from?.name ?? "?") → \(folders.to?.name ?? "?")"
        return detail.isEmpty ? step : "\(step): \(detail)"
    }
}

extension ItemInput {
    fileprivate static func named(_ name: String, _ configure: (inout ItemInput) -> Void = { _ in }) -> ItemInput {
        var input = ItemInput()
        input.name = name
        configure(&input)
        return input
    }

}

private func fieldErrors(_ result: Result<ItemValues, ItemFieldErrors>) -> [ItemField: FieldProblem] {
    if case .failure(let errors) = result { return errors.fields }
    return [:]
}

@Suite("Items: lists, editing, actions, trash")
struct ItemsTests {
    // MARK: - 1. List order

    @Test func stockListsShowTheEarliestDueDateFirstUndatedItemsLastAndTiesByName() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Yogurt") { $0.due = "2026-11-25" }
        try kitchen.add("Butter")
        try kitchen.add("Milk") { $0.due = "2026-11-22" }
        try kitchen.add("Apple")
        try kitchen.add("Cheese") { $0.due = "2026-11-22" }
        try kitchen.add("Eggs") { $0.due = "2026-12-01" }
        try kitchen.add("Ham") { $0.due = "2026-11-30" }
        #expect(try kitchen.names(in: "Fridge") == ["Cheese", "Milk", "Yogurt", "Ham", "Eggs", "Apple", "Butter"])
    }

    @Test func shoppingListsShowUrgentItemsFirstThenSortByName() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Tofu", to: "Supermarket")
        try kitchen.add("Rice", to: "Supermarket") { $0.urgent = true }
        try kitchen.add("Apples", to: "Supermarket")
        try kitchen.add("Bread", to: "Supermarket") { $0.urgent = true }
        #expect(try kitchen.names(in: "Supermarket") == ["Bread", "Rice", "Apples", "Tofu"])
    }

    // MARK: - 2. Due-soon and expired counts

    @Test func anItemDueTodayIsDueSoonNotExpiredAndYesterdayIsExpired() throws {
        let kitchen = try Kitchen()
        try kitchen.setClock("2026-11-20T12:00:00Z")
        let yesterday = try kitchen.add("Yesterday") { $0.due = "2026-11-19" }
        try kitchen.add("Today") { $0.due = "2026-11-20" }
        try kitchen.add("In three days") { $0.due = "2026-11-23" }
        try kitchen.add("In four days") { $0.due = "2026-11-24" }
        try kitchen.add("Undated")
        try kitchen.add("On the list", to: "Supermarket")

        var fridge = try kitchen.overview("Fridge")
        #expect((fridge.itemCount, fridge.expired, fridge.dueSoon) == (5, 1, 2))
        let supermarket = try kitchen.overview("Supermarket")
        #expect((supermarket.itemCount, supermarket.expired, supermarket.dueSoon) == (1, 0, 0))

        // A day later "Today" has expired and "In four days" entered the window.
        kitchen.fixture.clock.advance(86400)
        fridge = try kitchen.overview("Fridge")
        #expect((fridge.expired, fridge.dueSoon) == (2, 2))

        // The window follows the household's setting: 0 days is today only.
        try kitchen.setTimeZone("UTC", dueSoonDays: "0")
        fridge = try kitchen.overview("Fridge")
        #expect((fridge.expired, fridge.dueSoon) == (2, 0))
        try kitchen.setTimeZone("UTC", dueSoonDays: "1")
        #expect(try kitchen.overview("Fridge").dueSoon == 0)
        try kitchen.setTimeZone("UTC", dueSoonDays: "2")
        #expect(try kitchen.overview("Fridge").dueSoon == 1)

        // What is in the trash counts for nothing.
        try kitchen.items.trash([yesterday], in: kitchen.household, by: kitchen.member)
        fridge = try kitchen.overview("Fridge")
        #expect((fridge.itemCount, fridge.expired) == (4, 1))
    }

    @Test func dueCountsFollowTheHouseholdsTimeZoneNotTheServers() throws {
        let kitchen = try Kitchen()
        // 03:00 UTC on the 21st: noon on the 21st in Tokyo, still 19:00 on the 20th in Los Angeles.
        try kitchen.setClock("2026-11-21T03:00:00Z")
        try kitchen.add("Milk") { $0.due = "2026-11-20" }
        try kitchen.add("Rice", to: "Pantry") { $0.due = "2026-11-24" }

        func counts() throws -> [Int] {
            let fridge = try kitchen.overview("Fridge"), pantry = try kitchen.overview("Pantry")
            return [fridge.expired, fridge.dueSoon, pantry.expired, pantry.dueSoon]
        }
        try kitchen.setTimeZone("America/Los_Angeles")
        // Milk is due today (soon, not expired); the 24th is four days away (outside the window).
        #expect(try counts() == [0, 1, 0, 0])
        try kitchen.setTimeZone("Asia/Tokyo")
        // Milk was due yesterday (expired); the 24th is three days away (soon).
        #expect(try counts() == [1, 0, 0, 1])
        try kitchen.setTimeZone("America/Los_Angeles")
        #expect(try counts() == [0, 1, 0, 0])
    }

    // MARK: - 3. The batch rule

    @Test func aDraftWithContentButNoNameStopsTheWholeBatchAndNothingIsSaved() throws {
        let kitchen = try Kitchen()
        let fridge = try kitchen.id(of: "Fridge")
        var drafts: [ItemInput] = [
            .named("Milk") { $0.quantity = "2" },
            .named("") { $0.note = "from the farm" },
            .named("Eggs") { $0.quantity = "10" },
            ItemInput(), // blank: only defaults
        ]
        #expect(throws: ItemFormErrors([1: [.name: .itemNameRequired]])) {
            try kitchen.items.register(drafts, into: fridge, in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.count("SELECT COUNT(*) FROM item") == 0)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item_event") == 0)

        drafts[1].name = "Cream"
        let ids = try kitchen.items.register(drafts, into: fridge, in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        #expect(ids.count == 3)
        #expect(ids == ids.sorted())
        let saved = try ids.map(kitchen.item)
        #expect(saved.map(\.name) == ["Milk", "Cream", "Eggs"])
        #expect(saved.map(\.quantity) == [2, 1, 10])
        #expect(saved[1].note == "from the farm")
        #expect(try kitchen.count("SELECT COUNT(*) FROM item") == 3)
        for id in ids {
            let history = try kitchen.history(id)
            #expect(history.map(\.kind) == ["created"])
            #expect(history.first?.detail == "Fridge")
            #expect(history.first?.memberName == "Aki")
        }
    }

    @Test func errorKeysCountBlankDraftsSoTheFormCanPointAtTheRightRow() throws {
        let kitchen = try Kitchen()
        let drafts: [ItemInput] = [ItemInput(), .named("Tea"), .named(" ") { $0.barcode = "4901234567894" }, .named("Jam") { $0.quantity = "abc" }]
        #expect(throws: ItemFormErrors([2: [.name: .itemNameRequired], 3: [.quantity: .quantityInvalid]])) {
            try kitchen.items.register(drafts, into: kitchen.id(of: "Pantry"), in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.count("SELECT COUNT(*) FROM item") == 0)
    }

    @Test func aBatchOfOnlyBlankDraftsIsRefused() throws {
        let kitchen = try Kitchen()
        let blanks: [ItemInput] = [ItemInput(), .named("  ") { $0.quantity = "" }, ItemInput()]
        let allBlank = blanks.allSatisfy(\.isBlank)
        #expect(allBlank)
        #expect(throws: ItemFormErrors([0: [.name: .itemNameRequired]])) {
            try kitchen.items.register(blanks, into: kitchen.id(of: "Fridge"), in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(throws: ItemFormErrors([0: [.name: .itemNameRequired]])) {
            try kitchen.items.register([], into: kitchen.id(of: "Fridge"), in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.count("SELECT COUNT(*) FROM item") == 0)
    }

    // MARK: - 4. Validation

    @Test(arguments: [("1.5", 1.5), ("1,5", 1.5), (" 2 ", 2.0), ("", 1.0), ("0", 0.0), ("0.3333", 0.333), ("１．５", 1.5)])
    func quantitiesAcceptADecimalPointOrComma(text: String, value: Double) {
        let result = ItemValidation.check(.named("Milk") { $0.quantity = text }, for: .stock, timeZone: .gmt)
        #expect((try? result.get())?.quantity == value, "\(text) → \(result)")
    }

    @Test(arguments: ["-1", "abc", "1.5.2", "nan", "inf", "1e400"])
    func quantitiesRejectNegativeAndNonNumbers(text: String) {
        let result = ItemValidation.check(.named("Milk") { $0.quantity = text }, for: .stock, timeZone: .gmt)
        #expect(fieldErrors(result) == [.quantity: .quantityInvalid], "\(text)")
    }

    @Test(arguments: ["1000001", "1e308"])
    func aQuantityAboveTheLargestSaysSo(text: String) {
        let result = ItemValidation.check(.named("Milk") { $0.quantity = text }, for: .stock, timeZone: .gmt)
        #expect(fieldErrors(result) == [.quantity: .quantityTooLarge], "\(text)")
    }

    @Test func aFullWidthDecimalCommaIsAcceptedLikeAnASCIIOne() {
        // Japanese IMEs type "１，５"; "１．５" and "1,5" both pass, so this should too.
        do {
            let result = ItemValidation.check(.named("Milk") { $0.quantity = "１，５" }, for: .stock, timeZone: .gmt)
            #expect((try? result.get())?.quantity == 1.5, "\(result)")
        }
    }

    @Test func aReminderNeedsADueDateAndDatesMustExist() {
        let noDue = ItemValidation.check(.named("Milk") { $0.remindAt = "2026-11-25T09:00" }, for: .stock, timeZone: .gmt)
        #expect(fieldErrors(noDue) == [.remindAt: .remindNeedsDue])
        let impossible = ItemValidation.check(.named("Milk") { $0.due = "2026-02-30" }, for: .stock, timeZone: .gmt)
        #expect(fieldErrors(impossible) == [.due: .dueInvalid])
        for text in ["2026-13-01", "2026-11-5", "tomorrow", "2027-02-29"] {
            #expect(fieldErrors(ItemValidation.check(.named("Milk") { $0.due = text }, for: .stock, timeZone: .gmt)) == [.due: .dueInvalid], "\(text)")
        }
        #expect((try? ItemValidation.check(.named("Milk") { $0.due = "2028-02-29" }, for: .stock, timeZone: .gmt).get())?.due == "2028-02-29")
        let badReminder = ItemValidation.check(
            .named("Milk") {
                $0.due = "2026-11-25"
                $0.remindAt = "2026-11-25T25:00"
            }, for: .stock, timeZone: .gmt)
        #expect(fieldErrors(badReminder) == [.remindAt: .remindInvalid])
        // A shopping list has no dates: they are dropped, not checked.
        let shopping = ItemValidation.check(
            .named("Milk") {
                $0.remindAt = "2026-11-25T09:00"
                $0.urgent = true
            }, for: .shopping, timeZone: .gmt)
        let values = try? shopping.get()
        #expect(values?.remindAt == nil && values?.due == nil && values?.status == nil && values?.urgent == true)
    }

    @Test func theReminderIsStoredInUTCConvertedFromTheHouseholdsZone() throws {
        let kitchen = try Kitchen()
        try kitchen.setTimeZone("Asia/Tokyo")
        let zone = try kitchen.householdZone()
        let ids = try kitchen.items.register(
            [
                .named("Milk") {
                    $0.due = "2026-11-25"
                    $0.remindAt = "2026-11-25T09:00"
                }
            ],
            into: kitchen.id(of: "Fridge"), in: kitchen.household, by: kitchen.member, timeZone: zone)
        let milk = try kitchen.item(ids[0])
        #expect(milk.remindAt == "2026-11-25T00:00:00Z")
        #expect(milk.due == "2026-11-25")
        // And the editor shows it back in the household's zone.
        #expect(ItemInput(milk, timeZone: zone).remindAt == "2026-11-25T09:00")

        let la = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let values = try ItemValidation.check(
            .named("Milk") {
                $0.due = "2026-11-25"
                $0.remindAt = "2026-11-25T09:00"
            }, for: .stock, timeZone: la
        ).get()
        #expect(values.remindAt == "2026-11-25T17:00:00Z")
    }

    @Test func aReminderAfterTheDueDayIsFlagged() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        func flagged(_ remindAt: String) throws -> Bool {
            let values = try ItemValidation.check(
                .named("Milk") {
                    $0.due = "2026-11-25"
                    $0.remindAt = remindAt
                }, for: .stock, timeZone: tokyo
            ).get()
            return ItemValidation.remindsAfterDue(values, timeZone: tokyo)
        }
        #expect(try flagged("2026-11-24T09:00") == false)
        #expect(try flagged("2026-11-25T23:59") == false)
        #expect(try flagged("2026-11-26T00:00") == true)
        #expect(try flagged("2026-11-26T08:00") == true)
        let undated = try ItemValidation.check(.named("Milk"), for: .stock, timeZone: tokyo).get()
        #expect(ItemValidation.remindsAfterDue(undated, timeZone: tokyo) == false)
    }

    @Test(arguments: ["2026--1-05", "2026-+1-05", "2026-1-005", "2026-11-+5"])
    func aDueDateInAnOddSpellingIsAFormErrorNotADatabaseError(text: String) throws {
        let kitchen = try Kitchen()
        do {
            let result = ItemValidation.check(.named("Milk") { $0.due = text }, for: .stock, timeZone: .gmt)
            let stored = (try? result.get())?.due
            #expect(stored == nil || stored == CalendarDay(text), "\(text) would be stored as \(stored?.description ?? "")")
            do {
                _ = try kitchen.items.register(
                    [.named("Milk") { $0.due = text }], into: kitchen.id(of: "Fridge"),
                    in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
            } catch is ItemFormErrors {
                // A form error is fine.
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    @Test func aNameTheValidatorAcceptsIsNeverRefusedByTheDatabase() throws {
        let kitchen = try Kitchen()
        // 60 characters as a person counts them, 120 as SQLite's length() does.
        let name = String(repeating: "👍🏽", count: 60)
        #expect(name.count == 60 && name.unicodeScalars.count == 120)
        do {
            do {
                _ = try kitchen.items.register(
                    [.named(name)], into: kitchen.id(of: "Fridge"),
                    in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
            } catch is ItemFormErrors {
                // Refused as a form error (.nameTooLong) is fine too.
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    // MARK: - 5. Moving between kinds

    @Test func movingAStockItemToAShoppingListDropsDatesAndStatusAndKeepsTheRest() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk") {
            $0.quantity = "2"
            $0.unit = "bottle"
            $0.kind = "dairy_eggs"
            $0.note = "low fat"
            $0.barcode = "4901234567894"
            $0.due = "2026-11-25"
            $0.remindAt = "2026-11-24T09:00"
            $0.status = "opened"
        }
        let before = try kitchen.item(id)
        try kitchen.items.move([id], to: kitchen.id(of: "Supermarket"), in: kitchen.household, by: kitchen.member)
        let after = try kitchen.item(id)
        #expect(after.folderId == (try kitchen.id(of: "Supermarket")))
        #expect(after.due == nil)
        #expect(after.remindAt == nil)
        #expect(after.status == nil)
        #expect(after.urgent == false)
        #expect(after.name == "Milk")
        #expect(after.quantity == 2)
        #expect(after.unit == .bottle)
        #expect(after.kind == .dairyEggs)
        #expect(after.note == "low fat" && after.barcode == "4901234567894")
        #expect(after.version == before.version + 1)
        let moved = try #require(try kitchen.history(id).first)
        #expect((moved.kind, moved.plainText) == ("moved", "Fridge → Supermarket"))
        #expect(try kitchen.names(in: "Fridge").isEmpty)
        #expect(try kitchen.names(in: "Supermarket") == ["Milk"])
    }

    @Test func movingAShoppingItemToStockDropsUrgentAndStartsUnopened() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Rice", to: "Supermarket") {
            $0.urgent = true
            $0.quantity = "5"
            $0.unit = "kg"
            $0.note = "koshihikari"
        }
        try kitchen.items.move([id], to: kitchen.id(of: "Pantry"), in: kitchen.household, by: kitchen.member)
        let rice = try kitchen.item(id)
        #expect(rice.urgent == false)
        #expect(rice.status == .unopened)
        #expect(rice.due == nil)
        #expect(rice.quantity == 5)
        #expect(rice.unit == .kg)
        #expect(rice.note == "koshihikari")
        #expect(try kitchen.history(id).first.map { [$0.kind, $0.plainText] } == ["moved", "Supermarket → Pantry"])
    }

    @Test func editingAnItemIntoAFolderOfTheOtherKindDropsWhatThatKindLacks() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk") {
            $0.quantity = "2"
            $0.unit = "bottle"
            $0.kind = "dairy_eggs"
            $0.note = "low fat"
            $0.barcode = "4901234567894"
            $0.due = "2026-11-25"
            $0.remindAt = "2026-11-24T09:00"
            $0.status = "opened"
        }
        let milk = try kitchen.item(id)
        // The form still carries the dates; the target kind has no place for them.
        try kitchen.items.update(
            id, with: ItemInput(milk, timeZone: kitchen.utc), folderId: kitchen.id(of: "Supermarket"), version: milk.version,
            in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        let onTheList = try kitchen.item(id)
        #expect(onTheList.due == nil)
        #expect(onTheList.remindAt == nil)
        #expect(onTheList.status == nil)
        #expect(onTheList.name == "Milk")
        #expect(onTheList.quantity == 2)
        #expect(onTheList.unit == .bottle)
        #expect(onTheList.kind == .dairyEggs)
        #expect(onTheList.note == "low fat" && onTheList.barcode == "4901234567894")
        let events = try kitchen.history(id).map { "\($0.kind): \($0.plainText)" }
        #expect(events.contains("moved: Fridge → Supermarket"), "\(events)")
        #expect(events.contains("changed: due,remind_at,status"), "\(events)")

        // And back: urgent ticked on the form is dropped, the status starts unopened.
        var input = ItemInput(onTheList, timeZone: kitchen.utc)
        input.urgent = true
        try kitchen.items.update(
            id, with: input, folderId: kitchen.id(of: "Freezer"), version: onTheList.version,
            in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        let frozen = try kitchen.item(id)
        let freezer = try kitchen.id(of: "Freezer")
        #expect(frozen.urgent == false)
        #expect(frozen.status == .unopened)
        #expect(frozen.folderId == freezer)
        #expect(try kitchen.history(id).map { "\($0.kind): \($0.plainText)" }.contains("moved: Supermarket → Freezer"))
    }

    // MARK: - 6. Conflicts

    @Test func anEditFromAStaleFormIsAConflictAndChangesNothing() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk") { $0.note = "low fat" }
        let opened = try kitchen.item(id)
        #expect(opened.version == 1)

        var edit = ItemInput(opened, timeZone: kitchen.utc)
        edit.name = "Oat milk"
        edit.quantity = "2"
        edit.note = ""
        kitchen.fixture.clock.advance(60)
        try kitchen.items.update(
            id, with: edit, folderId: opened.folderId, version: opened.version,
            in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        let saved = try kitchen.item(id)
        #expect(saved.version == 2)
        #expect(saved.name == "Oat milk" && saved.quantity == 2 && saved.note == "")
        #expect(saved.updatedAt != opened.updatedAt)
        let changed = try #require(try kitchen.history(id).first)
        #expect((changed.kind, changed.detail) == ("changed", "name,quantity,note"))

        // A second form opened at version 1 comes back: refused, nothing written.
        var stale = ItemInput(opened, timeZone: kitchen.utc)
        stale.name = "Soy milk"
        #expect(throws: InventoryError.conflict) {
            try kitchen.items.update(
                id, with: stale, folderId: opened.folderId, version: opened.version,
                in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.item(id) == saved)
        #expect(try kitchen.history(id).count == 2)

        // A quick action also moves the version on, so a form opened before it is stale too.
        try kitchen.items.adjustQuantity(id, by: 1, in: kitchen.household, by: kitchen.member)
        #expect(throws: InventoryError.conflict) {
            try kitchen.items.update(
                id, with: stale, folderId: saved.folderId, version: saved.version,
                in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.item(id).name == "Oat milk")
    }

    @Test func anEditWithInvalidFieldsReportsThemAndWritesNothing() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk")
        let milk = try kitchen.item(id)
        var edit = ItemInput(milk, timeZone: kitchen.utc)
        edit.name = ""
        edit.due = "2026-02-30"
        #expect(throws: ItemFormErrors([0: [.name: .itemNameRequired, .due: .dueInvalid]])) {
            try kitchen.items.update(
                id, with: edit, folderId: milk.folderId, version: milk.version,
                in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        }
        #expect(try kitchen.item(id) == milk)
    }

    // MARK: - 7. Quick actions

    @Test func adjustingTheQuantityNeverGoesBelowZeroAndIsRecorded() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk") { $0.quantity = "2" }
        #expect(try kitchen.items.adjustQuantity(id, by: -1.5, in: kitchen.household, by: kitchen.member) == 0.5)
        #expect(try kitchen.items.adjustQuantity(id, by: -1, in: kitchen.household, by: kitchen.member) == 0)
        #expect(try kitchen.items.adjustQuantity(id, by: -1, in: kitchen.household, by: kitchen.member) == 0)
        let milk = try kitchen.item(id)
        #expect(milk.quantity == 0)
        #expect(milk.version == 3) // the third press changed nothing
        let quantities = try kitchen.history(id).filter { $0.kind == "quantity" }.map(\.detail)
        #expect(quantities == ["0.5 → 0", "2 → 0.5"])
        #expect(try kitchen.items.adjustQuantity(id, by: 1, in: kitchen.household, by: kitchen.member) == 1)
    }

    @Test func markingOpenedSetsTheStatusOnceAndOnlyForStock() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk")
        #expect(try kitchen.item(id).status == .unopened)
        try kitchen.items.markOpened(id, in: kitchen.household, by: kitchen.member)
        let milk = try kitchen.item(id)
        #expect(milk.status == .opened && milk.version == 2)
        #expect(try kitchen.history(id).first?.kind == "opened")
        try kitchen.items.markOpened(id, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.item(id).version == 2)
        #expect(try kitchen.history(id).filter { $0.kind == "opened" }.count == 1)

        let listed = try kitchen.add("Bread", to: "Supermarket")
        #expect(throws: InventoryError.notFound) { try kitchen.items.markOpened(listed, in: kitchen.household, by: kitchen.member) }
        #expect(try kitchen.item(listed).status == nil)
    }

    @Test func buyAgainCopiesAStockItemOntoAShoppingListOnly() throws {
        let kitchen = try Kitchen()
        let id = try kitchen.add("Milk") {
            $0.quantity = "2"
            $0.unit = "bottle"
            $0.kind = "dairy_eggs"
            $0.note = "low fat"
            $0.barcode = "4901234567894"
            $0.due = "2026-11-25"
            $0.status = "opened"
        }
        #expect(throws: InventoryError.validation(["folder": .folderNotShopping])) {
            try kitchen.items.buyAgain(id, onto: kitchen.id(of: "Pantry"), in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.count("SELECT COUNT(*) FROM item") == 1)

        let copyId = try kitchen.items.buyAgain(id, onto: kitchen.id(of: "Supermarket"), in: kitchen.household, by: kitchen.member)
        #expect(copyId != id)
        let copy = try kitchen.item(copyId)
        #expect(copy.folderId == (try kitchen.id(of: "Supermarket")))
        #expect(copy.name == "Milk")
        #expect(copy.quantity == 2)
        #expect(copy.unit == .bottle)
        #expect(copy.kind == .dairyEggs)
        #expect(copy.note == "low fat" && copy.barcode == "4901234567894")
        #expect(copy.due == nil)
        #expect(copy.status == nil)
        #expect(copy.urgent == false)
        #expect(copy.version == 1)
        #expect(copy.searchText == SearchText.fold("Milk", "low fat"))
        #expect(try kitchen.history(copyId).map { [$0.kind, $0.detail] } == [["created", "Supermarket"]])
        // The stock item stays where it was.
        #expect(try kitchen.names(in: "Fridge") == ["Milk"])
        #expect(try kitchen.item(id).status == .opened)
    }

    @Test func markingBoughtMovesShoppingItemsIntoStockAndRemembersTheFolder() throws {
        let kitchen = try Kitchen()
        let rice = try kitchen.add("Rice", to: "Supermarket") {
            $0.urgent = true
            $0.quantity = "5"
            $0.unit = "kg"
        }
        let tofu = try kitchen.add("Tofu", to: "Supermarket")
        let pantry = try kitchen.id(of: "Pantry")
        #expect(try kitchen.folder("Supermarket").lastStockFolderId == nil)

        #expect(throws: InventoryError.validation(["folder": .folderNotStock])) {
            try kitchen.items.markBought([rice], into: kitchen.id(of: "Supermarket"), in: kitchen.household, by: kitchen.member)
        }
        // An item already in stock is not "bought": the whole batch stops.
        let milk = try kitchen.add("Milk")
        #expect(throws: InventoryError.notFound) {
            try kitchen.items.markBought([rice, milk], into: pantry, in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.item(rice).folderId == (try kitchen.id(of: "Supermarket")))

        try kitchen.items.markBought([rice, tofu], into: pantry, in: kitchen.household, by: kitchen.member)
        for id in [rice, tofu] {
            let item = try kitchen.item(id)
            #expect(item.folderId == pantry)
            #expect(item.status == .unopened)
            #expect(item.urgent == false)
            #expect(item.version == 2)
            #expect(try kitchen.history(id).first.map { [$0.kind, $0.plainText] } == ["bought", "Supermarket → Pantry"])
        }
        #expect(try kitchen.item(rice).quantity == 5)
        #expect(try kitchen.folder("Supermarket").lastStockFolderId == pantry)
        #expect(try kitchen.names(in: "Supermarket").isEmpty)
        #expect(try kitchen.names(in: "Pantry") == ["Rice", "Tofu"])
    }

    @Test func markingBoughtIsAllOrNothingWhenAnIdBelongsToAnotherHousehold() throws {
        let kitchen = try Kitchen()
        let grandma = try kitchen.fixture.otherHousehold()
        let theirs = try kitchen.items.register(
            [.named("Senbei")], into: kitchen.folder("Supermarket", in: grandma.household).id,
            in: grandma.household, by: grandma.memberId, timeZone: kitchen.utc)[0]
        let rice = try kitchen.add("Rice", to: "Supermarket") { $0.urgent = true }
        let tofu = try kitchen.add("Tofu", to: "Supermarket")

        #expect(throws: InventoryError.notFound) {
            try kitchen.items.markBought([rice, theirs, tofu], into: kitchen.id(of: "Pantry"), in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.names(in: "Supermarket") == ["Rice", "Tofu"])
        #expect(try kitchen.item(rice).urgent == true)
        #expect(try kitchen.item(rice).version == 1)
        #expect(try kitchen.folder("Supermarket").lastStockFolderId == nil)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item_event WHERE kind = 'bought'") == 0)
        #expect(try kitchen.items.item(theirs, in: grandma.household).folderId == (try kitchen.folder("Supermarket", in: grandma.household).id))
    }

    @Test func movingIsAllOrNothingToo() throws {
        let kitchen = try Kitchen()
        let milk = try kitchen.add("Milk")
        let eggs = try kitchen.add("Eggs")
        #expect(throws: InventoryError.notFound) {
            try kitchen.items.move([milk, 999_999, eggs], to: kitchen.id(of: "Freezer"), in: kitchen.household, by: kitchen.member)
        }
        #expect(try kitchen.names(in: "Fridge") == ["Eggs", "Milk"])
        #expect(try kitchen.count("SELECT COUNT(*) FROM item_event WHERE kind = 'moved'") == 0)
    }

    // MARK: - 8. Trash

    @Test func aTrashedItemLeavesItsListAndComesBackWhenRestored() throws {
        let kitchen = try Kitchen()
        let milk = try kitchen.add("Milk")
        try kitchen.add("Eggs")
        try kitchen.items.trash([milk], in: kitchen.household, by: kitchen.member)

        let page = try kitchen.items.page(of: kitchen.folder("Fridge"), filter: ListFilter(), page: 1)
        #expect(page.items.map(\.name) == ["Eggs"] && page.total == 1)
        #expect(try kitchen.overview("Fridge").itemCount == 1)
        #expect(throws: InventoryError.notFound) { try kitchen.item(milk) }
        let trash = try kitchen.items.trashEntries(in: kitchen.household)
        #expect(trash.map(\.item.name) == ["Milk"])
        #expect(trash.map(\.folderName) == ["Fridge"])
        #expect(try kitchen.history(milk).first?.kind == "deleted")
        // Only live items can be edited or trashed again.
        #expect(throws: InventoryError.notFound) { try kitchen.items.trash([milk], in: kitchen.household, by: kitchen.member) }
        #expect(throws: InventoryError.notFound) { try kitchen.items.adjustQuantity(milk, by: 1, in: kitchen.household, by: kitchen.member) }

        try kitchen.items.restore([milk], in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.names(in: "Fridge") == ["Eggs", "Milk"])
        #expect(try kitchen.items.trashEntries(in: kitchen.household).isEmpty)
        #expect(try kitchen.history(milk).first?.kind == "restored")
        #expect(try kitchen.item(milk).deletedAt == nil)
        #expect(throws: InventoryError.notFound) { try kitchen.items.restore([milk], in: kitchen.household, by: kitchen.member) }
    }

    @Test func purgingDeletesATrashedItemForGoodAndOnlyFromTheTrash() throws {
        let kitchen = try Kitchen()
        let milk = try kitchen.add("Milk")
        let eggs = try kitchen.add("Eggs")
        #expect(throws: InventoryError.notFound) { try kitchen.items.purge([eggs], in: kitchen.household) }
        try kitchen.items.trash([milk], in: kitchen.household, by: kitchen.member)
        try kitchen.items.purge([milk], in: kitchen.household)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item WHERE id = ?", [milk]) == 0)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item_event WHERE item_id = ?", [milk]) == 0)
        #expect(try kitchen.items.trashEntries(in: kitchen.household).isEmpty)
        #expect(throws: InventoryError.notFound) { try kitchen.items.restore([milk], in: kitchen.household, by: kitchen.member) }
        #expect(try kitchen.names(in: "Fridge") == ["Eggs"])
    }

    @Test func theTrashEmptiesItselfOfItemsOlderThanThirtyDays() throws {
        let kitchen = try Kitchen()
        let old = try kitchen.add("Old milk")
        let recent = try kitchen.add("Recent eggs")
        let live = try kitchen.add("Butter")
        try kitchen.items.trash([old], in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(10 * 86400)
        try kitchen.items.trash([recent], in: kitchen.household, by: kitchen.member)

        kitchen.fixture.clock.advance(20 * 86400 - 60) // old: a minute short of 30 days
        #expect(try kitchen.items.purgeExpiredTrash(in: kitchen.household) == 0)
        kitchen.fixture.clock.advance(120) // old: 30 days and a minute; recent: 20 days
        #expect(try kitchen.items.purgeExpiredTrash(in: kitchen.household) == 1)
        #expect(try kitchen.items.trashEntries(in: kitchen.household).map(\.item.name) == ["Recent eggs"])
        #expect(try kitchen.count("SELECT COUNT(*) FROM item WHERE id = ?", [old]) == 0)

        kitchen.fixture.clock.advance(10 * 86400)
        #expect(try kitchen.items.purgeExpiredTrash(in: kitchen.household) == 1)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item WHERE id = ?", [recent]) == 0)
        // Items that were never trashed stay, however old.
        #expect(try kitchen.item(live).name == "Butter")
    }

    @Test func deletingAFolderTrashesItsItemsAndRestoringOneBringsTheFolderBack() throws {
        let kitchen = try Kitchen()
        let cellar = try kitchen.folders.create(name: "Cellar", kind: .stock, icon: "shelf", in: kitchen.household)
        let wine = try kitchen.add("Wine", to: "Cellar")
        let beer = try kitchen.add("Beer", to: "Cellar")
        #expect(try kitchen.folders.itemCount(cellar, in: kitchen.household) == 2)

        try kitchen.folders.delete(cellar, in: kitchen.household, by: kitchen.member)
        #expect(try !kitchen.items.folders(in: kitchen.household).contains { $0.id == cellar })
        #expect(try !kitchen.folders.overview(in: kitchen.household).contains { $0.id == cellar })
        #expect(throws: InventoryError.notFound) { try kitchen.items.folder(cellar, in: kitchen.household) }
        let trash = try kitchen.items.trashEntries(in: kitchen.household)
        #expect(Set(trash.map(\.item.name)) == ["Wine", "Beer"])
        #expect(trash.allSatisfy { $0.folderName == "Cellar" })
        #expect(try kitchen.history(wine).first.map { [$0.kind, $0.detail] } == ["deleted", "Cellar"])

        try kitchen.items.restore([wine], in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.items.folders(in: kitchen.household).contains { $0.id == cellar })
        #expect(try kitchen.names(in: "Cellar") == ["Wine"])
        #expect(try kitchen.items.trashEntries(in: kitchen.household).map(\.item.id) == [beer])

        // Deleted again and emptied for good: the folder goes with its last item.
        try kitchen.folders.delete(cellar, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.count("SELECT COUNT(*) FROM folder WHERE id = ?", [cellar]) == 1)
        try kitchen.items.purge([wine, beer], in: kitchen.household)
        #expect(try kitchen.count("SELECT COUNT(*) FROM folder WHERE id = ?", [cellar]) == 0)
    }

    @Test func anEmptyDeletedFolderIsGoneAtOnce() throws {
        let kitchen = try Kitchen()
        let empty = try kitchen.folders.create(name: "Spare", kind: .shopping, icon: "list", in: kitchen.household)
        #expect(try kitchen.folders.itemCount(empty, in: kitchen.household) == 0)
        try kitchen.folders.delete(empty, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.count("SELECT COUNT(*) FROM folder WHERE id = ?", [empty]) == 0)
        #expect(throws: InventoryError.notFound) { try kitchen.folders.delete(empty, in: kitchen.household, by: kitchen.member) }
    }

    @Test func aFolderWhoseTrashedItemsExpireLeavesWithThem() throws {
        let kitchen = try Kitchen()
        let cellar = try kitchen.folders.create(name: "Cellar", kind: .stock, icon: "shelf", in: kitchen.household)
        try kitchen.add("Wine", to: "Cellar")
        try kitchen.folders.delete(cellar, in: kitchen.household, by: kitchen.member)
        kitchen.fixture.clock.advance(31 * 86400)
        #expect(try kitchen.items.purgeExpiredTrash(in: kitchen.household) == 1)
        #expect(try kitchen.count("SELECT COUNT(*) FROM folder WHERE id = ?", [cellar]) == 0)
        #expect(try kitchen.count("SELECT COUNT(*) FROM folder WHERE household_id = ?", [kitchen.household.householdId]) == 4)
    }

    // MARK: - 9. Filters and paging

    @Test func kindsCombineWithOrAmongThemselvesAndWithAndWithStatusAndText() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Milk") {
            $0.kind = "dairy_eggs"
            $0.status = "unopened"
        }
        try kitchen.add("牛乳") {
            $0.kind = "dairy_eggs"
            $0.status = "opened"
        }
        try kitchen.add("Salmon") {
            $0.kind = "fish"
            $0.status = "opened"
        }
        try kitchen.add("Smoked salmon") {
            $0.kind = "fish"
            $0.status = "unopened"
        }
        try kitchen.add("Beef") {
            $0.kind = "meat"
            $0.status = "opened"
        }
        try kitchen.add("Salmon roe onigiri") {
            $0.kind = "prepared"
            $0.status = "opened"
        }

        func names(_ filter: ListFilter) throws -> Set<String> { Set(try kitchen.names(in: "Fridge", filter)) }
        #expect(try names(ListFilter(kinds: ["dairy_eggs", "fish"])) == ["Milk", "牛乳", "Salmon", "Smoked salmon"])
        #expect(try names(ListFilter(kinds: ["dairy_eggs", "fish"], status: "opened")) == ["牛乳", "Salmon"])
        #expect(try names(ListFilter(text: "salmon", kinds: ["dairy_eggs", "fish"])) == ["Salmon", "Smoked salmon"])
        #expect(try names(ListFilter(text: "salmon", kinds: ["dairy_eggs", "fish"], status: "opened")) == ["Salmon"])
        #expect(try names(ListFilter(text: "salmon", status: "opened")) == ["Salmon", "Salmon roe onigiri"])
        #expect(try names(ListFilter(kinds: ["meat"], status: "unopened")).isEmpty)
        // Unknown kinds and statuses are ignored rather than matching nothing.
        #expect(try names(ListFilter(kinds: ["bogus"], status: "eaten")).count == 6)
        let filtered = try kitchen.items.page(of: kitchen.folder("Fridge"), filter: ListFilter(kinds: ["dairy_eggs", "fish"], status: "opened"), page: 1)
        #expect(filtered.total == 2 && filtered.pages == 1)
    }

    @Test func textSearchIgnoresCaseWidthAndFindsJapaneseAndNotes() throws {
        let kitchen = try Kitchen()
        try kitchen.add("Milk")
        try kitchen.add("milk chocolate")
        try kitchen.add("Tea") { $0.note = "Goes with MILK" }
        try kitchen.add("牛乳") { $0.note = "北海道" }
        try kitchen.add("ｶﾚｰ") // half-width katakana
        try kitchen.add("Butter")

        func names(_ text: String) throws -> Set<String> { Set(try kitchen.names(in: "Fridge", ListFilter(text: text))) }
        #expect(try names("MILK") == ["Milk", "milk chocolate", "Tea"])
        #expect(try names("mIlK") == ["Milk", "milk chocolate", "Tea"])
        #expect(try names("Ｍｉｌｋ") == ["Milk", "milk chocolate", "Tea"])
        #expect(try names("牛乳") == ["牛乳"])
        #expect(try names("北海道") == ["牛乳"])
        #expect(try names("カレー") == ["ｶﾚｰ"])
        #expect(try names("  butter  ") == ["Butter"])
        #expect(try names("yogurt").isEmpty)
        // Search text follows an edit of the name.
        let butter = try #require(try kitchen.items.page(of: kitchen.folder("Fridge"), filter: ListFilter(text: "butter"), page: 1).items.first)
        var edit = ItemInput(butter, timeZone: kitchen.utc)
        edit.name = "Margarine"
        try kitchen.items.update(
            butter.id, with: edit, folderId: butter.folderId, version: butter.version,
            in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        #expect(try names("butter").isEmpty)
        #expect(try names("MARGARINE") == ["Margarine"])
    }

    @Test func percentAndUnderscoreInTheSearchAreLiteral() throws {
        let kitchen = try Kitchen()
        try kitchen.add("100% juice", to: "Pantry")
        try kitchen.add("1000 yen rice", to: "Pantry")
        try kitchen.add("soy_sauce", to: "Pantry")
        try kitchen.add("soy sauce", to: "Pantry")
        try kitchen.add("back\\slash", to: "Pantry")
        try kitchen.add("backslash", to: "Pantry")
        func names(_ text: String) throws -> [String] { try kitchen.names(in: "Pantry", ListFilter(text: text)) }
        #expect(try names("100%") == ["100% juice"])
        #expect(try names("%") == ["100% juice"])
        #expect(try names("soy_") == ["soy_sauce"])
        #expect(try names("_") == ["soy_sauce"])
        #expect(try names("k\\s") == ["back\\slash"])
        #expect(try names("100").count == 2)
    }

    @Test func listsComeInPagesOfFiftyAndAPageBeyondTheEndShowsTheLast() throws {
        let kitchen = try Kitchen()
        let drafts = (0..<120).map { ItemInput.named(String(format: "Item %03d", $0)) }
        let ids = try kitchen.items.register(
            drafts.shuffled(), into: kitchen.id(of: "Pantry"), in: kitchen.household, by: kitchen.member, timeZone: kitchen.utc)
        #expect(ids.count == 120)
        let pantry = try kitchen.folder("Pantry")
        func page(_ number: Int) throws -> ListPage { try kitchen.items.page(of: pantry, filter: ListFilter(), page: number) }

        let pages = try (1...3).map(page)
        #expect(pages.map(\.items.count) == [50, 50, 20])
        #expect(pages.allSatisfy { $0.total == 120 && $0.pages == 3 })
        #expect(pages.map(\.page) == [1, 2, 3])
        let all = pages.flatMap { $0.items.map(\.name) }
        #expect(all == drafts.map(\.name))

        let beyond = try page(99)
        #expect(beyond.page == 3 && beyond.items.map(\.name) == pages[2].items.map(\.name))
        let before = try page(0)
        #expect(before.page == 1 && before.items.first?.name == "Item 000")
        #expect(try page(-5).page == 1)

        // A filter pages over what it matches.
        let filtered = try kitchen.items.page(of: pantry, filter: ListFilter(text: "item 1"), page: 1)
        #expect(filtered.total == 20 && filtered.pages == 1)
        let empty = try kitchen.items.page(of: kitchen.folder("Freezer"), filter: ListFilter(), page: 4)
        #expect(empty.total == 0 && empty.pages == 1 && empty.page == 1 && empty.items.isEmpty)
    }

    // MARK: - 10. Isolation

    @Test func everyItemMethodTreatsAnotherHouseholdsIdsAsNotFound() throws {
        let kitchen = try Kitchen()
        let grandma = try kitchen.fixture.otherHousehold()
        let (us, them) = (kitchen.household, grandma.household)
        let by = kitchen.member
        let items = kitchen.items
        func theirFolder(_ name: String) throws -> Folder.ID { try #require(try kitchen.folder(name, in: them).id) }
        func theirItem(_ name: String, in folder: String) throws -> Item.ID {
            try items.register([.named(name) { $0.quantity = "3" }], into: theirFolder(folder), in: them, by: grandma.memberId, timeZone: kitchen.utc)[0]
        }
        let theirMilk = try theirItem("Their milk", in: "Fridge")
        let theirList = try theirItem("Their senbei", in: "Supermarket")
        let theirTrashed = try theirItem("Their old tofu", in: "Pantry")
        try items.trash([theirTrashed], in: them, by: grandma.memberId)
        let ourMilk = try kitchen.add("Our milk")
        let ourList = try kitchen.add("Our bread", to: "Supermarket")
        let theirRowsBefore = try kitchen.database.writer.read { db in
            try Item.fetchAll(db, sql: "SELECT * FROM item WHERE household_id = ? ORDER BY id", arguments: [them.householdId])
        }
        let theirEventsBefore = try kitchen.count("SELECT COUNT(*) FROM item_event WHERE household_id = ?", [them.householdId])
        let theirMilkRow = try items.item(theirMilk, in: them)

        let calls: [(String, () throws -> Void)] = [
            ("item", { _ = try items.item(theirMilk, in: us) }),
            ("folder", { _ = try items.folder(theirFolder("Fridge"), in: us) }),
            (
                "register into their folder",
                {
                    _ = try items.register([.named("Intruder")], into: theirFolder("Fridge"), in: us, by: by, timeZone: kitchen.utc)
                }
            ),
            (
                "update their item",
                {
                    try items.update(
                        theirMilk, with: ItemInput(theirMilkRow, timeZone: kitchen.utc), folderId: kitchen.id(of: "Fridge"),
                        version: theirMilkRow.version, in: us, by: by, timeZone: kitchen.utc)
                }
            ),
            (
                "update ours into their folder",
                {
                    let ours = try kitchen.item(ourMilk)
                    try items.update(
                        ourMilk, with: ItemInput(ours, timeZone: kitchen.utc), folderId: theirFolder("Freezer"),
                        version: ours.version, in: us, by: by, timeZone: kitchen.utc)
                }
            ),
            ("adjustQuantity", { try items.adjustQuantity(theirMilk, by: -1, in: us, by: by) }),
            ("markOpened", { try items.markOpened(theirMilk, in: us, by: by) }),
            ("buyAgain their item", { try items.buyAgain(theirMilk, onto: kitchen.id(of: "Supermarket"), in: us, by: by) }),
            ("buyAgain onto their list", { try items.buyAgain(ourMilk, onto: theirFolder("Supermarket"), in: us, by: by) }),
            ("move their item", { try items.move([theirMilk], to: kitchen.id(of: "Freezer"), in: us, by: by) }),
            ("move into their folder", { try items.move([ourMilk], to: theirFolder("Freezer"), in: us, by: by) }),
            ("markBought their item", { try items.markBought([theirList], into: kitchen.id(of: "Pantry"), in: us, by: by) }),
            ("markBought into their folder", { try items.markBought([ourList], into: theirFolder("Pantry"), in: us, by: by) }),
            ("trash", { try items.trash([theirMilk], in: us, by: by) }),
            ("restore", { try items.restore([theirTrashed], in: us, by: by) }),
            ("purge", { try items.purge([theirTrashed], in: us) }),
            ("Folders.itemCount", { _ = try kitchen.folders.itemCount(theirFolder("Fridge"), in: us) }),
            ("Folders.update", { try kitchen.folders.update(theirFolder("Fridge"), name: "Mine now", icon: "box", in: us) }),
            ("Folders.move", { try kitchen.folders.move(theirFolder("Fridge"), by: 1, in: us) }),
            ("Folders.delete", { try kitchen.folders.delete(theirFolder("Fridge"), in: us, by: by) }),
        ]
        for (name, call) in calls {
            #expect(throws: InventoryError.notFound, "\(name)") { try call() }
        }

        // Household-wide reads and sweeps see only their own household.
        #expect(try items.folders(in: us).allSatisfy { $0.householdId == us.householdId })
        #expect(try items.trashEntries(in: us).isEmpty)
        kitchen.fixture.clock.advance(40 * 86400)
        #expect(try items.purgeExpiredTrash(in: us) == 0)
        #expect(try kitchen.folders.overview(in: us).count == 4)

        // Nothing of theirs changed, and nothing of ours went over.
        let theirRowsAfter = try kitchen.database.writer.read { db in
            try Item.fetchAll(db, sql: "SELECT * FROM item WHERE household_id = ? ORDER BY id", arguments: [them.householdId])
        }
        #expect(theirRowsAfter == theirRowsBefore)
        #expect(try kitchen.count("SELECT COUNT(*) FROM item_event WHERE household_id = ?", [them.householdId]) == theirEventsBefore)
        #expect(try kitchen.folder("Fridge", in: them).name == "Fridge")
        #expect(try kitchen.item(ourMilk).folderId == (try kitchen.id(of: "Fridge")))
        #expect(try kitchen.count("SELECT COUNT(*) FROM item WHERE household_id = ?", [us.householdId]) == 2)
    }

    @Test func anotherHouseholdsItemHistoryIsNotFound() throws {
        let kitchen = try Kitchen()
        let grandma = try kitchen.fixture.otherHousehold()
        let theirs = try kitchen.items.register(
            [.named("Their milk")], into: kitchen.folder("Fridge", in: grandma.household).id,
            in: grandma.household, by: grandma.memberId, timeZone: kitchen.utc)[0]
        #expect(try kitchen.items.history(of: theirs, in: grandma.household).count == 1)
        do {
            #expect(throws: InventoryError.notFound) {
                _ = try kitchen.items.history(of: theirs, in: kitchen.household)
            }
        }
    }

    // MARK: - 11. Index use

    /// The list query as `Items.page(of:filter:page:)` builds it, with every filter on.
    private static func listSQL(_ kind: FolderKind, kinds: Int) -> String {
        let conditions = [
            "folder_id = ?", "deleted_at IS NULL",
            "kind IN (\(Array(repeating: "?", count: kinds).joined(separator: ", ")))",
            "status = ?",
            "search_text LIKE ? ESCAPE '\\'",
        ].joined(separator: " AND ")
        let order = kind == .stock ? "due IS NULL, due, name" : "urgent DESC, name"
        return "SELECT * FROM item WHERE \(conditions) ORDER BY \(order) LIMIT ? OFFSET ?"
    }

    @Test(arguments: [(FolderKind.stock, "item_stock_order"), (FolderKind.shopping, "item_shopping_order")])
    func theFilteredListQueryStillWalksItsOrderIndex(kind: FolderKind, index: String) throws {
        let kitchen = try Kitchen()
        for number in 0..<30 {
            try kitchen.add("Thing \(number)", to: kind == .stock ? "Fridge" : "Supermarket") { $0.due = kind == .stock && number % 2 == 0 ? "2026-12-01" : "" }
        }
        let folder = try kitchen.folder(kind == .stock ? "Fridge" : "Supermarket")
        let sql = Self.listSQL(kind, kinds: 2)
        let filterArguments: StatementArguments = [folder.id, "dairy_eggs", "fish", "opened", SearchText.likePattern("milk")]
        let arguments = filterArguments + [ListPage.size, 0]
        let plan = try kitchen.database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plan.contains(index), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "sorts in memory: \(plan)")
        // The SQL above is the query the code runs: same answers.
        let direct = try kitchen.database.writer.read { db in try Item.fetchAll(db, sql: sql, arguments: arguments) }
        let page = try kitchen.items.page(of: folder, filter: ListFilter(text: "milk", kinds: ["dairy_eggs", "fish"], status: "opened"), page: 1)
        #expect(direct == page.items)
        let countPlan = try kitchen.database.writer.read { db in
            let whereClause = sql.components(separatedBy: " WHERE ")[1].components(separatedBy: " ORDER BY ")[0]
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM item WHERE " + whereClause, arguments: filterArguments)
                .map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(countPlan.contains("USING") && countPlan.contains("INDEX"), "the count scans the table: \(countPlan)")
    }
}
