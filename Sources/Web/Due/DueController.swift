import Foundation
import HTTPServer
import Inventory

/// Pages of stock items by due date across folders: what to use soon, and a month calendar.
/// Their rows are the stock list's rows (with the folder named) and their quick actions post to
/// the list's routes, which come back here through `return`.
struct DueController {
    let items: Items
    let plan: MealPlan
    let renderer: Renderer
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.soon, .signedIn, use: useSoonPage)
        router.post(Route.soonBulk, .writer, use: bulk)
        router.get(Route.calendar, .signedIn, use: calendarPage)
    }

    func useSoonPage(_ context: RequestContext) throws -> Response {
        renderer.response(try useSoon(context), context)
    }

    /// The bulk bar of Use soon: the ticked rows may come from several folders.
    func bulk(_ context: RequestContext) throws -> Response {
        try BulkActions(items: items).answer(context, back: context.returnPath(fallback: Route.soon), shoppingList: nil)
    }

    func calendarPage(_ context: RequestContext) throws -> Response {
        renderer.response(try calendar(context), context)
    }

    /// What every row on these pages shares, and the household's shopping lists among `folders`
    /// (for "buy again" and the notice after it).
    func rowContext(_ context: RequestContext, folders: [Folder], selectable: Bool = false) throws -> (RowContext, [Folder]) {
        let member = try context.signedIn
        let shopping = folders.filter { $0.kind == .shopping }
        let shared = RowContext(
            canWrite: member.role.canWrite, isStock: true, hasShoppingLists: !shopping.isEmpty,
            selectable: selectable, t: context.locale)
        return (shared, shopping)
    }

    static func link(_ path: String, _ query: [(String, String)]) -> String {
        var components = URLComponents()
        components.path = path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.string ?? path
    }

    // MARK: - Use soon

    func useSoon(_ context: RequestContext) throws -> UseSoonPage {
        let member = try context.signedIn
        let t = context.locale
        let requested = Int(context.request.query["page"] ?? "") ?? 1
        let contents = try items.useSoonPage(in: member.household, page: requested, now: clock.now())
        let (household, window, result, folders) = (contents.household, contents.window, contents.useSoon, contents.folders)
        // Use soon's rows carry checkboxes for its bulk bar.
        var (shared, shopping) = try rowContext(context, folders: folders, selectable: true)
        shared.recipesLink = true
        func here(_ page: Int) -> String { Self.link(Route.soon, page > 1 ? [("page", "\(page)")] : []) }
        func rows(_ list: [DueItem]) -> [ItemRowView] {
            list.map { ItemRowView($0.item, window: window, t: t, urls: renderer.staticURLs, folder: folderName($0, t)) }
        }
        let groups = [
            UseSoonPage.Group(state: "expired", heading: t[.soonExpired], count: result.expiredCount, rows: rows(result.expired)),
            UseSoonPage.Group(state: "today", heading: t[.soonToday], count: result.todayCount, rows: rows(result.today)),
            UseSoonPage.Group(state: "soon", heading: t.count(.soonSoon, household.dueSoonDays), count: result.soonCount, rows: rows(result.soon)),
        ].filter { !$0.rows.isEmpty }
        let notice = Notices.placed(context.request.query, rows: groups.flatMap(\.rows), folders: shopping, t: t)
        return UseSoonPage(
            groups: groups, shared: shared, here: here(result.page),
            summary: t.count(.itemCount, result.total),
            empty: household.dueSoonDays == 0 ? t[.soonEmptyToday] : t.count(.soonEmpty, household.dueSoonDays),
            pager: Pager(page: result.page, of: result.pages, t: t, link: here),
            notice: notice.top, undoIds: notice.undoIds, rowNotice: notice.row,
            moveTargets: folders.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: false) },
            shoppingTargets: shopping.map { Choice(value: "\($0.id)", label: displayName($0, t), selected: false) })
    }

    // MARK: - Calendar

    func calendar(_ context: RequestContext) throws -> CalendarPage {
        let member = try context.signedIn
        let t = context.locale
        let query = context.request.query
        // A malformed month or day is an address that does not exist.
        var day: CalendarDay?
        if let text = query["day"], !text.isEmpty {
            guard let parsed = CalendarDay(text) else { throw InventoryError.notFound }
            day = parsed
        }
        var requestedMonth: CalendarMonth?
        if let text = query["month"], !text.isEmpty {
            guard let parsed = CalendarMonth(text) else { throw InventoryError.notFound }
            requestedMonth = parsed
        }
        let requested = Int(query["page"] ?? "") ?? 1
        // The chosen day shows in its own month, whatever `month` says.
        let contents = try items.calendarPage(in: member.household, month: requestedMonth, day: day, page: requested, now: clock.now())
        let (window, month, result) = (contents.window, contents.month, contents.due)

        let names = t[.calendarMonths].split(separator: ",").map(String.init)
        func monthName(_ m: CalendarMonth) -> String { names.indices.contains(m.month - 1) ? names[m.month - 1] : "\(m.month)" }
        func title(_ m: CalendarMonth) -> String { t.format(.calendarMonthTitle, ["month": monthName(m), "year": "\(m.year)"]) }
        func monthLink(_ m: CalendarMonth) -> String { Self.link(Route.calendar, [("month", m.description)]) }

        // The grid: weeks as rows, starting on the weekday the reader's language expects.
        let firstWeekday = Int(t[.calendarFirstWeekday]) ?? 0
        let short = t[.calendarWeekdaysShort].split(separator: ",").map(String.init)
        let long = t[.calendarWeekdays].split(separator: ",").map(String.init)
        let weekdays = (0..<7).map { offset -> CalendarPage.Weekday in
            let index = (firstWeekday + offset) % 7
            return CalendarPage.Weekday(short: short.indices.contains(index) ? short[index] : "", long: long.indices.contains(index) ? long[index] : "")
        }
        let meals = try plan.counts(from: month.first, through: month.last, in: member.household)
        let lead = (month.first.weekday - firstWeekday + 7) % 7
        var cells = [CalendarPage.Day](repeating: .blank, count: lead)
        for number in 1...month.dayCount {
            let date = month.day(number)
            let text = date.description
            let count = result.counts[date] ?? 0
            let isToday = date == window.today
            let isExpired = count > 0 && date < window.today
            let mealCount = meals[date] ?? 0
            var label: String?
            if count > 0 {
                let values = ["date": DisplayFormat.day(date, locale: t), "items": t.count(.itemCount, count)]
                label = t.format(isToday ? .calendarDayLabelToday : isExpired ? .calendarDayLabelExpired : .calendarDayLabel, values)
            }
            if mealCount > 0 {
                label = (label ?? DisplayFormat.day(date, locale: t)) + t[.cookListSeparator] + t.count(.calendarMeals, mealCount)
            }
            cells.append(
                CalendarPage.Day(
                    number: "\(number)",
                    href: count > 0 || mealCount > 0 ? Self.link(Route.calendar, [("month", month.description), ("day", text)]) : nil,
                    label: label, count: count > 0 ? "\(count)" : nil, isToday: isToday, isExpired: isExpired,
                    isSelected: date == day, isPast: date < window.today, hasMeals: mealCount > 0))
        }
        cells += [CalendarPage.Day](repeating: .blank, count: (7 - cells.count % 7) % 7)

        // The chosen day's items, with the stock list's quick actions.
        var dayView: CalendarPage.DayItems?
        if let day {
            let (shared, shopping) = try rowContext(context, folders: contents.folders)
            func here(_ page: Int) -> String {
                Self.link(Route.calendar, [("month", month.description), ("day", day.description)] + (page > 1 ? [("page", "\(page)")] : []))
            }
            let rows = result.dayItems.map { ItemRowView($0.item, window: window, t: t, urls: renderer.staticURLs, folder: folderName($0, t)) }
            let notice = Notices.placed(query, rows: rows, folders: shopping, t: t)
            let planned = try plan.days(from: day, count: 1, in: member.household, window: window).days.first?.meals ?? []
            let dayMeals = planned.map { planned in
                CalendarPage.MealLine(
                    text: t.format(.planFeedSummary, ["slot": t[.planSlot, planned.meal.slot], "name": planned.recipeName ?? planned.meal.note]))
            }
            dayView = CalendarPage.DayItems(
                heading: t.format(.calendarDayHeading, ["date": DisplayFormat.day(day, locale: t)]),
                summary: t.count(.itemCount, result.dayTotal),
                rows: rows,
                shared: shared, here: here(result.page),
                pager: Pager(page: result.page, of: result.pages, t: t, link: here),
                notice: notice.top, undoIds: notice.undoIds, rowNotice: notice.row, meals: dayMeals,
                planHref: Route.Plan.path + "?from=\(day)#day-\(day)")
        }

        let current = CalendarMonth(window.today)
        return CalendarPage(
            monthTitle: title(month), weekdays: weekdays, days: cells, todayLabel: t[.calendarToday],
            previous: month.previous.map { CalendarPage.Link(href: monthLink($0), label: monthName($0), title: title($0)) },
            next: month.next.map { CalendarPage.Link(href: monthLink($0), label: monthName($0), title: title($0)) },
            thisMonth: month == current && day == nil ? nil : Route.calendar,
            day: dayView)
    }
}

// MARK: - Views

/// What to use soon: expired, due today, due soon (`Templates/soon.mustache`, compiled).
struct UseSoonPage: CompiledPage {
    /// Expired, due today or due soon: a heading in words, and one page's rows of it.
    struct Group: Sendable {
        let state: String
        let heading: String
        let count: Int
        let rows: [ItemRowView]
    }

    /// A group as the template shows it, with its rows (`partials/item-rows`).
    struct GroupView {
        let group: Group
        let rowList: ItemRowsView
        var state: String { group.state }
        var heading: String { group.heading }
        var count: Int { group.count }
    }

    let groups: [Group]
    let shared: RowContext
    let here: String
    let summary: String
    let empty: String
    let pager: Pager
    let notice: String?
    let undoIds: String?
    var rowNotice: RowNotice? = nil
    /// Where the bulk bar moves ticked rows, and the shopping lists it puts copies on.
    var moveTargets: [Choice] = []
    var shoppingTargets: [Choice] = []

    func title(_ t: Catalog) -> String { t[.soonHeading] }

    var groupViews: [GroupView] {
        groups.map { GroupView(group: $0, rowList: ItemRowsView($0.rows, shared: shared, here: here, notice: rowNotice, t: shared.t)) }
    }
    var hasRows: Bool { !groups.isEmpty }
    var hasMoveTargets: Bool { !moveTargets.isEmpty }
    var hasShoppingTargets: Bool { !shoppingTargets.isEmpty }
    /// The bulk bar's "bought into" group is the shopping list's.
    var isShopping: Bool { false }
    var hasStockTargets: Bool { false }
    var stockTargets: [Choice] { [] }
}

/// A month of due dates, and the chosen day's items (`Templates/calendar.mustache`, compiled).
struct CalendarPage: CompiledPage {
    struct Weekday: Sendable {
        let short: String
        let long: String
    }

    /// One cell of the grid; `number` is nil outside the month.
    struct Day: Sendable {
        let number: String?
        let href: String?
        let label: String?
        let count: String?
        let isToday: Bool
        let isExpired: Bool
        let isSelected: Bool
        let isPast: Bool
        /// Meals are planned on the day (a mark in the grid; the day's page lists them).
        var hasMeals = false

        static let blank = Day(number: nil, href: nil, label: nil, count: nil, isToday: false, isExpired: false, isSelected: false, isPast: false)

        /// A day of the month with items: a link to them.
        var isLink: Bool { number != nil && href != nil }
        /// A day of the month without items.
        var isPlain: Bool { number != nil && href == nil }
    }

    /// A row of the grid.
    struct Week {
        let days: ArraySlice<Day>
    }

    struct Link: Sendable {
        let href: String
        let label: String
        let title: String
    }

    /// The chosen day's items under the grid.
    /// A meal of the chosen day, as the plan names it ("Dinner: Curry").
    struct MealLine: Sendable {
        let text: String
    }

    struct DayItems: Sendable {
        let heading: String
        let summary: String
        let rows: [ItemRowView]
        let shared: RowContext
        let here: String
        let pager: Pager
        let notice: String?
        let undoIds: String?
        var rowNotice: RowNotice? = nil
        var meals: [MealLine] = []
        var planHref: String = ""

        var hasRows: Bool { !rows.isEmpty }
        var hasMeals: Bool { !meals.isEmpty }
        var rowList: ItemRowsView { ItemRowsView(rows, shared: shared, here: here, notice: rowNotice, t: shared.t) }
    }

    let monthTitle: String
    let weekdays: [Weekday]
    /// The grid's cells, whole weeks.
    let days: [Day]
    let todayLabel: String
    let previous: Link?
    let next: Link?
    /// Back to the current month, when another month or a day is shown.
    let thisMonth: String?
    let day: DayItems?

    func title(_ t: Catalog) -> String { day?.heading ?? monthTitle }

    /// The grid's rows, seven days each.
    var weeks: [Week] { stride(from: 0, to: days.count, by: 7).map { Week(days: days[$0..<min($0 + 7, days.count)]) } }
    // The notice and Undo after a quick action on the day's rows (partials/notice).
    var here: String? { day?.here }
    var notice: String? { day?.notice }
    var undoIds: String? { day?.undoIds }
}
