import Foundation
import GRDB

/// The household's meal plan: its days' meals, what they reserve of the stock, the one net
/// shopping list for a range of days, and what became of each meal. Every method takes the
/// session's `HouseholdScope`; a meal, recipe or list of another household is `.notFound`.
public struct MealPlan: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// How far back and ahead of today a meal may be placed.
    public static let reachDays = 366
    /// The most servings a meal is planned for (as the cook page's stepper).
    public static let servingsRange = 1...99
    public static let noteLimit = 200
    /// A weekly meal is copied this many weeks ahead at most.
    public static let repeatWeeks = 1...12
    /// The most days one page or one net list covers.
    public static let rangeDays = 1...31

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    func stamp() -> Timestamp { Timestamp(clock.now()) }

    // MARK: Reading

    /// The meals of `count` days from `first`, each with how it stands: planned meals against the
    /// stock their earlier meals (from today on, in date order) left.
    public func days(from first: CalendarDay, count: Int, in scope: HouseholdScope, window: DueWindow) throws -> PlanDays {
        let count = min(max(count, Self.rangeDays.lowerBound), Self.rangeDays.upperBound)
        let last = first.adding(days: count - 1)
        return try database.writer.read { db in
            let reservations =
                last < window.today ? .empty : try database.reservations.reservations(db, householdId: scope.householdId, window: window)
            let rows = try Row.fetchAll(db.cachedStatement(sql: Self.daysSQL), arguments: [scope.householdId, first, last])
            var byDay: [CalendarDay: [PlannedMeal]] = [:]
            for row in rows {
                let meal = try Meal(row: row)
                byDay[meal.day, default: []].append(Self.planned(meal, row: row, reservations: reservations, window: window))
            }
            return PlanDays(
                days: (0..<count).map { offset in
                    let day = first.adding(days: offset)
                    return (day, byDay[day] ?? [])
                })
        }
    }

    /// The meals of the days before today, back to `days` ago, that nobody said were cooked or
    /// skipped (their recipe not in the trash): the plan page asks about them first.
    public func unanswered(days: Int, in scope: HouseholdScope, window: DueWindow) throws -> [PlannedMeal] {
        try database.writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: Self.unansweredSQL),
                arguments: [scope.householdId, window.today.adding(days: -days), window.today.adding(days: -1)]
            ).map { row in Self.planned(try Meal(row: row), row: row, reservations: .empty, window: window) }
        }
    }

    /// The meals of a household from one day through another (the arguments), in the plan's order,
    /// with their recipe's name and whether it is in the trash.
    static let daysSQL = daysSQL(where: "")
    static let unansweredSQL = daysSQL(where: "AND m.done IS NULL AND m.recipe_id IS NOT NULL AND r.deleted_at IS NULL")

    private static func daysSQL(where condition: String) -> String {
        """
        SELECT m.*, r.name AS recipe_name, r.deleted_at IS NOT NULL AS recipe_in_trash FROM meal m
        LEFT JOIN recipe r ON r.id = m.recipe_id
        WHERE m.household_id = ? AND m.day >= ? AND m.day <= ? \(condition)
        ORDER BY m.day, \(MealSlot.orderSQL.replacingOccurrences(of: "slot", with: "m.slot")), m.position, m.id
        """
    }

    static func planned(_ meal: Meal, row: Row, reservations: MealReservations, window: DueWindow) -> PlannedMeal {
        // After the meal's columns (`daysSQL`).
        let recipeName: String? = row[Meal.Draft.columns.count]
        let state: PlannedMeal.State
        switch meal.done {
        case .cooked?: state = .cooked
        case .skipped?: state = .skipped
        case nil:
            if meal.recipeId == nil {
                state = .note
            } else if row[Meal.Draft.columns.count + 1] == true {
                state = .recipeInTrash
            } else {
                state = meal.day < window.today ? .overdue : .planned
            }
        }
        let plan = state == .planned ? reservations.plans[meal.id] : nil
        return PlannedMeal(
            meal: meal, recipeName: meal.recipeId == nil ? nil : recipeName, state: state, shortfalls: plan?.shortfalls ?? [],
            expiredByThen: plan?.expiredByThen ?? [])
    }

    /// How many meals each day from `first` through `last` has (days without any are left out).
    public func counts(from first: CalendarDay, through last: CalendarDay, in scope: HouseholdScope) throws -> [CalendarDay: Int] {
        try database.writer.read { db in
            var counts: [CalendarDay: Int] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT day, COUNT(*) FROM meal WHERE household_id = ? AND day >= ? AND day <= ? GROUP BY day",
                arguments: [scope.householdId, first, last])
            while let row = try rows.next() { counts[try row.decode(atIndex: 0)] = row[1] }
            return counts
        }
    }

    /// One meal of the household.
    public func meal(_ id: Meal.ID, in scope: HouseholdScope) throws -> Meal {
        try database.writer.read { db in try Self.meal(db, id, scope.householdId) }
    }

    static func meal(_ db: Database, _ id: Meal.ID, _ householdId: Household.ID) throws -> Meal {
        guard let meal = try Meal.fetchOne(db, sql: "SELECT * FROM meal WHERE id = ? AND household_id = ?", arguments: [id, householdId]) else {
            throw InventoryError.notFound
        }
        return meal
    }

    // MARK: Placing meals

    /// A meal checked: every problem by field (`day`, `slot`, `recipe`, `servings`, `note`).
    struct Checked {
        let day: CalendarDay
        let slot: MealSlot
        let recipe: Recipe?
        let servings: Int?
        let note: String
    }

    static func check(_ input: MealInput, _ db: Database, householdId: Household.ID, window: DueWindow) throws -> Checked {
        var problems: [String: FieldProblem] = [:]
        let day = CalendarDay(input.day.trimmingCharacters(in: .whitespaces))
        if day == nil || abs(day!.days(since: window.today)) > reachDays { problems["day"] = .mealDayInvalid }
        let slot = MealSlot(rawValue: input.slot)
        if slot == nil { problems["slot"] = .mealSlotInvalid }
        let note = input.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if note.count > noteLimit { problems["note"] = .mealNoteTooLong }
        var recipe: Recipe?
        let recipeText = input.recipe.trimmingCharacters(in: .whitespaces)
        if !recipeText.isEmpty {
            guard recipeText.utf8.count <= 18, let id = Int64(recipeText),
                let found = try Recipe.fetchOne(
                    db, sql: "SELECT * FROM recipe WHERE id = ? AND household_id = ? AND deleted_at IS NULL", arguments: [id, householdId])
            else { throw InventoryError.notFound }
            recipe = found
        } else if note.isEmpty, problems["note"] == nil {
            problems["recipe"] = .mealRecipeOrNote
        }
        var servings: Int?
        if let recipe {
            let text = input.servings.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                servings = min(max(recipe.servings, servingsRange.lowerBound), servingsRange.upperBound)
            } else if text.utf8.count <= 4, let value = Int(text), servingsRange.contains(value) {
                servings = value
            } else {
                problems["servings"] = .mealServingsInvalid
            }
        }
        guard problems.isEmpty, let day, let slot else { throw InventoryError.validation(problems) }
        return Checked(day: day, slot: slot, recipe: recipe, servings: servings, note: note)
    }

    /// Places a new meal, last in its day's slot.
    @discardableResult
    public func add(_ input: MealInput, in scope: HouseholdScope, by memberId: Member.ID, window: DueWindow) throws -> Meal {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let checked = try Self.check(input, db, householdId: scope.householdId, window: window)
            return try Self.insert(checked, db, householdId: scope.householdId, seriesId: nil, by: memberId, at: time)
        }
    }

    static func insert(_ checked: Checked, _ db: Database, householdId: Household.ID, seriesId: Meal.ID?, by memberId: Member.ID, at time: Timestamp)
        throws -> Meal
    {
        let position = try nextPosition(db, householdId, checked.day, checked.slot)
        return try Meal.Draft(
            householdId: householdId, day: checked.day, slot: checked.slot, position: position, recipeId: checked.recipe?.id,
            servings: checked.servings, note: checked.note, seriesId: seriesId, cookId: nil, done: nil, memberId: memberId, createdAt: time,
            updatedAt: time
        ).insertAndFetch(db, as: Meal.self)
    }

    static func nextPosition(_ db: Database, _ householdId: Household.ID, _ day: CalendarDay, _ slot: MealSlot) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM meal WHERE household_id = ? AND day = ? AND slot = ?",
            arguments: [householdId, day, slot]) ?? 0
    }

    /// Moves a meal to another day or meal with new servings or note (`copy`: places a copy there
    /// instead, the meal staying as it was). A moved meal that was skipped or whose day had passed
    /// is planned again; a cooked one cannot move (its copy can be placed).
    @discardableResult
    public func change(_ id: Meal.ID, to input: MealInput, copy: Bool, in scope: HouseholdScope, by memberId: Member.ID, window: DueWindow) throws
        -> Meal
    {
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            var meal = try Self.meal(db, id, scope.householdId)
            var input = input
            if let recipeId = meal.recipeId { input.recipe = "\(recipeId)" } else { input.recipe = "" }
            let checked = try Self.check(input, db, householdId: scope.householdId, window: window)
            if copy { return try Self.insert(checked, db, householdId: scope.householdId, seriesId: nil, by: memberId, at: time) }
            guard meal.done != .cooked else { throw InventoryError.conflict }
            if meal.day != checked.day || meal.slot != checked.slot {
                meal.position = try Self.nextPosition(db, scope.householdId, checked.day, checked.slot)
            }
            meal.day = checked.day
            meal.slot = checked.slot
            meal.servings = checked.servings
            meal.note = checked.note
            meal.done = nil
            meal.updatedAt = time
            try meal.update(db)
            return meal
        }
    }

    /// Plans the meal on the same weekday for `weeks` weeks after it (those weeks that have it
    /// already are left as they are); returns how many meals it placed.
    @discardableResult
    public func repeatWeekly(_ id: Meal.ID, weeks: Int, in scope: HouseholdScope, by memberId: Member.ID, window: DueWindow) throws -> Int {
        guard Self.repeatWeeks.contains(weeks) else { throw InventoryError.validation(["weeks": .mealWeeksInvalid]) }
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            var meal = try Self.meal(db, id, scope.householdId)
            let series = meal.seriesId ?? meal.id
            if meal.seriesId == nil {
                meal.seriesId = series
                try meal.update(db)
            }
            var placed = 0
            for week in 1...weeks {
                let day = meal.day.adding(days: 7 * week)
                guard day.days(since: window.today) <= Self.reachDays else { break }
                let planned =
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM meal WHERE household_id = ? AND series_id = ? AND day = ?)",
                        arguments: [scope.householdId, series, day]) ?? false
                if planned { continue }
                let position = try Self.nextPosition(db, scope.householdId, day, meal.slot)
                try Meal.Draft(
                    householdId: scope.householdId, day: day, slot: meal.slot, position: position, recipeId: meal.recipeId, servings: meal.servings,
                    note: meal.note, seriesId: series, cookId: nil, done: nil, memberId: memberId, createdAt: time, updatedAt: time
                ).insert(db)
                placed += 1
            }
            return placed
        }
    }

    /// Takes a meal off the plan (a cooked meal's cook stays in the stock's history).
    public func remove(_ id: Meal.ID, in scope: HouseholdScope, by memberId: Member.ID) throws {
        try database.write(by: memberId, at: stamp()) { db in
            let meal = try Self.meal(db, id, scope.householdId)
            try meal.delete(db)
        }
    }

    /// Says a meal was not cooked and will not be (`skipped`), or plans it again (`nil`).
    public func mark(_ id: Meal.ID, skipped: Bool, in scope: HouseholdScope, by memberId: Member.ID) throws {
        let time = stamp()
        try database.write(by: memberId, at: time) { db in
            var meal = try Self.meal(db, id, scope.householdId)
            guard meal.done != .cooked else { throw InventoryError.conflict }
            meal.done = skipped ? .skipped : nil
            meal.updatedAt = time
            try meal.update(db)
        }
    }

    // MARK: The net list

    /// Puts on a shopping list what the meals from `first` through `last` lack: each meal's
    /// shortfall after the stock and after what earlier meals (from today on) reserve, added
    /// together by name, less what every shopping list of the household holds of it already,
    /// merged into a row of the same name and unit on `list`. Running it again adds nothing.
    public func addMissing(
        from first: CalendarDay, through last: CalendarDay, to listId: Folder.ID, in scope: HouseholdScope, by memberId: Member.ID, window: DueWindow
    ) throws -> [AddedToList] {
        guard first <= last, last.days(since: first) < Self.rangeDays.upperBound else { throw InventoryError.validation(["last": .mealDayInvalid]) }
        let time = stamp()
        return try database.write(by: memberId, at: time) { db in
            let list = try Items.folder(db, listId, scope.householdId)
            guard list.kind == .shopping else { throw InventoryError.validation(["folder": .folderNotShopping]) }
            let reservations = try database.reservations.reservations(db, householdId: scope.householdId, window: window)
            let shortfalls = reservations.meals.filter { $0.day >= first && $0.day <= last }.flatMap { reservations.plans[$0.id]?.shortfalls ?? [] }
            let lists = try Folder.ID.fetchAll(
                db, sql: "SELECT id FROM folder WHERE household_id = ? AND kind = 'shopping' AND deleted_at IS NULL", arguments: [scope.householdId])
            return try Cooking.putOnList(WantedOnList.lines(shortfalls), list, counting: lists, db, by: memberId, at: time)
        }
    }
}
