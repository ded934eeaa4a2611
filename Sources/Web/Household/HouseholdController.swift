import HTTPServer
import Inventory

/// The Household page: what the household uses and wastes (`HouseholdHabits`), as charts drawn on
/// the server with a table of the same figures behind each. Read like the other pages: one read
/// transaction on the answering thread, no task on Swift's cooperative pool.
struct HouseholdController {
    let habits: HouseholdHabits
    let renderer: Renderer
    let clock: WallClock

    /// Products on the days-left chart (the table lists more).
    static let chartedProducts = 12
    /// Days at which a days-left bar is full: a month and more is "plenty" on a phone's width.
    static let fullDays = 60.0

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.household, .signedIn, use: page)
    }

    func page(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let query = context.request.query
        let report = try habits.report(
            in: member.household, now: clock.now(), weeks: Self.clamped(query["weeks"], HouseholdHabits.weeks, HouseholdHabits.defaultWeeks),
            months: Self.clamped(query["months"], HouseholdHabits.months, HouseholdHabits.defaultMonths))
        return renderer.response(HouseholdPage(report, t: context.locale), context)
    }

    /// A query's number within `range`; the default when it is missing or no whole number.
    static func clamped(_ text: String?, _ range: ClosedRange<Int>, _ fallback: Int) -> Int {
        // At most a few digits are read: "99999999999999999999" is no number, not a trap.
        guard let text, text.utf8.count <= 6, let value = Int(text) else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}

/// The Household page's view: each chart, its table, and the words around them.
struct HouseholdPage: CompiledPage {
    struct MonthRow: Sendable {
        let month: String
        let count: Int
    }

    struct KindRow: Sendable {
        let kind: String
        let count: Int
    }

    struct WastedRow: Sendable {
        let name: String
        let times: String
        let quantity: String
    }

    struct ProductRow: Sendable {
        let name: String
        let perWeek: String
        let inStock: String
        let daysLeft: String
        let boughtEvery: String
    }

    let intro: String
    let wasteSummary: String
    let hasWaste: Bool
    let wasteByMonth: ColumnChart
    let monthRows: [MonthRow]
    let kindRows: [KindRow]
    let topWasted: RowChart
    let wastedRows: [WastedRow]
    let hasProducts: Bool
    let daysSummary: String
    let daysLeft: RowChart
    let productRows: [ProductRow]

    func title(_ t: Catalog) -> String { t[.householdHeading] }

    init(_ report: HabitsReport, t: Catalog) {
        let shortMonths = t[.householdMonthsShort].split(separator: ",").map(String.init)
        let longMonths = t[.calendarMonths].split(separator: ",").map(String.init)
        func name(_ list: [String], _ month: CalendarMonth) -> String { list.count == 12 ? list[month.month - 1] : "\(month.month)" }
        let wasted = report.wasteByMonth.reduce(0) { $0 + $1.count }
        let months = report.wasteByMonth.count
        intro = t[.householdIntro]
        wasteSummary = t.count(.householdWasteSummary, wasted, ["months": "\(months)"])
        hasWaste = wasted > 0
        wasteByMonth = ColumnChart(
            id: "waste-month", title: t[.householdWasteMonthHeading], summary: wasteSummary,
            values: report.wasteByMonth.map { (name(shortMonths, $0.month), $0.count) })
        monthRows = report.wasteByMonth.reversed().map {
            MonthRow(month: t.format(.calendarMonthTitle, ["month": name(longMonths, $0.month), "year": "\($0.month.year)"]), count: $0.count)
        }
        kindRows = report.wasteByKind.map { KindRow(kind: t[.kind, $0.kind], count: $0.count) }
        topWasted = RowChart(
            id: "top-wasted", title: t[.householdTopHeading], summary: t.count(.householdTopSummary, report.topWasted.count),
            values: report.topWasted.map { ($0.name, Double($0.times), t.count(.householdTimes, $0.times)) })
        wastedRows = report.topWasted.map {
            WastedRow(name: $0.name, times: t.count(.householdTimes, $0.times), quantity: t.quantity($0.quantity, unit: $0.unit))
        }
        hasProducts = !report.products.isEmpty
        daysSummary = t.count(.householdDaysSummary, report.weeks)
        func days(_ product: ProductHabit) -> String {
            guard let days = product.daysLeft else { return "–" }
            return days == 0 ? t[.householdNoneLeft] : t.count(.householdDays, days)
        }
        let charted = report.products.prefix(HouseholdController.chartedProducts)
        daysLeft = RowChart(
            id: "days-left", title: t[.householdDaysHeading], summary: daysSummary,
            values: charted.map { ($0.name, Double($0.daysLeft ?? 0), days($0)) }, cap: HouseholdController.fullDays)
        productRows = report.products.map { product in
            ProductRow(
                name: product.name, perWeek: t.quantity(Self.rounded(product.usedPerWeek), unit: product.unit),
                inStock: t.quantity(product.inStock, unit: product.unit), daysLeft: days(product),
                boughtEvery: product.boughtEveryDays.map { t.count(.householdEveryDays, $0) } ?? "–")
        }
    }

    /// A rate to one decimal, never shown as 0 when something was used.
    static func rounded(_ value: Double) -> Double {
        let tenths = (value * 10).rounded() / 10
        return value > 0 && tenths == 0 ? 0.1 : tenths
    }
}
