import APIContract
import Foundation
import Inventory

/// What is coming through the API: the use-soon page, the calendar's counts and the meal plan.
extension HouseholdAPI {
    /// The furthest page of use-soon a request may ask for.
    static let useSoonPages = 10_000

    func listUseSoon(_ input: Operations.ListUseSoon.Input) async throws -> Operations.ListUseSoon.Output {
        let holder = try APICaller.current
        let page = input.query.page ?? 1
        guard (1...Self.useSoonPages).contains(page) else { throw APIProblem(.invalid, values: ["reason": "page: 1 to 10000"]) }
        let window = try window(holder)
        let soon = try items.useSoon(in: holder.household, window: window, page: page)
        let (t, zone) = (try Self.catalog, Self.timeZone(holder))
        let entries = { (group: [DueItem]) in group.map { Self.dueItem($0, t, zone) } }
        return .ok(
            .init(
                body: .json(
                    .init(
                        today: window.today.description, expired: entries(soon.expired), dueToday: entries(soon.today), dueSoon: entries(soon.soon),
                        expiredCount: soon.expiredCount, dueTodayCount: soon.todayCount, dueSoonCount: soon.soonCount, page: soon.page,
                        pages: soon.pages))))
    }

    func getCalendar(_ input: Operations.GetCalendar.Input) async throws -> Operations.GetCalendar.Output {
        let holder = try APICaller.current
        guard let month = CalendarMonth(input.query.month) else {
            throw APIProblem(.invalid, values: ["reason": "month: YYYY-MM"])
        }
        let due = try items.dueMonth(in: holder.household, month: month).counts
        let meals = try mealPlan.counts(from: month.first, through: month.last, in: holder.household)
        let days = Set(due.keys).union(meals.keys).sorted().map { day in
            Components.Schemas.CalendarMonth.DaysPayloadPayload(day: day.description, due: due[day] ?? 0, meals: meals[day] ?? 0)
        }
        return .ok(.init(body: .json(.init(month: month.description, days: days))))
    }

    func listMeals(_ input: Operations.ListMeals.Input) async throws -> Operations.ListMeals.Output {
        let holder = try APICaller.current
        let (first, last) = try Self.days(from: input.query.from, to: input.query.to, longest: MealPlan.rangeDays.upperBound)
        let plan = try mealPlan.days(from: first, count: last.days(since: first) + 1, in: holder.household, window: window(holder))
        let meals = plan.days.flatMap(\.meals).map { planned in
            let meal = planned.meal
            return Components.Schemas.Meal(
                id: meal.id.rawValue, day: meal.day.description, slot: .init(rawValue: meal.slot.rawValue) ?? .other, recipeId: meal.recipeId?.rawValue,
                recipeName: planned.recipeName, servings: meal.servings, note: meal.note, state: Self.state(planned.state),
                missing: planned.shortfalls.map(\.ingredientName) + planned.expiredByThen)
        }
        return .ok(.init(body: .json(.init(meals: meals))))
    }

    static func state(_ state: PlannedMeal.State) -> Components.Schemas.Meal.StatePayload {
        switch state {
        case .note: .note
        case .planned: .planned
        case .overdue: .overdue
        case .cooked: .cooked
        case .skipped: .skipped
        case .recipeInTrash: .recipeInTrash
        }
    }
}
