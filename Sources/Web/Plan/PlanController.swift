import Foundation
import HTTPServer
import Inventory

/// The meal plan on the web: a week of days (one per row on a phone, a grid on a desktop), the one
/// form that places a meal, each meal's changes, and the week's shopping. Every form works
/// without JavaScript and comes back at the day it changed.
struct PlanController {
    let plan: MealPlan
    let recipes: Recipes
    let cooking: Cooking
    let settings: HouseholdSettings
    let folders: Items
    let renderer: Renderer
    let clock: WallClock

    /// Recipes offered first in the add form: those that use what is due soon, then those in stock.
    static let suggestionCount = 3

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Plan.path, .signedIn, use: page)
        router.post(Route.Plan.meals, .writer, use: add)
        router.post(Route.Plan.shopping, .writer, use: addMissing)
        router.post(Route.Meal.pattern.path, .writer, use: change)
        router.post(Route.Meal.pattern.repeatWeekly, .writer, use: repeatWeekly)
        router.post(Route.Meal.pattern.skip, .writer, use: skip)
        router.post(Route.Meal.pattern.planAgain, .writer, use: planAgain)
        router.post(Route.Meal.pattern.delete, .writer, use: remove)
    }

    func window(_ member: SignedIn) throws -> DueWindow {
        DueWindow(household: try settings.household(member.household), now: clock.now())
    }

    /// The first day a page shows: `?from=` when it is a day within reach, else today. A page
    /// shows seven days from there (from today: what is planned next, whatever the weekday).
    static func first(_ from: String?, today: CalendarDay) -> CalendarDay {
        let asked = from.flatMap { $0.utf8.count == 10 ? CalendarDay($0) : nil }
        guard let asked, abs(asked.days(since: today)) <= MealPlan.reachDays else { return today }
        return asked
    }

    func page(_ context: RequestContext) throws -> Response {
        try render(context)
    }

    /// The week's page; after a refused form, that form again with what was typed and why.
    func render(
        _ context: RequestContext, form: MealForm? = nil, errors: [String: String] = [:],
        changing: (id: Meal.ID, form: MealForm, errors: [String: String])? = nil, status: Int = 200
    ) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        let window = try window(member)
        let query = context.request.query
        let shown = (changing?.form ?? form).flatMap { CalendarDay($0.shown) }.map(\.description)
        let first = Self.first(shown ?? query["from"], today: window.today)
        let days = try plan.days(from: first, count: 7, in: member.household, window: window)
        // Meals of the week before today nobody answered for, when the page does not show their days.
        let earlier = first <= window.today.adding(days: -1) ? [] : try plan.unanswered(days: 7, in: member.household, window: window)
        // The add form's recipes by name. Suggestions weigh every recipe against the stock (what
        // /recipes reads): only once a day was chosen to add to (`?day=`, the "+ Add" of a day), or
        // when a refused form comes back; the plan's own reservations are the days' business.
        let names = try recipes.names(in: member.household)
        let suggestions =
            form != nil || query["day"] != nil
            ? Array(
                try recipes.overview(in: member.household, filter: RecipeFilter(ignoresPlan: true), window: window).recipes
                    .prefix(Self.suggestionCount).filter { $0.urgency > 0 || $0.readiness == .ready })
            : []
        let lists = try folders.folders(in: member.household).filter { $0.kind == .shopping }
        let cooked = try Int64(query["cooked"] ?? "").map { try cooking.cook(Cook.ID(rawValue: $0), in: member.household) }
        let added = Int(query["added"] ?? "").flatMap { count in
            Folder.ID(query["list"] ?? "").flatMap { id in lists.first { $0.id == id }.map { (count, $0) } }
        }
        let chosenDay = form.map(\.day) ?? query["day"].flatMap { $0.utf8.count == 10 ? CalendarDay($0) : nil }.map(\.description)
        let view = PlanPage(
            first: first, days: days, earlier: earlier, today: window.today, recipes: names, suggestions: suggestions, lists: lists,
            form: form ?? MealForm(day: chosenDay ?? ""),
            errors: errors, changing: changing, cooked: cooked.flatMap { $0.undoneAt == nil ? $0 : nil }, undone: query["undone"] != nil, added: added,
            canWrite: member.role.canWrite, t: t)
        return renderer.response(view, context, status: status)
    }

    /// Where a form sends the person back, at `anchor` (by default the day it changed): the page it
    /// came from (`shown`, its first day; nil: the plan from today) when that page shows `day`, else
    /// the seven days from `day`. The seven days from today are `/plan` itself, the address the
    /// header links to and a phone keeps to read offline.
    static func back(
        to day: CalendarDay?, shown: String?, today: CalendarDay, anchor: String? = nil, _ extra: [String: String] = [:]
    ) -> String {
        var query = extra
        let shownFirst = shown.map { $0.utf8.count == 10 ? CalendarDay($0) : nil } ?? today
        let first = day.map { day in shownFirst.flatMap { (0...6).contains(day.days(since: $0)) ? $0 : nil } ?? day } ?? shownFirst
        if let first, first != today { query["from"] = first.description }
        let text = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let mark = anchor ?? day.map { "day-\($0)" }
        return Route.Plan.path + (text.isEmpty ? "" : "?" + text) + (mark.map { "#" + $0 } ?? "")
    }

    func add(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(MealForm.self)
        do {
            let window = try window(member)
            let meal = try plan.add(form.input, in: member.household, by: member.memberId, window: window)
            return .redirect(to: Self.back(to: meal.day, shown: form.shown, today: window.today))
        } catch InventoryError.validation(let problems) {
            return try render(context, form: form, errors: context.locale.messages(problems), status: 422)
        }
    }

    /// Move (or, with `action=copy`, copy) a meal to the day and meal chosen, with its servings and note.
    func change(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Meal.ID = try context.id()
        let form = try context.form(MealForm.self)
        let window = try window(member)
        do {
            let meal = try plan.change(id, to: form.input, copy: form.action == "copy", in: member.household, by: member.memberId, window: window)
            return .redirect(to: Self.back(to: meal.day, shown: form.shown, today: window.today))
        } catch InventoryError.validation(let problems) {
            // Beside that meal's own form, open, with what was typed.
            return try render(context, changing: (id, form, context.locale.messages(problems)), status: 422)
        } catch InventoryError.conflict {
            // Cooked meanwhile: the page shows it so.
            return .redirect(to: Self.back(to: try plan.meal(id, in: member.household).day, shown: form.shown, today: window.today))
        }
    }

    func repeatWeekly(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Meal.ID = try context.id()
        let form = try context.form(RepeatForm.self)
        let meal = try plan.meal(id, in: member.household)
        // The form offers 1…12 weeks; anything else is not a number of weeks it could send.
        let weeks = form.weeks.utf8.count <= 2 ? Int(form.weeks) ?? 0 : 0
        let window = try window(member)
        do {
            let placed = try plan.repeatWeekly(id, weeks: weeks, in: member.household, by: member.memberId, window: window)
            return .redirect(to: Self.back(to: meal.day, shown: form.shown, today: window.today, ["repeated": "\(placed)"]))
        } catch InventoryError.validation {
            return .redirect(to: Self.back(to: meal.day, shown: form.shown, today: window.today))
        }
    }

    func skip(_ context: RequestContext) throws -> Response { try mark(context, skipped: true) }
    func planAgain(_ context: RequestContext) throws -> Response { try mark(context, skipped: false) }

    func mark(_ context: RequestContext, skipped: Bool) throws -> Response {
        let member = try context.signedIn
        let id: Meal.ID = try context.id()
        let meal = try plan.meal(id, in: member.household)
        do {
            try plan.mark(id, skipped: skipped, in: member.household, by: member.memberId)
        } catch InventoryError.conflict {
            // Cooked meanwhile: the page shows it so.
        }
        return .redirect(to: Self.back(to: meal.day, shown: context.request.form["shown"], today: try window(member).today))
    }

    func remove(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Meal.ID = try context.id()
        let meal = try plan.meal(id, in: member.household)
        try plan.remove(id, in: member.household, by: member.memberId)
        return .redirect(to: Self.back(to: meal.day, shown: context.request.form["shown"], today: try window(member).today))
    }

    /// The week's net shopping onto the chosen list.
    func addMissing(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(PlanShoppingForm.self)
        guard let first = CalendarDay(form.from), let last = CalendarDay(form.through), let list = form.folder else { throw InventoryError.notFound }
        let window = try window(member)
        let added: [AddedToList]
        do {
            added = try plan.addMissing(from: first, through: last, to: list, in: member.household, by: member.memberId, window: window)
        } catch InventoryError.validation {
            throw InventoryError.notFound
        }
        return .redirect(
            to: Self.back(
                to: nil, shown: form.shown.isEmpty ? first.description : form.shown, today: window.today, anchor: "plan-shopping",
                ["added": "\(added.count)", "list": "\(list.rawValue)"]))
    }
}

/// A meal as typed: the add form, and each meal's change form (`action` move or copy).
struct MealForm: Decodable {
    var day = ""
    var slot = "dinner"
    var recipe = ""
    var servings = ""
    var note = ""
    var action = ""
    /// The first day of the page the form is on: the answer goes back to it.
    var shown = ""

    var input: MealInput { MealInput(day: day, slot: slot, recipe: recipe, servings: servings, note: note) }
}

struct RepeatForm: Decodable {
    var weeks = ""
    var shown = ""
}

struct PlanShoppingForm: Decodable {
    var from = ""
    var through = ""
    var folder: Folder.ID?
    var shown = ""
}
