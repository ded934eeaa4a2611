import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The household "Home" of `Fixture` with items placed on due dates, for the use-soon page and
/// the calendar.
private struct Pantry {
    let fixture: Fixture
    let owner: SignedIn
    let items: Items

    init() throws {
        fixture = try Fixture()
        owner = try fixture.owner
        items = Items(database: fixture.database, clock: fixture.clock.wall)
    }

    var household: HouseholdScope { owner.household }

    func folderId(_ name: String, in other: HouseholdScope? = nil) throws -> Folder.ID {
        try #require(try items.folders(in: other ?? household).first { $0.name == name }?.id, "no folder \(name)")
    }

    @discardableResult
    func add(_ name: String, due: String?, to folder: String = "Fridge", in other: HouseholdScope? = nil, by memberId: Member.ID? = nil) throws -> Item.ID {
        var input = ItemInput()
        input.name = name
        input.due = due ?? ""
        let home = other ?? household
        return try #require(
            try items.register(
                [input], into: folderId(folder, in: home), in: home, by: memberId ?? owner.memberId, timeZone: .gmt
            ).first)
    }

    func setClock(_ iso: String) throws {
        let target = try #require(Timestamp(iso)?.date)
        fixture.clock.advance(target.timeIntervalSince(fixture.clock.now))
    }

    func household(timeZone: String, dueSoonDays: Int = 3) throws -> Household {
        let settings = HouseholdSettings(database: fixture.database)
        try settings.update(household, name: "Home", timeZone: timeZone, dueSoonDays: "\(dueSoonDays)")
        return try settings.household(household)
    }

    /// The use-soon page as a controller asks for it: the household's window at the clock's now.
    func useSoon(timeZone: String = "UTC", dueSoonDays: Int = 3, page: Int = 1) throws -> UseSoon {
        let window = DueWindow(household: try household(timeZone: timeZone, dueSoonDays: dueSoonDays), now: fixture.clock.now)
        return try items.useSoon(in: household, window: window, page: page)
    }

    /// Dated items the due lists and counts leave out: one in the trash (expired), one on a shopping
    /// list (the app keeps no due date there; one written anyway), and another household's due today.
    func addWhatStaysOut() throws {
        let trashed = try add("Trashed milk", due: "2026-11-21")
        try items.trash([trashed], in: household, by: owner.memberId)
        let listed = try add("Listed eggs", due: nil, to: "Supermarket")
        try fixture.database.writer.write { db in
            try db.execute(sql: "UPDATE item SET due = '2026-11-22' WHERE id = ?", arguments: [listed])
        }
        let grandma = try fixture.otherHousehold()
        try add("Their tofu", due: "2026-11-22", in: grandma.household, by: grandma.memberId)
    }

    func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(text)) }
    func month(_ text: String) throws -> CalendarMonth { try #require(CalendarMonth(text)) }
}

private func names(_ list: [DueItem]) -> [String] { list.map(\.item.name) }

@Suite("Use soon and the calendar")
struct DueTests {
    @Test func groupsExpiredTodayAndSoonAcrossStockFoldersEarliestFirst() throws {
        let pantry = try Pantry()
        try pantry.setClock("2026-11-22T12:00:00Z")
        try pantry.add("Old milk", due: "2026-11-20")
        try pantry.add("Older yogurt", due: "2026-11-02", to: "Freezer")
        try pantry.add("Tofu", due: "2026-11-22", to: "Pantry")
        try pantry.add("Natto", due: "2026-11-25")
        try pantry.add("Eggs", due: "2026-11-24", to: "Freezer")
        try pantry.add("Butter", due: "2026-11-26")
        try pantry.add("Rice", due: nil)

        let result = try pantry.useSoon()
        #expect(names(result.expired) == ["Older yogurt", "Old milk"])
        #expect(names(result.today) == ["Tofu"])
        #expect(names(result.soon) == ["Eggs", "Natto"])
        #expect((result.expiredCount, result.todayCount, result.soonCount) == (2, 1, 2))
        #expect(result.expired.map(\.folderName) == ["Freezer", "Fridge"])
        #expect(result.today.first?.folderName == "Pantry")
        #expect((result.page, result.pages) == (1, 1))
        // A page past the end shows the last one.
        let past = try pantry.useSoon(page: 4)
        #expect(past.page == 1 && names(past.expired + past.today + past.soon) == ["Older yogurt", "Old milk", "Tofu", "Eggs", "Natto"])
    }

    @Test func trashedItemsShoppingListsAndOtherHouseholdsStayOut() throws {
        let pantry = try Pantry()
        try pantry.setClock("2026-11-22T12:00:00Z")
        try pantry.addWhatStaysOut()
        // A folder in the trash takes its items with it.
        try pantry.add("Freezer fish", due: "2026-11-23", to: "Freezer")
        try Folders(database: pantry.fixture.database, clock: pantry.fixture.clock.wall)
            .delete(try pantry.folderId("Freezer"), in: pantry.household, by: pantry.owner.memberId)
        try pantry.add("Kept", due: "2026-11-23")

        let result = try pantry.useSoon()
        #expect(names(result.expired + result.today + result.soon) == ["Kept"])
        #expect(result.total == 1)
        let month = try pantry.items.dueMonth(in: pantry.household, month: try pantry.month("2026-11"), day: try pantry.day("2026-11-22"))
        #expect(month.counts == ["2026-11-23": 1])
        #expect(month.dayItems.isEmpty && month.dayTotal == 0)
    }

    @Test func theWindowIsTheHouseholdsDaysInItsTimeZone() throws {
        let pantry = try Pantry()
        // 00:30 on the 22nd in Tokyo, still the 21st in UTC and in Los Angeles.
        try pantry.setClock("2026-11-21T15:30:00Z")
        try pantry.add("Due 20th", due: "2026-11-20")
        try pantry.add("Due 21st", due: "2026-11-21")
        try pantry.add("Due 22nd", due: "2026-11-22")
        try pantry.add("Due 24th", due: "2026-11-24")
        try pantry.add("Due 25th", due: "2026-11-25")
        try pantry.add("Due 26th", due: "2026-11-26")

        let tokyo = try pantry.useSoon(timeZone: "Asia/Tokyo")
        #expect(names(tokyo.expired) == ["Due 20th", "Due 21st"])
        #expect(names(tokyo.today) == ["Due 22nd"])
        #expect(names(tokyo.soon) == ["Due 24th", "Due 25th"], "the window ends on the 25th, inclusive")

        let utc = try pantry.useSoon(timeZone: "UTC")
        #expect(names(utc.expired) == ["Due 20th"])
        #expect(names(utc.today) == ["Due 21st"])
        #expect(names(utc.soon) == ["Due 22nd", "Due 24th"])

        // A window of 0 days: only what is expired or due today.
        let none = try pantry.useSoon(timeZone: "Asia/Tokyo", dueSoonDays: 0)
        #expect(names(none.today) == ["Due 22nd"] && none.soon.isEmpty && none.expiredCount == 2)

        // Just before midnight in Tokyo the 22nd is not yet today.
        try pantry.setClock("2026-11-21T14:59:59Z")
        let before = try pantry.useSoon(timeZone: "Asia/Tokyo")
        #expect(names(before.today) == ["Due 21st"])
        #expect(names(before.soon) == ["Due 22nd", "Due 24th"])
    }

    @Test func longListsArePagedWithCountsForTheWholeHousehold() throws {
        let pantry = try Pantry()
        try pantry.setClock("2026-11-22T12:00:00Z")
        for index in 0..<60 { try pantry.add(String(format: "Expired %02d", index), due: "2026-11-\(10 + index % 10)") }
        for index in 0..<10 { try pantry.add("Soon \(index)", due: "2026-11-24") }
        // A full first page: the counts come from a second query over the whole window.
        #expect(try pantry.useSoon().total == 70)
        let first = try pantry.useSoon()
        #expect((first.page, first.pages) == (1, 2))
        #expect(first.expired.count == ListPage.size && first.soon.isEmpty)
        #expect((first.expiredCount, first.todayCount, first.soonCount) == (60, 0, 10))
        let second = try pantry.useSoon(page: 2)
        #expect(second.expired.count == 10 && second.soon.count == 10)
        #expect(Set(names(first.expired)).isDisjoint(with: names(second.expired)))
        #expect(try pantry.useSoon(page: 99).page == 2)
    }

    @Test func aFullPagesCountsLeaveOutTheTrashShoppingListsAndOtherHouseholds() throws {
        let pantry = try Pantry()
        try pantry.setClock("2026-11-22T12:00:00Z")
        for index in 0..<ListPage.size { try pantry.add("Expired \(index)", due: "2026-11-\(10 + index % 10)") }
        try pantry.add("Today", due: "2026-11-22", to: "Pantry")
        try pantry.add("Soon", due: "2026-11-25", to: "Freezer")
        try pantry.add("Later", due: "2026-11-26")
        try pantry.add("Undated", due: nil)
        try pantry.addWhatStaysOut()

        let first = try pantry.useSoon()
        #expect(first.expired.count == ListPage.size && (first.page, first.pages) == (1, 2))
        #expect((first.expiredCount, first.todayCount, first.soonCount) == (ListPage.size, 1, 1))
        let second = try pantry.useSoon(page: 2)
        #expect(names(second.today) == ["Today"] && names(second.soon) == ["Soon"])
        // In the trash, a folder takes its items out of the counts too.
        try Folders(database: pantry.fixture.database, clock: pantry.fixture.clock.wall)
            .delete(try pantry.folderId("Freezer"), in: pantry.household, by: pantry.owner.memberId)
        #expect(try pantry.useSoon().soonCount == 0)
    }

    @Test func monthCountsStopAtTheMonthsEdges() throws {
        let pantry = try Pantry()
        try pantry.add("October's last", due: "2026-10-31")
        try pantry.add("First A", due: "2026-11-01")
        try pantry.add("First B", due: "2026-11-01", to: "Pantry")
        try pantry.add("Last", due: "2026-11-30")
        try pantry.add("December's first", due: "2026-12-01")
        try pantry.add("Leap day", due: "2028-02-29")

        let november = try pantry.items.dueMonth(in: pantry.household, month: try pantry.month("2026-11"))
        #expect(november.counts == ["2026-11-01": 2, "2026-11-30": 1])
        #expect(november.day == nil && november.dayItems.isEmpty)
        let february = try pantry.items.dueMonth(in: pantry.household, month: try pantry.month("2028-02"))
        #expect(february.counts == ["2028-02-29": 1])

        let day = try pantry.items.dueMonth(in: pantry.household, month: try pantry.month("2026-11"), day: try pantry.day("2026-11-01"))
        #expect(names(day.dayItems) == ["First A", "First B"])
        #expect(day.dayItems.map(\.folderName) == ["Fridge", "Pantry"])
        #expect(day.dayTotal == 2)
        // A day outside the month still lists its items.
        let outside = try pantry.items.dueMonth(in: pantry.household, month: try pantry.month("2026-11"), day: try pantry.day("2026-12-01"))
        #expect(names(outside.dayItems) == ["December's first"] && outside.dayTotal == 1)
    }

    @Test func calendarMonthsParseAndStep() throws {
        let month = try #require(CalendarMonth("2026-11"))
        #expect(month.first.description == "2026-11-01" && month.last.description == "2026-11-30")
        #expect(month.previous?.description == "2026-10" && month.next?.description == "2026-12")
        #expect(CalendarMonth("2026-12")?.next?.description == "2027-01")
        #expect(CalendarMonth("2026-01")?.previous?.description == "2025-12")
        #expect(CalendarMonth("1900-01")?.previous == nil)
        #expect(CalendarMonth("9999-12")?.next == nil)
        #expect(CalendarMonth("2028-02")?.dayCount == 29 && CalendarMonth("2100-02")?.dayCount == 28)
        for bad in ["2026-13", "2026-00", "2026-1", "26-11", "2026-11-01", "２０２６-11", "abcd-ef", "", "2026/11"] {
            #expect(CalendarMonth(bad) == nil, "\(bad)")
        }
        // Weekdays: 0 is Sunday.
        #expect(try #require(CalendarDay("2026-11-01")).weekday == 0)
        #expect(try #require(CalendarDay("2000-01-01")).weekday == 6)
        #expect(try #require(CalendarDay("1900-01-01")).weekday == 1)
        #expect(try #require(CalendarDay("2028-02-29")).weekday == 2)
    }

    @Test func dueQueriesReadTheDueIndexInOrder() throws {
        let database = try AppDatabase.inMemory()
        let plans = try database.writer.read { db -> [String] in
            func plan(_ sql: String, _ arguments: StatementArguments) throws -> String {
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: " | ")
            }
            return [
                try plan("SELECT i.due, COUNT(*) \(Items.dueRange) GROUP BY i.due", [1, "", "2026-11-25"]),
                try plan("SELECT i.*, f.name AS folder_name \(Items.dueRange) ORDER BY i.due, i.name, i.id LIMIT ? OFFSET ?", [1, "", "2026-11-25", 50, 0]),
            ]
        }
        for plan in plans {
            #expect(plan.contains("USING INDEX item_due ("), "\(plan)")
            #expect(plan.contains("due>? AND due<?"), "not a range seek: \(plan)")
            #expect(plan.contains("INTEGER PRIMARY KEY"), "folder not looked up by id: \(plan)")
        }
        #expect(!plans[0].contains("TEMP B-TREE"), "counts sort in memory: \(plans[0])")
        // Items come in due order from the index; only names within a day are sorted.
        #expect(!plans[1].contains("TEMP B-TREE FOR ORDER BY"), "\(plans[1])")
    }

    @Test func stateCountsReadOnlyEachStockFoldersDueIndex() throws {
        let database = try AppDatabase.inMemory()
        let plan = try database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Items.dueStateCounts, arguments: ["2026-11-22", "2026-11-22", "2026-11-22", 1, "2026-11-25"])
                .map { $0["detail"] as String }.joined(separator: " | ")
        }
        #expect(plan.hasPrefix("SEARCH f USING INDEX folder_order (household_id=?)"), "\(plan)")
        #expect(plan.contains("SEARCH i USING INDEX item_due_by_folder (folder_id=? AND due>? AND due<?)"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }
}
