import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// What the household uses and wastes: the ledger the triggers keep on every write to an item,
/// what counts as waste (in the trash while expired, used up after the due date), the use rate,
/// the days what is in stock lasts, and that the ledger outlives the items' history.
@Suite("Household habits")
struct HouseholdHabitsTests: ActingAsOwner {
    let fixture: Fixture
    let utcZone = TimeZone(identifier: "UTC")!

    init() throws {
        // Noon UTC, so a day forward is the next day in every time zone these tests use.
        fixture = try Fixture(clock: ManualClock(utc("2026-11-02T12:00:00Z")))
    }
    var habits: HouseholdHabits { HouseholdHabits(database: fixture.database) }
    var today: CalendarDay { CalendarDay.today(in: utcZone, now: fixture.clock.now) }
    func report(weeks: Int = 1, months: Int = 12) throws -> HabitsReport {
        try habits.report(in: household, now: fixture.clock.now, weeks: weeks, months: months)
    }

    func days(_ count: Int) { fixture.clock.advance(Double(count) * 86_400) }

    /// Registers `name` into the Fridge, due `dueIn` days from today.
    @discardableResult
    func register(_ name: String, quantity: Double = 1, unit: String = "piece", kind: String = "dairy_eggs", dueIn: Int? = nil) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.quantity = Quantity.text(quantity)
        input.unit = unit
        input.kind = kind
        input.due = dueIn.map { today.adding(days: $0).description } ?? ""
        let fridge = try fixture.firstFolder(.stock)
        return try #require(try items.register([input], into: fridge, in: household, by: member, timeZone: utcZone).first)
    }

    func use(_ id: Item.ID, _ amount: Double) throws { try items.adjustQuantity(id, by: -amount, in: household, by: member) }

    func ledger() throws -> [Row] {
        try fixture.database.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM stock_use ORDER BY id") }
    }

    @Test func usedBeforeItsDueDateIsUseNotWaste() throws {
        let milk = try register("Milk", quantity: 2, dueIn: 5)
        days(1)
        try use(milk, 1)
        days(1)
        try use(milk, 1)
        let report = try report()
        #expect(report.topWasted.isEmpty)
        #expect(report.wasteByMonth.allSatisfy { $0.count == 0 })
        #expect(report.products.map(\.name) == ["Milk"])
        #expect(report.products[0].usedPerWeek == 2)
        #expect(report.products[0].daysLeft == 0)
        #expect(try ledger().map { $0["event"] as String } == ["stocked", "used", "used_up"])
    }

    @Test func usedUpAfterItsDueDateIsWastedWithWhatWasLeft() throws {
        let yogurt = try register("Yogurt", quantity: 3, dueIn: 2)
        days(1)
        try use(yogurt, 2)
        // On its due date it is still good; the day after, the last one is thrown out.
        days(1)
        #expect(try report().topWasted.isEmpty)
        days(1)
        try use(yogurt, 1)
        let report = try report()
        #expect(report.topWasted == [WastedProduct(name: "Yogurt", unit: .piece, kind: .dairyEggs, times: 1, quantity: 1)])
        #expect(report.wasteByMonth.last == MonthWaste(month: CalendarMonth(today), count: 1))
        #expect(report.wasteByMonth.count == 12)
        #expect(report.wasteByKind == [KindWaste(kind: .dairyEggs, count: 1)])
        // The two eaten in time are use.
        #expect(report.products.first?.usedPerWeek == 2)
    }

    @Test func theTrashIsWasteOnlyOnceExpired() throws {
        let tofu = try register("Tofu", quantity: 2, kind: "prepared", dueIn: 1)
        let natto = try register("Natto", quantity: 3, kind: "prepared", dueIn: 1)
        try items.trash([natto], in: household, by: member)
        days(2)
        try items.trash([tofu], in: household, by: member)
        let report = try report()
        #expect(report.topWasted == [WastedProduct(name: "Tofu", unit: .piece, kind: .prepared, times: 1, quantity: 2)])
        #expect(report.products.map(\.name) == ["Natto"], "put in the trash before its due date: used up")
        #expect(report.products[0].usedPerWeek == 3)
    }

    @Test func restoringFromTheTrashTakesItsRowBack() throws {
        let cheese = try register("Cheese", dueIn: 1)
        days(3)
        try items.trash([cheese], in: household, by: member)
        #expect(try report().topWasted.count == 1)
        try items.restore([cheese], in: household, by: member)
        #expect(try report().topWasted.isEmpty)
        #expect(try ledger().map { $0["event"] as String } == ["stocked"])
    }

    @Test func anItemDeletedForGoodKeepsItsLedgerRows() throws {
        let cream = try register("Cream", quantity: 2, dueIn: 1)
        try use(cream, 1)
        days(2)
        try items.trash([cream], in: household, by: member)
        try items.purge([cream], in: household)
        let rows = try ledger()
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { ($0["item_id"] as Int64?) == nil })
        // Its history went with it; the ledger still counts it.
        #expect(
            try fixture.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_event WHERE item_id = ?", arguments: [cream]) } == 0)
        #expect(try report().topWasted.map(\.name) == ["Cream"])
    }

    @Test func theUseRateGivesTheDaysWhatIsInStockLasts() throws {
        let rice = try register("Rice", quantity: 20, unit: "kg", kind: "other")
        for _ in 0..<14 {
            days(1)
            try use(rice, 1)
        }
        let report = try report(weeks: 2)
        let product = try #require(report.products.first)
        #expect(product.usedPerWeek == 7)
        #expect(product.inStock == 6)
        #expect(product.daysLeft == 6)
        // A week's rate counts the last seven days only.
        #expect(try self.report(weeks: 1).products.first?.usedPerWeek == 7)
        // Another unit is another product; the name is folded as search folds it.
        try register("ＲＩＣＥ ", quantity: 4, unit: "kg", kind: "other")
        #expect(try self.report(weeks: 2).products.first?.inStock == 10)
    }

    @Test func productsBoughtEveryWeekSayEverySevenDays() throws {
        for _ in 0..<3 {
            let eggs = try register("Eggs", quantity: 6)
            try use(eggs, 6)
            days(7)
        }
        let product = try #require(try report(weeks: 4).products.first)
        #expect(product.boughtEveryDays == 7)
        #expect(product.usedPerWeek == 4.5)
    }

    @Test func theLedgerTakesTheWritesTimeNotTheRealClock() throws {
        let butter = try register("Butter", quantity: 2)
        days(30)
        try use(butter, 1)
        #expect(try ledger().map { $0["at"] as String } == ["2026-11-02T12:00:00Z", "2026-12-02T12:00:00Z"])
    }

    @Test func dueDatesAreComparedWithTheHouseholdsDay() throws {
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE household SET time_zone = 'Asia/Tokyo' WHERE id = ?", arguments: [household.householdId])
        }
        // Due 3 November; at 23:00 in Tokyo that day it is not expired, at 01:00 the next day it is.
        let early = try register("Early", dueIn: 1)
        let late = try register("Late", dueIn: 1)
        fixture.clock.advance(utc("2026-11-03T14:00:00Z").timeIntervalSince(fixture.clock.now))
        try items.trash([early], in: household, by: member)
        fixture.clock.advance(2 * 3600)
        try items.trash([late], in: household, by: member)
        #expect(try report().topWasted.map(\.name) == ["Late"])
    }

    @Test func anotherHouseholdSeesNothing() throws {
        let milk = try register("Milk", dueIn: 1)
        days(2)
        try items.trash([milk], in: household, by: member)
        let other = try fixture.otherHousehold()
        let theirs = try habits.report(in: other.household, now: fixture.clock.now)
        #expect(theirs.topWasted.isEmpty && theirs.products.isEmpty && theirs.wasteByKind.isEmpty)
        #expect(theirs.wasteByMonth.allSatisfy { $0.count == 0 })
        #expect(try report().topWasted.count == 1)
    }

    /// A use written straight into the ledger: no trigger moves the household's change sequence.
    func ledgerUseBehindTheCache(_ name: String, _ quantity: Double) throws {
        try fixture.database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO stock_use (household_id, name, name_folded, unit, kind, quantity, event, at)
                    VALUES (?, ?, lower(?), 'piece', 'dairy_eggs', ?, 'used', ?)
                    """, arguments: [household.householdId, name, name, quantity, Timestamp(fixture.clock.now)])
        }
    }

    @Test func theReportIsKeptUntilTheHouseholdWritesOrTheDayTurns() throws {
        let milk = try register("Milk", quantity: 20, dueIn: 30)
        try use(milk, 1)
        #expect(try report().products.first?.usedPerWeek == 1)
        try ledgerUseBehindTheCache("Milk", 2)
        // Read again the same day with nothing written: the kept report.
        #expect(try report().products.first?.usedPerWeek == 1)
        // Other spans are other reports.
        #expect(try report(weeks: 2).products.first?.usedPerWeek == 1.5)
        // A write to an item moves the household's sequence: read again.
        try use(milk, 1)
        #expect(try report().products.first?.usedPerWeek == 4)
        try ledgerUseBehindTheCache("Milk", 3)
        #expect(try report().products.first?.usedPerWeek == 4)
        // So does the next day.
        fixture.clock.advance(86_400)
        #expect(try report().products.first?.usedPerWeek == 7)
        // Another household's report is its own.
        let other = try fixture.otherHousehold()
        #expect(try habits.report(in: other.household, now: fixture.clock.now).products.isEmpty)
        #expect(try report().products.first?.usedPerWeek == 7)
    }

    @Test func aReportReadInsideAWriteIsNotKept() throws {
        let milk = try register("Milk", quantity: 20, dueIn: 30)
        try use(milk, 1)
        // A write that reads a report and is rolled back leaves nothing behind, though the household's
        // sequence is the same after it.
        struct RolledBack: Error {}
        #expect(throws: RolledBack.self) {
            try fixture.database.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO stock_use (household_id, name, name_folded, unit, kind, quantity, event, at) VALUES (?, 'Tea', 'tea', 'piece', 'other', 1, 'used', ?)",
                    arguments: [household.householdId, Timestamp(fixture.clock.now)])
                let key = HouseholdHabits.ReportKey(
                    today: today, zone: try HouseholdHabits.timeZone(db, household.householdId).identifier, weeks: 1, months: 12)
                let inside = fixture.database.habits.value(
                    db, householdId: household.householdId, version: try ChangeFeed.latest(db, household.householdId), key: key
                ) {
                    HabitsReport(weeks: 1, today: today, products: [], productsInUse: 0, wasteByMonth: [], wasteByKind: [], topWasted: [])
                }
                #expect(inside.products.isEmpty)
                throw RolledBack()
            }
        }
        #expect(try report().products.map(\.name) == ["Milk"])
    }

    @Test func aStockListPutInTheTrashWithItsItemsCountsThemAsTheyLeft() throws {
        let milk = try register("Milk", dueIn: 1)
        let rice = try register("Rice", quantity: 2, unit: "kg", kind: "other", dueIn: 300)
        days(3)
        let fridge = try fixture.firstFolder(.stock)
        try Folders(database: fixture.database, clock: fixture.clock.wall).delete(fridge, in: household, by: member)
        #expect(try ledger().filter { ($0["event"] as String) == "trashed" }.map { $0["item_id"] as Int64 } == [milk.rawValue, rice.rawValue])
        let report = try report()
        #expect(report.topWasted.map(\.name) == ["Milk"])
        #expect(report.products.map(\.name) == ["Rice"])
    }

    func ledgerLines(_ id: Item.ID) throws -> [String] {
        try ledger().filter { ($0["item_id"] as Int64?) == id.rawValue }.map { "\($0["event"] as String) \(Quantity.text($0["quantity"]))" }
    }

    @Test func aPlusTheSameDayTakesBackTheUsesItPutsRight() throws {
        let milk = try register("Milk", quantity: 5, dueIn: 30)
        fixture.clock.advance(3600)
        // − tapped three times, one too many, and + once: two used.
        for _ in 0..<3 { try use(milk, 1) }
        try items.adjustQuantity(milk, by: 1, in: household, by: member)
        #expect(try ledgerLines(milk) == ["stocked 5", "used 1", "used 1"])
        #expect(try report().products.first?.usedPerWeek == 2)
        // More than the day's uses: they are taken back, the rest came in.
        try items.adjustQuantity(milk, by: 3, in: household, by: member)
        #expect(try ledgerLines(milk) == ["stocked 5", "stocked 1"])
        // The next day a + is stock coming in, and yesterday's use stays a use.
        try use(milk, 2)
        days(1)
        try items.adjustQuantity(milk, by: 1, in: household, by: member)
        #expect(try ledgerLines(milk) == ["stocked 5", "stocked 1", "used 2", "stocked 1"])
    }

    @Test func theSpansAreClamped() throws {
        let report = try habits.report(in: household, now: fixture.clock.now, weeks: 10_000, months: -3)
        #expect(report.weeks == HouseholdHabits.weeks.upperBound)
        #expect(report.wasteByMonth.count == 1)
    }

    @Test func theDigestCountsWhatExpiredUnusedThisWeek() throws {
        let old = try register("Old jam", dueIn: 1)
        days(10)
        try items.trash([old], in: household, by: member)
        days(7)
        let milk = try register("Milk", dueIn: 1)
        let eggs = try register("Eggs", quantity: 2, dueIn: 1)
        let bread = try register("Bread", dueIn: 5)
        days(2)
        try items.trash([milk, bread], in: household, by: member)
        try use(eggs, 2)
        let week = try fixture.database.writer.read { db in
            try HouseholdHabits.expiredUnusedThisWeek(db, household.householdId, now: fixture.clock.now)
        }
        // The jam went out more than a week ago; the bread was still good.
        #expect(week == ExpiredUnused(count: 2, names: ["Milk", "Eggs"], products: 2))
    }

    @Test func anUndoneCookIsNoUse() throws {
        let milk = try register("Milk", quantity: 2, dueIn: 5)
        let cooking = Cooking(database: fixture.database, clock: fixture.clock.wall)
        try fixture.database.writer.write { db in
            let recipe = try Recipe.Draft(householdId: household.householdId, name: "Milk jelly").insertAndFetch(db, as: Recipe.self)
            try RecipeIngredient.Draft(householdId: household.householdId, recipeId: recipe.id, position: 0, name: "Milk", amount: 1, unit: "piece").insert(db)
        }
        let recipeId = try fixture.database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM recipe")! }
        days(1)
        let result = try cooking.cook(
            Recipe.ID(recipeId), servings: 1, withWhatWeHave: false, in: household, by: member, window: DueWindow(today: today, soonDays: 3))
        #expect(try ledger().map { $0["event"] as String } == ["stocked", "used"])
        days(1)
        try cooking.undo(result.cookId, in: household, by: member)
        let rows = try ledger()
        #expect(rows.map { $0["event"] as String } == ["stocked"], "\(rows)")
        #expect(try items.item(milk, in: household).quantity == 2)
    }
}

/// The household's day of an instant, across summer time.
@Suite struct LocalDaysTests {
    @Test func theDayFollowsTheZonesOffsetAcrossItsTransitions() {
        var days = LocalDays(zone: TimeZone(identifier: "America/New_York")!)
        // 8 March 2026, 07:00 UTC is 02:00 EST → 03:00 EDT; 04:30 UTC on 9 March is 00:30 EDT, 23:30 EST the day before.
        let instants = ["2026-03-07T04:30:00Z", "2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z", "2026-03-09T04:30:00Z", "2026-11-02T04:30:00Z"]
        let expected = ["2026-03-06", "2026-03-08", "2026-03-08", "2026-03-09", "2026-11-01"]
        #expect(instants.map { days.day(of: Timestamp(utc($0))).description } == expected)
        // Out of order too.
        #expect(days.day(of: Timestamp(utc("2026-03-07T04:30:00Z"))).description == "2026-03-06")
    }

    @Test func midnightIsTheStartOfTheHouseholdsDay() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!, newYork = TimeZone(identifier: "America/New_York")!
        // 01:00 on 3 November in Tokyo; 23:30 on 11 November in New York (EST).
        #expect(LocalDays.midnight(before: Timestamp(utc("2026-11-02T16:00:00Z")), in: tokyo) == Timestamp(utc("2026-11-02T15:00:00Z")))
        #expect(LocalDays.midnight(before: Timestamp(utc("2026-11-12T04:30:00Z")), in: newYork) == Timestamp(utc("2026-11-11T05:00:00Z")))
        #expect(LocalDays.midnight(before: Timestamp(utc("1969-12-31T12:00:00Z")), in: .gmt) == Timestamp(utc("1969-12-31T00:00:00Z")))
    }
}
