import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Inventory

/// Each page method reads everything its page shows in one read transaction: one BEGIN, every
/// statement inside it, one COMMIT (so a write in between cannot show half its change).
@Suite("Pages read in one snapshot")
struct OneReadPageTests {
    /// A kitchen whose database logs every statement it runs.
    static func traced() throws -> (RecipeKitchen, RecipesOverviewTests.StatementLog) {
        try RecipesOverviewTests.tracedKitchen()
    }

    /// The statements of one call, which must be one transaction (GRDB's read-only guard,
    /// `PRAGMA query_only`, is set around it).
    static func expectOneTransaction(_ log: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let statements = log.filter { !$0.hasPrefix("PRAGMA") }
        #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1, "\(statements)", sourceLocation: sourceLocation)
        #expect(statements.first?.hasPrefix("BEGIN") == true, "\(statements)", sourceLocation: sourceLocation)
        #expect(statements.last?.hasPrefix("COMMIT") == true, "\(statements)", sourceLocation: sourceLocation)
        #expect(statements.filter { $0.hasPrefix("SELECT") || $0.hasPrefix("WITH") }.count >= 2, "\(statements)", sourceLocation: sourceLocation)
    }

    @Test func useSoonPageReadsTheHouseholdItsItemsAndFoldersInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        try kitchen.add("Milk", due: "2026-11-24")
        _ = log.take()
        let contents = try kitchen.fixture.items.useSoonPage(in: kitchen.household, page: 1, now: kitchen.fixture.clock.now)
        Self.expectOneTransaction(log.take())
        #expect(contents.household.name == "Home")
        #expect(contents.window.today.description == "2026-11-23")
        #expect(contents.useSoon.soon.map(\.item.name) == ["Milk"])
        #expect(contents.folders.contains { $0.kind == .shopping })
    }

    @Test func calendarPageReadsTheMonthTheDayAndFoldersInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        try kitchen.add("Milk", due: "2026-12-02")
        _ = log.take()
        let contents = try kitchen.fixture.items.calendarPage(
            in: kitchen.household, month: CalendarMonth("2026-11"), day: CalendarDay("2026-12-02"), page: 1, now: kitchen.fixture.clock.now)
        Self.expectOneTransaction(log.take())
        // The day shows in its own month, whatever `month` says.
        #expect(contents.month.description == "2026-12")
        #expect(contents.due.counts == ["2026-12-02": 1])
        #expect(contents.due.dayItems.map(\.item.name) == ["Milk"])
        #expect(!contents.folders.isEmpty)
        // Without a day or a month: the household's this month.
        let now = try kitchen.fixture.items.calendarPage(in: kitchen.household, month: nil, day: nil, page: 1, now: kitchen.fixture.clock.now)
        #expect(now.month.description == "2026-11")
    }

    @Test func recipesPageReadsTheOverviewAndTheTrashedRecipeInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        try kitchen.add("Egg", 6)
        try kitchen.recipe("Omelette", [("Egg", 2, nil)])
        let gone = try kitchen.recipe("Pudding", [("Milk", 500, "ml")])
        try kitchen.recipes.trash(gone, in: kitchen.household, by: kitchen.member)
        _ = log.take()
        let contents = try kitchen.recipes.overviewPage(in: kitchen.household, filter: RecipeFilter(), trashed: gone, now: kitchen.fixture.clock.now)
        Self.expectOneTransaction(log.take())
        #expect(contents.overview.recipes.map(\.recipe.name) == ["Omelette"])
        #expect(contents.overview.recipes.first?.readiness == .ready)
        #expect(contents.trashed?.name == "Pudding")
        // A recipe not in the trash is not named.
        let shown = try #require(contents.overview.recipes.first?.recipe.id)
        #expect(
            try kitchen.recipes.overviewPage(in: kitchen.household, filter: RecipeFilter(), trashed: shown, now: kitchen.fixture.clock.now).trashed
                == nil)
    }

    @Test func recipePageReadsTheDetailAndFoldersInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        try kitchen.add("Egg", 1)
        let id = try kitchen.recipe("Omelette", [("Egg", 2, nil)])
        _ = log.take()
        let contents = try kitchen.recipes.recipePage(id, in: kitchen.household, servings: 4, now: kitchen.fixture.clock.now)
        Self.expectOneTransaction(log.take())
        #expect(contents.detail.recipe.name == "Omelette")
        #expect(contents.detail.servings == 4)
        #expect(contents.detail.readiness != .ready)
        #expect(contents.window.today.description == "2026-11-23")
        #expect(contents.folders.contains { $0.kind == .stock } && contents.folders.contains { $0.kind == .shopping })
    }

    @Test func cookPageReadsThePlanTheListsAndTheUncomparableDetailInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        try kitchen.add("Flour", 1, "pack")
        let id = try kitchen.recipe("Bread", [("Flour", 300, "g")], servings: 3)
        let cooking = Cooking(database: kitchen.database, clock: kitchen.fixture.clock.wall)
        _ = log.take()
        let contents = try cooking.cookPage(id, servings: nil, in: kitchen.household, now: kitchen.fixture.clock.now)
        Self.expectOneTransaction(log.take())
        // No servings asked: the recipe's own.
        #expect(contents.plan.servings == 3)
        #expect(contents.shoppingLists.allSatisfy { $0.kind == .shopping } && !contents.shoppingLists.isEmpty)
        #expect(contents.stockLists.allSatisfy { $0.kind == .stock } && !contents.stockLists.isEmpty)
        // A pack does not compare with grams: the detail says what there is.
        #expect(contents.detail?.ingredients.first?.standing == .uncomparable)
    }

    @Test func settingsPageReadsMembersInvitationsPushAndBackupsInOneTransaction() throws {
        let (kitchen, log) = try Self.traced()
        let accounts = kitchen.fixture.accounts
        _ = try accounts.invite(in: kitchen.household, role: .member)
        try PushChannels(database: kitchen.database, clock: kitchen.fixture.clock.wall).save(
            PushChannelInput(url: "https://ntfy.example", topic: "home"), in: kitchen.household)
        let test = try Outbox(database: kitchen.database, clock: kitchen.fixture.clock.wall).enqueueTest(
            in: kitchen.household, title: "Test", body: "Hello")
        _ = log.take()
        let contents = try accounts.settingsPage(in: kitchen.household, testMessage: test)
        Self.expectOneTransaction(log.take())
        #expect(contents.household.name == "Home")
        #expect(contents.members.map(\.login) == ["aki"])
        #expect(contents.invitations.map(\.role) == [.member])
        #expect(contents.pushChannel?.topic == "home")
        #expect(contents.pushStatus != nil)
        #expect(contents.testMessage?.id == test)
        #expect(contents.holdsOnlyHousehold)
        #expect(!contents.shoppingLists.isEmpty)
        // Without a channel there is no status to read.
        try PushChannels(database: kitchen.database, clock: kitchen.fixture.clock.wall).remove(in: kitchen.household)
        let bare = try accounts.settingsPage(in: kitchen.household, testMessage: nil)
        #expect(bare.pushChannel == nil && bare.pushStatus == nil && bare.testMessage == nil)
    }
}
