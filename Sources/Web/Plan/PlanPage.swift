import Foundation
import Inventory

/// A week of the meal plan: for each day its meals with how each stands against the stock (in
/// stock, what is short, what will be past its date by then), what can be done with each, and
/// the one form that places a meal.
struct PlanPage: CompiledPage {
    struct Day: Sendable {
        let anchor: String
        let heading: String
        let isToday: Bool
        let meals: [MealView]
        let addHref: String
    }

    struct MealView: Sendable {
        /// For a meal shown apart from its day (an earlier one still to answer): the day.
        var dayLabel: String? = nil
        let id: String
        let anchor: String
        let stateClass: String
        let slot: String
        let name: String
        /// The recipe's page, for a meal of a recipe.
        let href: String?
        let servings: String?
        let note: String?
        let covered: Bool
        let short: String?
        let expired: String?
        let overdue: Bool
        let cooked: Bool
        let skipped: Bool
        let inTrash: Bool
        /// The cook page for this meal, while it can be cooked.
        let cookHref: String?
        let canPlanAgain: Bool
        /// The change form: open after a refused change, with what was typed and why.
        let open: Bool
        let dayValue: String
        let slots: [Choice]
        let hasRecipe: Bool
        let servingsValue: String
        let noteValue: String
        let servingsError: String?
        let dayError: String?
        let noteError: String?
        let today: String
        let canMove: Bool
    }

    struct Notice: Sendable {
        let text: String
        /// The cook to undo, for "Cooked …".
        let undoAction: String?
        let href: String?
    }

    let weekTitle: String
    let previous: String
    let next: String
    let thisWeek: String?
    let here: String
    /// The first day shown, carried by every form so its answer comes back to this page.
    let shown: String
    let notice: Notice?
    let canWrite: Bool
    let days: [Day]
    /// Meals of the last days nobody said were cooked or skipped: asked about first.
    let earlier: [MealView]
    let earlierHeading: String
    // The shown days' shopping (from today on).
    let hasDaysToCome: Bool
    let from: String
    let through: String
    let shoppingLabel: String
    let lists: [Choice]
    // The add form.
    let addDay: String
    let addSlots: [Choice]
    let suggested: [Choice]
    let allRecipes: [Choice]
    let noteChosen: Bool
    let servingsValue: String
    let noteValue: String
    let dayError: String?
    let slotError: String?
    let recipeError: String?
    let servingsError: String?
    let noteError: String?
    let hasErrors: Bool

    func title(_ t: Catalog) -> String { t[.planHeading] }

    var hasLists: Bool { !lists.isEmpty }
    var hasEarlier: Bool { !earlier.isEmpty }
    var hasSuggested: Bool { !suggested.isEmpty }

    init(
        first: CalendarDay, days plan: PlanDays, earlier overdue: [PlannedMeal], today: CalendarDay, recipes: [(id: Recipe.ID, name: String)],
        suggestions: [RecipeSummary], lists: [Folder], form: MealForm,
        errors: [String: String], changing: (id: Meal.ID, form: MealForm, errors: [String: String])?, cooked: Cook?, undone: Bool,
        added: (Int, Folder)?, canWrite: Bool, t: Catalog
    ) {
        let last = first.adding(days: 6)
        let weekdays = t[.calendarWeekdaysShort].split(separator: ",").map(String.init)
        let months = t[.householdMonthsShort].split(separator: ",").map(String.init)
        /// "Sat, Nov 28" / 「11月28日（土）」: a day of the week shown, its year in the title.
        func dayName(_ day: CalendarDay) -> String {
            t.format(
                .planDay,
                [
                    "weekday": weekdays.count == 7 ? weekdays[day.weekday] : "", "month": months.count == 12 ? months[day.month - 1] : "\(day.month)",
                    "day": "\(day.day)",
                ])
        }
        weekTitle = t.format(.planWeek, ["first": DisplayFormat.day(first, locale: t), "last": DisplayFormat.day(last, locale: t)])
        previous = Route.Plan.path + "?from=\(first.adding(days: -7))"
        next = Route.Plan.path + "?from=\(first.adding(days: 7))"
        thisWeek = first == today ? nil : Route.Plan.path
        here = Route.Plan.path + "?from=\(first)"
        shown = first.description
        self.canWrite = canWrite
        // Words every meal repeats, looked up once a page.
        let slotNames = Dictionary(uniqueKeysWithValues: MealSlot.allCases.map { ($0, t[.planSlot, $0]) })
        var servingsTexts: [Int: String] = [:]
        func servingsText(_ count: Int) -> String {
            if let text = servingsTexts[count] { return text }
            let text = t.count(.planServings, count)
            servingsTexts[count] = text
            return text
        }
        func slotChoices(_ chosen: String) -> [Choice] {
            MealSlot.allCases.map { Choice(value: $0.rawValue, label: slotNames[$0] ?? "", selected: $0.rawValue == chosen) }
        }
        func shortText(_ shortfalls: [Shortfall]) -> String? {
            guard !shortfalls.isEmpty else { return nil }
            let items = shortfalls.map { short in
                short.missing.map { "\(short.ingredientName) \(t.quantity($0, unit: (short.unit ?? .piece).rawValue))" } ?? short.ingredientName
            }
            return t.format(.planShort, ["list": items.joined(separator: t[.cookListSeparator])])
        }
        func view(_ planned: PlannedMeal) -> MealView {
            let meal = planned.meal
            let state = planned.state
            let mine = changing.flatMap { $0.id == meal.id ? $0 : nil }
            let canCook = (state == .planned || state == .overdue) && meal.recipeId != nil
            return MealView(
                id: "\(meal.id.rawValue)", anchor: "meal-\(meal.id.rawValue)", stateClass: "meal-\(Self.stateName(state))", slot: slotNames[meal.slot] ?? "",
                name: planned.recipeName ?? meal.note, href: meal.recipeId.map { Route.recipe($0).path },
                servings: meal.servings.map(servingsText), note: planned.recipeName == nil || meal.note.isEmpty ? nil : meal.note,
                covered: planned.isCovered, short: state == .planned ? shortText(planned.shortfalls) : nil,
                expired: planned.expiredByThen.isEmpty
                    ? nil : t.format(.planExpiredByThen, ["list": planned.expiredByThen.joined(separator: t[.cookListSeparator])]),
                overdue: state == .overdue, cooked: state == .cooked, skipped: state == .skipped, inTrash: state == .recipeInTrash,
                cookHref: canCook
                    ? meal.recipeId.map { Route.recipe($0).cook + "?servings=\(meal.servings ?? 1)&meal=\(meal.id.rawValue)" } : nil,
                canPlanAgain: state == .skipped, open: mine != nil, dayValue: mine?.form.day ?? meal.day.description,
                slots: slotChoices(mine?.form.slot ?? meal.slot.rawValue), hasRecipe: meal.recipeId != nil,
                servingsValue: mine?.form.servings ?? meal.servings.map(String.init) ?? "", noteValue: mine?.form.note ?? meal.note,
                servingsError: mine?.errors["servings"], dayError: mine?.errors["day"], noteError: mine?.errors["note"],
                today: today.description, canMove: state != .cooked)
        }
        self.days = plan.days.map { day, meals in
            Day(
                anchor: "day-\(day)", heading: dayName(day), isToday: day == today,
                meals: meals.map { view($0) }, addHref: Route.Plan.path + "?from=\(first)&day=\(day)#add")
        }
        earlier = overdue.map { planned in
            var meal = view(planned)
            meal.dayLabel = dayName(planned.meal.day)
            return meal
        }
        earlierHeading = t.count(.planEarlierHeading, overdue.count)
        from = max(first, today).description
        through = last.description
        shoppingLabel = t.format(
            .planShoppingLabel, ["first": dayName(max(first, today)), "last": dayName(last)])
        self.lists = lists.enumerated().map { Choice(value: "\($1.id.rawValue)", label: displayName($1, t), selected: $0 == 0) }
        addDay = form.day.isEmpty ? max(first, today).description : form.day
        hasDaysToCome = last >= today
        addSlots = slotChoices(form.slot)
        let chosen = Int64(form.recipe).map(Recipe.ID.init(rawValue:))
        suggested = suggestions.map { summary in
            Choice(value: "\(summary.recipe.id.rawValue)", label: Self.suggestionLabel(summary, t), selected: summary.recipe.id == chosen)
        }
        let suggestedIds = Set(suggestions.map(\.recipe.id))
        allRecipes = recipes.map { recipe in
            Choice(value: "\(recipe.id.rawValue)", label: recipe.name, selected: recipe.id == chosen && !suggestedIds.contains(recipe.id))
        }
        noteChosen = form.recipe.isEmpty && !form.note.isEmpty
        servingsValue = form.servings
        noteValue = form.note
        dayError = errors["day"]
        slotError = errors["slot"]
        recipeError = errors["recipe"]
        servingsError = errors["servings"]
        noteError = errors["note"]
        hasErrors = !errors.isEmpty
        if let cooked {
            notice = Notice(
                text: t.format(.planCookedNotice, ["name": cooked.recipeName]), undoAction: Route.cook(cooked.id).undo, href: nil)
        } else if undone {
            notice = Notice(text: t[.planUndone], undoAction: nil, href: nil)
        } else if let (count, list) = added {
            let name = displayName(list, t)
            notice = Notice(
                text: count == 0 ? t.format(.planAddedNone, ["list": name]) : t.count(.planAdded, count, ["list": name]), undoAction: nil,
                href: Route.folder(list.id).path)
        } else {
            notice = nil
        }
    }

    static func stateName(_ state: PlannedMeal.State) -> String {
        switch state {
        case .note: "note"
        case .planned: "planned"
        case .overdue: "overdue"
        case .cooked: "cooked"
        case .skipped: "skipped"
        case .recipeInTrash: "in-trash"
        }
    }

    /// "Curry · uses Milk soon" / "Omelette · in stock".
    static func suggestionLabel(_ summary: RecipeSummary, _ t: Catalog) -> String {
        if summary.urgency > 0, !summary.useSoon.isEmpty {
            return t.format(.planSuggestUsesSoon, ["name": summary.recipe.name, "list": summary.useSoon.joined(separator: t[.cookListSeparator])])
        }
        return t.format(.planSuggestInStock, ["name": summary.recipe.name])
    }
}
