import Foundation
import HTTPServer
import Inventory
import Mustache

/// Pages of stock items by due date across folders: what to use soon, and a month calendar.
/// Their rows are the stock list's rows (with the folder named) and their quick actions post to
/// the list's routes, which come back here through `return`.
struct DueController {
    let items: Items
    let settings: HouseholdSettings
    let renderer: Renderer
    let clock: WallClock

    func register(in router: inout Router<Endpoint>) {
        router.get("/soon", .signedIn) { context in
            renderer.response(try useSoon(context), context)
        }
        // The bulk bar of Use soon: the ticked rows may come from several folders.
        router.post("/soon/bulk", .writer) { context in
            try BulkActions(items: items).answer(context, back: context.returnPath(fallback: "/soon"), shoppingList: nil)
        }
        router.get("/calendar", .signedIn) { context in
            renderer.response(try calendar(context), context)
        }
    }

    /// What every row on these pages shares, and the household's shopping lists (for "buy again"
    /// and the notice after it).
    func rowContext(_ context: RequestContext, selectable: Bool = false) throws -> (RowContext, [Folder]) {
        let member = try context.signedIn
        let shopping = try items.folders(householdId: member.householdId, kind: .shopping)
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
        let household = try settings.household(member.householdId)
        let window = DueWindow(household: household, now: clock.now())
        let requested = Int(context.request.query["page"] ?? "") ?? 1
        let result = try items.useSoon(householdId: member.householdId, window: window, page: requested)
        // Use soon's rows carry checkboxes for its bulk bar.
        var (shared, shopping) = try rowContext(context, selectable: true)
        shared.recipesLink = true
        let folders = try items.folders(householdId: member.householdId)
        func here(_ page: Int) -> String { Self.link("/soon", page > 1 ? [("page", "\(page)")] : []) }
        func rows(_ list: [DueItem]) -> [ItemRowView] { list.map { ItemRowView($0.item, window: window, t: t, folder: folderName($0, t)) } }
        let groups = [
            UseSoonPage.Group(state: "expired", heading: t["soon_expired"], count: result.expiredCount, rows: rows(result.expired)),
            UseSoonPage.Group(state: "today", heading: t["soon_today"], count: result.todayCount, rows: rows(result.today)),
            UseSoonPage.Group(state: "soon", heading: t.count("soon_soon", household.dueSoonDays), count: result.soonCount, rows: rows(result.soon)),
        ].filter { !$0.rows.isEmpty }
        let (notice, undoIds) = ListController.notice(context.request.query, folders: shopping, t: t)
        // Next to its row when the row is here (a quick action came back); at the top otherwise.
        let rowNotice = ListController.rowNotice(context.request.query, rows: groups.flatMap(\.rows), generic: (notice, undoIds), t: t)
        return UseSoonPage(
            groups: groups, shared: shared, here: here(result.page),
            summary: t.count("item_count", result.total),
            empty: household.dueSoonDays == 0 ? t["soon_empty_today"] : t.count("soon_empty", household.dueSoonDays),
            pageLabel: t.format("page_of", ["page": "\(result.page)", "pages": "\(result.pages)"]),
            previous: result.page > 1 ? here(result.page - 1) : nil,
            next: result.page < result.pages ? here(result.page + 1) : nil,
            notice: rowNotice == nil ? notice : nil, undoIds: undoIds, rowNotice: rowNotice,
            moveTargets: folders.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: false) },
            shoppingTargets: shopping.map { Choice(value: "\($0.id!)", label: displayName($0, t), selected: false) })
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
        let household = try settings.household(member.householdId)
        let window = DueWindow(household: household, now: clock.now())
        // The chosen day shows in its own month, whatever `month` says.
        let month = day.map(CalendarMonth.init) ?? requestedMonth ?? CalendarMonth(window.today)
        let requested = Int(query["page"] ?? "") ?? 1
        let result = try items.dueMonth(householdId: member.householdId, month: month, day: day, page: requested)

        let names = t["calendar_months"].split(separator: ",").map(String.init)
        func monthName(_ m: CalendarMonth) -> String { names.indices.contains(m.month - 1) ? names[m.month - 1] : "\(m.month)" }
        func title(_ m: CalendarMonth) -> String { t.format("calendar_month_title", ["month": monthName(m), "year": "\(m.year)"]) }
        func monthLink(_ m: CalendarMonth) -> String { Self.link("/calendar", [("month", m.description)]) }

        // The grid: weeks as rows, starting on the weekday the reader's language expects.
        let firstWeekday = Int(t["calendar_first_weekday"]) ?? 0
        let short = t["calendar_weekdays_short"].split(separator: ",").map(String.init)
        let long = t["calendar_weekdays"].split(separator: ",").map(String.init)
        let weekdays = (0..<7).map { offset -> CalendarPage.Weekday in
            let index = (firstWeekday + offset) % 7
            return CalendarPage.Weekday(short: short.indices.contains(index) ? short[index] : "", long: long.indices.contains(index) ? long[index] : "")
        }
        let lead = (month.first.weekday - firstWeekday + 7) % 7
        var cells = [CalendarPage.Day](repeating: .blank, count: lead)
        for number in 1...month.dayCount {
            let date = month.day(number)
            let text = date.description
            let count = result.counts[text] ?? 0
            let isToday = date == window.today
            let isExpired = count > 0 && date < window.today
            var label: String?
            if count > 0 {
                let values = ["date": DisplayFormat.day(date, locale: t), "items": t.count("item_count", count)]
                label = t.format(isToday ? "calendar_day_label_today" : isExpired ? "calendar_day_label_expired" : "calendar_day_label", values)
            }
            cells.append(
                CalendarPage.Day(
                    number: "\(number)", href: count > 0 ? Self.link("/calendar", [("month", month.description), ("day", text)]) : nil,
                    label: label, count: count > 0 ? "\(count)" : nil, isToday: isToday, isExpired: isExpired,
                    isSelected: date == day, isPast: date < window.today))
        }
        cells += [CalendarPage.Day](repeating: .blank, count: (7 - cells.count % 7) % 7)

        // The chosen day's items, with the stock list's quick actions.
        var dayView: CalendarPage.DayItems?
        if let day {
            let (shared, shopping) = try rowContext(context)
            func here(_ page: Int) -> String {
                Self.link("/calendar", [("month", month.description), ("day", day.description)] + (page > 1 ? [("page", "\(page)")] : []))
            }
            let (notice, undoIds) = ListController.notice(query, folders: shopping, t: t)
            let rows = result.dayItems.map { ItemRowView($0.item, window: window, t: t, folder: folderName($0, t)) }
            let rowNotice = ListController.rowNotice(query, rows: rows, generic: (notice, undoIds), t: t)
            dayView = CalendarPage.DayItems(
                heading: t.format("calendar_day_heading", ["date": DisplayFormat.day(day, locale: t)]),
                summary: t.count("item_count", result.dayTotal),
                rows: rows,
                shared: shared, here: here(result.page),
                pageLabel: t.format("page_of", ["page": "\(result.page)", "pages": "\(result.pages)"]),
                previous: result.page > 1 ? here(result.page - 1) : nil,
                next: result.page < result.pages ? here(result.page + 1) : nil,
                notice: rowNotice == nil ? notice : nil, undoIds: undoIds, rowNotice: rowNotice)
        }

        let current = CalendarMonth(window.today)
        return CalendarPage(
            monthTitle: title(month), weekdays: weekdays, days: cells, todayLabel: t["calendar_today"],
            previous: month.previous.map { CalendarPage.Link(href: monthLink($0), label: monthName($0), title: title($0)) },
            next: month.next.map { CalendarPage.Link(href: monthLink($0), label: monthName($0), title: title($0)) },
            thisMonth: month == current && day == nil ? nil : "/calendar",
            day: dayView)
    }
}

// MARK: - Views

struct UseSoonPage: PageView {
    static let template = "soon"

    /// Expired, due today or due soon: a heading in words, and one page's rows of it.
    struct Group: MustacheParent, Sendable {
        let state: String
        let heading: String
        let count: Int
        let rows: [ItemRowView]

        func child(named key: String) -> Any? {
            switch key {
            case "state": return state
            case "heading": return heading
            case "count": return count
            // Where `UseSoonPage.slots` puts this group's rows.
            case "rows": return HTML.slotMarker + "group_" + state
            default: return nil
            }
        }
    }

    let groups: [Group]
    let shared: RowContext
    let here: String
    let summary: String
    let empty: String
    let pageLabel: String
    let previous: String?
    let next: String?
    let notice: String?
    let undoIds: String?
    var rowNotice: RowNotice? = nil
    /// Where the bulk bar moves ticked rows, and the shopping lists it puts copies on.
    var moveTargets: [Choice] = []
    var shoppingTargets: [Choice] = []

    func title(_ t: Catalog) -> String { t["soon_heading"] }

    var slots: [String: String] {
        Dictionary(uniqueKeysWithValues: groups.map { ("group_" + $0.state, ItemRowsHTML.render($0.rows, shared: shared, here: here, notice: rowNotice)) })
    }

    func child(named key: String) -> Any? {
        switch key {
        case "groups": return groups
        case "hasRows": return !groups.isEmpty
        case "here": return here
        case "summary": return summary
        case "empty": return empty
        case "pageLabel": return pageLabel
        case "hasPages": return previous != nil || next != nil
        case "previous": return previous
        case "next": return next
        case "notice": return notice
        case "undoIds": return undoIds
        case "moveTargets": return moveTargets
        case "hasMoveTargets": return !moveTargets.isEmpty
        case "shoppingTargets": return shoppingTargets
        case "hasShoppingTargets": return !shoppingTargets.isEmpty
        default: return nil
        }
    }
}

struct CalendarPage: PageView {
    static let template = "calendar"

    struct Weekday: MustacheParent, Sendable {
        let short: String
        let long: String
        func child(named key: String) -> Any? {
            switch key {
            case "short": return short
            case "long": return long
            default: return nil
            }
        }
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

        static let blank = Day(number: nil, href: nil, label: nil, count: nil, isToday: false, isExpired: false, isSelected: false, isPast: false)
    }

    struct Link: MustacheParent, Sendable {
        let href: String
        let label: String
        let title: String
        func child(named key: String) -> Any? {
            switch key {
            case "href": return href
            case "label": return label
            case "title": return title
            default: return nil
            }
        }
    }

    /// The chosen day's items under the grid.
    struct DayItems: MustacheParent, Sendable {
        let heading: String
        let summary: String
        let rows: [ItemRowView]
        let shared: RowContext
        let here: String
        let pageLabel: String
        let previous: String?
        let next: String?
        let notice: String?
        let undoIds: String?
        var rowNotice: RowNotice? = nil

        func child(named key: String) -> Any? {
            switch key {
            case "heading": return heading
            case "summary": return summary
            case "hasRows": return !rows.isEmpty
            case "pageLabel": return pageLabel
            case "hasPages": return previous != nil || next != nil
            case "previous": return previous
            case "next": return next
            default: return nil
            }
        }
    }

    let monthTitle: String
    let weekdays: [Weekday]
    /// The grid's cells, whole weeks, built in Swift (`CalendarGridHTML`): through Mustache its
    /// 42 cells cost more than the rest of the page.
    let days: [Day]
    let todayLabel: String
    let previous: Link?
    let next: Link?
    /// Back to the current month, when another month or a day is shown.
    let thisMonth: String?
    let day: DayItems?

    func title(_ t: Catalog) -> String { day?.heading ?? monthTitle }

    var slots: [String: String] {
        var slots = ["grid": CalendarGridHTML.render(days, todayLabel: todayLabel)]
        if let day { slots["day_rows"] = ItemRowsHTML.render(day.rows, shared: day.shared, here: day.here, notice: day.rowNotice) }
        return slots
    }

    func child(named key: String) -> Any? {
        switch key {
        case "monthTitle": return monthTitle
        case "weekdays": return weekdays
        case "previous": return previous
        case "next": return next
        case "thisMonth": return thisMonth
        case "day": return day
        // The notice and Undo after a quick action on the day's rows (partials/notice).
        case "here": return day?.here
        case "notice": return day?.notice
        case "undoIds": return day?.undoIds
        default: return nil
        }
    }
}

/// The rows of the month grid: a row per week, a cell per day; days with items link to them.
enum CalendarGridHTML {
    static func render(_ days: [CalendarPage.Day], todayLabel: String) -> String {
        var html = HTML()
        for (index, day) in days.enumerated() {
            if index % 7 == 0 { html.raw("<tr>") }
            html.raw("<td class=\"cal-day")
            if day.isToday { html.raw(" is-today") }
            if day.isExpired { html.raw(" is-expired") }
            if day.isSelected { html.raw(" is-selected") }
            if day.isPast { html.raw(" is-past") }
            html.raw("\">")
            let current = day.isToday ? " aria-current=\"date\"" : ""
            if let number = day.number, let href = day.href {
                html.raw("<a class=\"cal-cell\" href=\"")
                html.text(href)
                html.raw("\" aria-label=\"")
                html.text(day.label ?? "")
                html.raw("\"\(current)><span class=\"cal-num\">\(number)</span><span class=\"cal-count\">\(day.isExpired ? "!" : "")")
                html.text(day.count ?? "")
                html.raw("</span></a>")
            } else if let number = day.number {
                html.raw("<span class=\"cal-cell\"\(current)><span class=\"cal-num\">\(number)</span>")
                if day.isToday {
                    html.raw("<span class=\"visually-hidden\"> ")
                    html.text(todayLabel)
                    html.raw("</span>")
                }
                html.raw("</span>")
            }
            html.raw("</td>")
            if index % 7 == 6 { html.raw("</tr>\n") }
        }
        return html.text
    }
}
