import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The meal plan: meals reserve the stock in date order, the net list asks for what the range
/// lacks once, cooking from the plan marks the meal and its undo plans it again.
struct MealPlanTests {
    /// Today in `CookKitchen` is Monday 2026-11-23.
    struct Planner {
        let kitchen: CookKitchen
        let plan: MealPlan

        init() throws {
            kitchen = try CookKitchen()
            plan = MealPlan(database: kitchen.database, clock: kitchen.fixture.clock.wall)
        }

        @discardableResult
        func meal(_ day: String, _ recipe: Recipe.ID?, servings: String = "", slot: String = "dinner", note: String = "") throws -> Meal {
            try plan.add(
                MealInput(day: day, slot: slot, recipe: recipe.map { "\($0)" } ?? "", servings: servings, note: note), in: kitchen.household,
                by: kitchen.member, window: kitchen.window)
        }

        /// Each meal of the days as "day slot name: state [short…] [expired…]".
        func week(from day: String = "2026-11-23", days: Int = 7) throws -> [String] {
            try plan.days(from: CalendarDay(day)!, count: days, in: kitchen.household, window: kitchen.window).days.flatMap { day, meals in
                meals.map { planned in
                    let short = planned.shortfalls.map { "\($0.ingredientName) \($0.missing.map(Quantity.text) ?? "?")" }
                    let expired = planned.expiredByThen.map { "expired by then: \($0)" }
                    return (["\(day) \(planned.meal.slot.rawValue) \(planned.recipeName ?? planned.meal.note): \(planned.state)"] + short + expired)
                        .joined(separator: " · ")
                }
            }
        }

        func addMissing(from first: String = "2026-11-23", through last: String = "2026-11-29", to list: Folder.ID? = nil) throws -> [AddedToList] {
            try plan.addMissing(
                from: CalendarDay(first)!, through: CalendarDay(last)!, to: try list ?? kitchen.folder(.shopping), in: kitchen.household,
                by: kitchen.member, window: kitchen.window)
        }

        func shoppingRows() throws -> [String] {
            try kitchen.database.writer.read { db in
                try Item.fetchAll(
                    db,
                    sql: "SELECT i.* FROM item i JOIN folder f ON f.id = i.folder_id WHERE f.kind = 'shopping' AND i.deleted_at IS NULL ORDER BY i.id"
                ).map { "\($0.name) \(Quantity.text($0.quantity)) \($0.unit.rawValue)" }
            }
        }
    }

    @Test func twoMealsThatEachNeedFourOfSixEggsLeaveTheSecondTwoShortAndTheNetListAsksForTwo() throws {
        let planner = try Planner()
        try planner.kitchen.add("Egg", 6)
        let omelette = try planner.kitchen.recipe("Omelette", [("Egg", 4, nil)])
        let tamagoyaki = try planner.kitchen.recipe("Tamagoyaki", [("egg", 4, nil)])
        // Planned out of order: the earlier day reserves first, whatever was planned first.
        try planner.meal("2026-11-25", tamagoyaki)
        try planner.meal("2026-11-24", omelette)

        #expect(
            try planner.week() == [
                "2026-11-24 dinner Omelette: planned",
                "2026-11-25 dinner Tamagoyaki: planned · egg 2",
            ])
        #expect(try planner.addMissing() == [AddedToList(name: "egg", amount: 2, unit: "piece", merged: false)])
        #expect(try planner.shoppingRows() == ["egg 2 piece"])
        // Running it again adds nothing: the list holds the 2 now.
        #expect(try planner.addMissing() == [])
        #expect(try planner.shoppingRows() == ["egg 2 piece"])
    }

    @Test func theNetListCountsEveryShoppingListAndMergesIntoARowOfTheSameNameAndUnit() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let other = try kitchen.makeFolder("Drugstore", .shopping)
        try kitchen.add("Milk", 200, "ml", in: other)
        try kitchen.add("Rice", 1, "kg", kind: .shopping)
        let risotto = try kitchen.recipe("Risotto", servings: 2, [("Rice", 300, "g"), ("Milk", 500, "ml"), ("Parmesan", nil, nil)])
        try planner.meal("2026-11-24", risotto, servings: "4")
        try planner.meal("2026-11-26", risotto)

        // Rice: 600 g + 300 g wanted, 1 kg on a list already. Milk: 1 L + 500 ml, 200 ml on another list.
        #expect(
            try planner.addMissing() == [
                AddedToList(name: "Milk", amount: 1300, unit: "ml", merged: false),
                AddedToList(name: "Parmesan", amount: nil, unit: "piece", merged: false),
            ])
        #expect(try planner.addMissing() == [])
        // Only the days asked for: Tuesday alone needs what the lists hold already.
        #expect(try planner.addMissing(from: "2026-11-24", through: "2026-11-24") == [])
    }

    @Test func stockPastItsDateByTheMealsDayIsNotReservedAndTheMealSaysWhy() throws {
        let planner = try Planner()
        try planner.kitchen.add("Chicken", 500, "g", due: "2026-11-24")
        let curry = try planner.kitchen.recipe("Curry", [("Chicken", 400, "g")])
        try planner.meal("2026-11-24", curry, slot: "lunch")
        try planner.meal("2026-11-26", curry)

        #expect(
            try planner.week() == [
                "2026-11-24 lunch Curry: planned",
                "2026-11-26 dinner Curry: planned · Chicken 400 · expired by then: Chicken",
            ])
    }

    @Test func cookingFromThePlanMarksTheMealAndItsUndoPlansItAgain() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let eggs = try kitchen.add("Egg", 6)
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        let today = try planner.meal("2026-11-23", omelette)
        try planner.meal("2026-11-24", omelette)
        #expect(try planner.week(days: 2) == ["2026-11-23 dinner Omelette: planned", "2026-11-24 dinner Omelette: planned · Egg 2"])

        let cooked = try kitchen.cooking.cook(
            omelette, servings: 2, withWhatWeHave: false, meal: today.id, in: kitchen.household, by: kitchen.member, window: kitchen.window)
        #expect(try kitchen.quantity(eggs) == 2)
        #expect(try planner.plan.meal(today.id, in: kitchen.household).cookId == cooked.cookId)
        #expect(try planner.week(days: 2) == ["2026-11-23 dinner Omelette: cooked", "2026-11-24 dinner Omelette: planned · Egg 2"])

        try kitchen.cooking.undo(cooked.cookId, in: kitchen.household, by: kitchen.member)
        #expect(try kitchen.quantity(eggs) == 6)
        #expect(try planner.plan.meal(today.id, in: kitchen.household).done == nil)
        #expect(try planner.week(days: 2) == ["2026-11-23 dinner Omelette: planned", "2026-11-24 dinner Omelette: planned · Egg 2"])

        // A meal of another recipe is not this cook's: refused, nothing taken.
        let salad = try kitchen.recipe("Salad", [("Lettuce", nil, nil)])
        let before = try kitchen.snapshot()
        #expect(throws: InventoryError.notFound) {
            try kitchen.cooking.cook(
                salad, servings: 2, withWhatWeHave: true, meal: today.id, in: kitchen.household, by: kitchen.member, window: kitchen.window)
        }
        #expect(try kitchen.snapshot() == before)
    }

    /// The reservations are kept between pages until the household's change sequence moves: a
    /// change by any writer (here sqlite3 by hand) to the stock, a recipe or the plan is seen at
    /// once, as is the next day, and a write rolled back never leaves what it read behind.
    @Test func theKeptReservationsFollowEveryWriterAndTheDayAndNeverAWriteRolledBack() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let database = kitchen.database
        let eggs = try kitchen.add("Egg", 6)
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        try planner.meal("2026-11-24", omelette)
        try planner.meal("2026-11-25", omelette)
        #expect(try planner.week() == ["2026-11-24 dinner Omelette: planned", "2026-11-25 dinner Omelette: planned · Egg 2"])
        func byHand(_ sql: String, _ arguments: StatementArguments = []) throws {
            try database.writer.write { db in try db.execute(sql: sql, arguments: arguments) }
        }

        try byHand("UPDATE item SET quantity = 8 WHERE id = ?", [eggs])
        #expect(try planner.week() == ["2026-11-24 dinner Omelette: planned", "2026-11-25 dinner Omelette: planned"])
        try byHand("UPDATE recipe_ingredient SET amount = 5 WHERE recipe_id = ?", [omelette])
        #expect(try planner.week() == ["2026-11-24 dinner Omelette: planned", "2026-11-25 dinner Omelette: planned · Egg 2"])
        try byHand(
            "INSERT INTO meal (household_id, day, slot, recipe_id, servings, created_at, updated_at) VALUES (?, '2026-11-23', 'lunch', ?, 2, ?, ?)",
            [kitchen.household.householdId, omelette, Timestamp(kitchen.fixture.clock.now), Timestamp(kitchen.fixture.clock.now)])
        let three = [
            "2026-11-23 lunch Omelette: planned", "2026-11-24 dinner Omelette: planned · Egg 2", "2026-11-25 dinner Omelette: planned · Egg 5",
        ]
        #expect(try planner.week() == three)

        // In a write that is rolled back, the stock was 100 and the plan read against it; the next
        // committed write reaches the same sequence number with other stock.
        struct RolledBack: Error {}
        #expect(throws: RolledBack.self) {
            try database.writer.write { db in
                try db.execute(sql: "UPDATE item SET quantity = 100 WHERE id = ?", arguments: [eggs])
                let inside = try database.reservations.reservations(db, householdId: kitchen.household.householdId, window: kitchen.window)
                #expect(inside.plans.values.allSatisfy { $0.shortfalls.isEmpty })
                throw RolledBack()
            }
        }
        #expect(try planner.week() == three)
        try byHand("UPDATE item SET quantity = 5 WHERE id = ?", [eggs])
        #expect(
            try planner.week() == [
                "2026-11-23 lunch Omelette: planned", "2026-11-24 dinner Omelette: planned · Egg 5", "2026-11-25 dinner Omelette: planned · Egg 5",
            ])

        // The next day, yesterday's lunch (never answered) reserves nothing.
        let tomorrow = DueWindow(today: CalendarDay("2026-11-24"), soonDays: 3)
        let states = try planner.plan.days(from: CalendarDay("2026-11-23"), count: 3, in: kitchen.household, window: tomorrow).days
            .flatMap(\.meals).map { "\($0.meal.day) \($0.state) \($0.shortfalls.count)" }
        #expect(states == ["2026-11-23 overdue 0", "2026-11-24 planned 0", "2026-11-25 planned 1"])
    }

    /// Placing, moving, cooking or skipping and removing a meal are changes of the household's feed,
    /// so open plan pages follow them, each naming who made it.
    @Test func everyChangeToAMealIsInTheChangeFeedWithWhoMadeIt() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let feed = ChangeFeed(database: kitchen.database)
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        let before = try feed.latestSequence(in: kitchen.household)
        let meal = try planner.meal("2026-11-24", omelette)
        try planner.plan.change(
            meal.id, to: MealInput(day: "2026-11-25", slot: "lunch", recipe: "\(omelette)", servings: "3", note: ""), copy: false,
            in: kitchen.household, by: kitchen.member, window: kitchen.window)
        try planner.plan.mark(meal.id, skipped: true, in: kitchen.household, by: kitchen.member)
        try planner.plan.remove(meal.id, in: kitchen.household, by: kitchen.member)

        guard case .changes(let changes, let latest) = try feed.changes(since: before, in: kitchen.household) else {
            Issue.record("too far behind")
            return
        }
        #expect(changes.map(\.entity) == Array(repeating: .meal(meal.id), count: 4))
        #expect(changes.map(\.kind) == [.created, .changed, .changed, .deleted])
        #expect(changes.allSatisfy { $0.memberId == kitchen.member })
        #expect(latest == before + 4)
    }

    @Test func skippedOverdueAndNoteMealsReserveNothing() throws {
        let planner = try Planner()
        try planner.kitchen.add("Egg", 4)
        let omelette = try planner.kitchen.recipe("Omelette", [("Egg", 4, nil)])
        try planner.meal("2026-11-22", omelette) // yesterday, never cooked
        let skipped = try planner.meal("2026-11-24", omelette)
        try planner.plan.mark(skipped.id, skipped: true, in: planner.kitchen.household, by: planner.kitchen.member)
        try planner.meal("2026-11-25", nil, note: "Eat out")
        try planner.meal("2026-11-26", omelette)

        #expect(
            try planner.week(from: "2026-11-22", days: 5) == [
                "2026-11-22 dinner Omelette: overdue",
                "2026-11-24 dinner Omelette: skipped",
                "2026-11-25 dinner Eat out: note",
                "2026-11-26 dinner Omelette: planned",
            ])
        // Planned again, it comes first and the later one is short.
        try planner.plan.mark(skipped.id, skipped: false, in: planner.kitchen.household, by: planner.kitchen.member)
        #expect(try planner.week(from: "2026-11-24", days: 3).last == "2026-11-26 dinner Omelette: planned · Egg 4")
    }

    @Test func aWeeklyMealIsCopiedToTheWeeksAfterOnceAndMovesAndCopiesKeepTheRest() throws {
        let planner = try Planner()
        let omelette = try planner.kitchen.recipe("Omelette", [("Egg", 4, nil)])
        let meal = try planner.meal("2026-11-24", omelette, servings: "3")
        let household = planner.kitchen.household, member = planner.kitchen.member, window = planner.kitchen.window
        #expect(try planner.plan.repeatWeekly(meal.id, weeks: 3, in: household, by: member, window: window) == 3)
        #expect(try planner.plan.repeatWeekly(meal.id, weeks: 3, in: household, by: member, window: window) == 0)
        let days = try planner.plan.days(from: CalendarDay("2026-11-24"), count: 31, in: household, window: window).days
            .filter { !$0.meals.isEmpty }.map { "\($0.day) \($0.meals.map { "\($0.meal.servings ?? 0)" }.joined())" }
        #expect(days == ["2026-11-24 3", "2026-12-01 3", "2026-12-08 3", "2026-12-15 3"])

        // Copy to Friday's lunch: the meal stays; move it to Saturday: it goes.
        _ = try planner.plan.change(
            meal.id, to: MealInput(day: "2026-11-27", slot: "lunch", servings: "2"), copy: true, in: household, by: member, window: window)
        _ = try planner.plan.change(
            meal.id, to: MealInput(day: "2026-11-28", slot: "dinner", servings: "3"), copy: false, in: household, by: member, window: window)
        #expect(
            try planner.week(from: "2026-11-24", days: 5) == [
                "2026-11-27 lunch Omelette: planned · Egg 4", "2026-11-28 dinner Omelette: planned · Egg 6",
            ])
        #expect(throws: InventoryError.validation(["weeks": .mealWeeksInvalid])) {
            try planner.plan.repeatWeekly(meal.id, weeks: 13, in: household, by: member, window: window)
        }
    }

    /// Meals, recipes and ingredients are decoded by column index: their tables' columns are
    /// those, in that order.
    @Test(arguments: [("meal", Meal.Draft.columns), ("recipe", Recipe.Draft.columns), ("recipe_ingredient", RecipeIngredient.Draft.columns)])
    func theTablesHaveTheColumnsTheirRecordsAreDecodedFromInTheirOrder(_ table: String, _ columns: [String]) throws {
        let database = try AppDatabase.inMemory()
        let found = try database.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String } }
        #expect(found == columns)
    }

    @Test func badInputIsRefusedBesideItsFieldAndNothingIsWritten() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        func refused(_ input: MealInput) -> InventoryError? {
            do {
                _ = try planner.plan.add(input, in: kitchen.household, by: kitchen.member, window: kitchen.window)
                return nil
            } catch let error as InventoryError {
                return error
            } catch {
                return nil
            }
        }
        let id = "\(omelette)"
        #expect(refused(MealInput(day: "2026-02-30", slot: "dinner", recipe: id)) == .validation(["day": .mealDayInvalid]))
        #expect(refused(MealInput(day: "2028-01-01", slot: "dinner", recipe: id)) == .validation(["day": .mealDayInvalid]))
        #expect(refused(MealInput(day: "2026-11-24", slot: "brunch", recipe: id)) == .validation(["slot": .mealSlotInvalid]))
        #expect(refused(MealInput(day: "2026-11-24", slot: "dinner")) == .validation(["recipe": .mealRecipeOrNote]))
        #expect(refused(MealInput(day: "2026-11-24", slot: "dinner", note: String(repeating: "あ", count: 201))) == .validation(["note": .mealNoteTooLong]))
        for servings in ["0", "100", "two", "99999999999999999999999", "-1"] {
            #expect(refused(MealInput(day: "2026-11-24", slot: "dinner", recipe: id, servings: servings)) == .validation(["servings": .mealServingsInvalid]))
        }
        #expect(refused(MealInput(day: "2026-11-24", slot: "dinner", recipe: "99999999999999999999999")) == .notFound)
        let nextDoor = try kitchen.nextDoor()
        let theirs = try kitchen.recipe("Their stew", [("Beef", 1, nil)], in: nextDoor)
        #expect(refused(MealInput(day: "2026-11-24", slot: "dinner", recipe: "\(theirs)")) == .notFound)
        #expect(try planner.week().isEmpty)
        // Full-width digits are servings too.
        #expect(try planner.meal("2026-11-24", omelette, servings: "３").servings == 3)
    }

    @Test func recipesCountWhatThePlanReservesAsNotFreeUnlessThePlanIsIgnored() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        try kitchen.add("Egg", 6)
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        let cake = try kitchen.recipe("Cake", [("Egg", 3, nil)])
        let recipes = Recipes(database: kitchen.database, clock: kitchen.fixture.clock.wall)
        #expect(try recipes.detail(cake, in: kitchen.household, servings: nil, window: kitchen.window).readiness == .ready)

        try planner.meal("2026-11-25", omelette)
        let detail = try recipes.detail(cake, in: kitchen.household, servings: nil, window: kitchen.window)
        #expect(detail.readiness == .missingOne)
        #expect(detail.planReserves)
        #expect(
            try recipes.detail(cake, in: kitchen.household, servings: nil, window: kitchen.window, ignoringPlan: true).readiness == .ready)

        let overview = try recipes.overview(in: kitchen.household, filter: RecipeFilter(), window: kitchen.window)
        #expect(overview.planReserves)
        #expect(overview.recipes.map { "\($0.recipe.name) \($0.readiness)" } == ["Omelette missingOne", "Cake missingOne"].sorted())
        let ignoring = try recipes.overview(in: kitchen.household, filter: RecipeFilter(ignoresPlan: true), window: kitchen.window)
        #expect(ignoring.recipes.allSatisfy { $0.readiness == .ready })
    }

    @Test func theCalendarFeedCarriesThePlanFromAWeekAgoUnlessTheMemberLeavesItOut() throws {
        let planner = try Planner()
        let kitchen = planner.kitchen
        let omelette = try kitchen.recipe("Omelette", [("Egg", 4, nil)])
        try planner.meal("2026-11-10", omelette) // more than a week ago: not in the feed
        try planner.meal("2026-11-20", omelette, slot: "lunch")
        let skipped = try planner.meal("2026-11-24", omelette)
        try planner.plan.mark(skipped.id, skipped: true, in: kitchen.household, by: kitchen.member)
        try planner.meal("2026-11-25", nil, note: "Eat out")
        let feeds = CalendarFeeds(database: kitchen.database, clock: kitchen.fixture.clock.wall)
        let token = try feeds.create(memberId: kitchen.member)
        let meals = try #require(try feeds.feed(token: token)).meals
        #expect(
            meals.map { "\($0.day) \($0.slot.rawValue) \($0.name) \($0.servings.map(String.init) ?? "-")" } == [
                "2026-11-20 lunch Omelette 2", "2026-11-25 dinner Eat out -",
            ])
        #expect(try feeds.includesMeals(memberId: kitchen.member) == true)
        try feeds.setMeals(false, memberId: kitchen.member)
        #expect(try #require(try feeds.feed(token: token)).meals.isEmpty)
        #expect(try feeds.includesMeals(memberId: kitchen.member) == false)
    }
}
