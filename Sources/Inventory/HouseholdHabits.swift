import Foundation
import GRDB

/// What a household uses and wastes, read from its use ledger (`stock_use`, kept by triggers on
/// `item`: see `Schema.v20`): per product, how much a week it uses, how many days what it has
/// lasts at that rate and how often it is bought; and what it wastes, per month, per kind and
/// which products most. A product here is its name folded as search folds it, and its unit.
///
/// Waste is decided here, not in the trigger, so that "expired" means what the lists mean: an
/// item put in the trash while expired, or used up after its due date, is wasted with the
/// quantity it left with; its due date is compared with the household's day (its time zone) of
/// the moment it left. Use is every other amount that left a stock list: a use, the last of it,
/// the trash before its due date.
///
/// A + on a stock row the same day as uses of that item takes those uses back before anything
/// counts as come in (`takeBackUses`): a − tapped once too often and put right is neither a use
/// nor a purchase.
///
/// "Usually bought every N days" is the median gap between the days the product came into stock
/// (the ledger's `stocked` rows: registered, bought, or added to a row), over the months read.
public struct HouseholdHabits: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Weeks the use rate is taken over: a query asks for these at most.
    public static let weeks = 1...26
    public static let defaultWeeks = 8
    /// Months of waste shown, this one included.
    public static let months = 1...24
    public static let defaultMonths = 12
    /// Products on the top-wasted chart.
    public static let topWastedCount = 10
    /// Products whose days left are listed, soonest first: a household of thousands of names
    /// still gets a page of a bounded size.
    public static let listedProducts = 60
    /// Names a digest's "expired unused this week" names; the rest are counted.
    public static let digestNames = 5

    /// The report for `scope` on its day at `now`: use over the last `weeks` weeks (today and the
    /// days before, whole days), waste over the last `months` months (both clamped to their
    /// ranges). The report depends on the ledger, the stock and the day only, so it is kept until
    /// the household's change sequence moves (every write to an item does) or the day turns: the
    /// page read again, or by another member, costs a look-up, not the year of ledger.
    public func report(in scope: HouseholdScope, now: Date, weeks: Int = defaultWeeks, months: Int = defaultMonths) throws -> HabitsReport {
        let weeks = min(max(weeks, Self.weeks.lowerBound), Self.weeks.upperBound)
        let months = min(max(months, Self.months.lowerBound), Self.months.upperBound)
        return try database.writer.read { db in
            let zone = try Self.timeZone(db, scope.householdId)
            let key = ReportKey(today: CalendarDay.today(in: zone, now: now), zone: zone.identifier, weeks: weeks, months: months)
            return try database.habits.value(db, householdId: scope.householdId, version: try ChangeFeed.latest(db, scope.householdId), key: key) {
                try Self.read(db, scope.householdId, key, zone: zone)
            }
        }
    }

    /// What a report depends on besides the household's data.
    struct ReportKey: Equatable, Sendable {
        let today: CalendarDay
        let zone: String
        let weeks: Int
        let months: Int
    }

    /// Sums the ledger of the months shown and reads the stock.
    private static func read(_ db: Database, _ householdId: Household.ID, _ key: ReportKey, zone: TimeZone) throws -> HabitsReport {
        let firstMonth = key.today.adding(months: -(key.months - 1))
        let firstDay = CalendarDay(year: firstMonth.year, month: firstMonth.month, day: 1)
        let useSince = Timestamp(key.today.adding(days: -(7 * key.weeks - 1)).start(in: zone))
        let since = min(useSince, Timestamp(firstDay.start(in: zone)))
        var tally = Tally(
            days: LocalDays(zone: zone), useSince: useSince, until: Timestamp(key.today.adding(days: 1).start(in: zone)),
            firstMonth: CalendarMonth(firstDay))
        try forEachEntry(db, householdId, since: since) { tally.add($0) }
        return tally.report(weeks: key.weeks, months: key.months, today: key.today, stock: try inStock(db, householdId))
    }

    /// What expired unused in the seven days to `now` (the household's today and the six before):
    /// how many entries, and the names of the first `digestNames` products. For the digest, inside
    /// its transaction.
    static func expiredUnusedThisWeek(_ db: Database, _ householdId: Household.ID, now: Date) throws -> ExpiredUnused {
        let zone = try timeZone(db, householdId)
        var days = LocalDays(zone: zone)
        let firstDay = CalendarDay.today(in: zone, now: now).adding(days: -6)
        var count = 0
        var listed: [String] = []
        var seen = Set<ProductKey>()
        try forEachEntry(db, householdId, since: Timestamp(firstDay.start(in: zone))) { entry in
            guard entry.at <= Timestamp(now), entry.isWaste(on: days.day(of: entry.at)) else { return }
            count += 1
            if seen.insert(entry.product).inserted { listed.append(entry.name) }
        }
        return ExpiredUnused(count: count, names: Array(listed.prefix(digestNames)), products: listed.count)
    }

    static func timeZone(_ db: Database, _ householdId: Household.ID) throws -> TimeZone {
        let name = try String.fetchOne(db.cachedStatement(sql: "SELECT time_zone FROM household WHERE id = ?"), arguments: [householdId])
        return name.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }

    /// Calls `body` with each ledger row of the household from `since` on, oldest first.
    static func forEachEntry(_ db: Database, _ householdId: Household.ID, since: Timestamp, _ body: (LedgerEntry) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT name, name_folded, unit, kind, quantity, event, due, at FROM stock_use WHERE household_id = ? AND at >= ? ORDER BY at, id
                    """),
            arguments: [householdId, since])
        while let row = try rows.next() {
            // A code this version does not know (a later one's) is left out, not guessed.
            guard let unit = ItemUnit(rawValue: row[2]), let kind = ItemKind(rawValue: row[3]), let event = LedgerEvent(rawValue: row[5]),
                let at = Timestamp(row[7] as String)
            else { continue }
            let due: String? = row[6]
            try body(
                LedgerEntry(
                    name: row[0], product: ProductKey(folded: row[1], unit: unit), kind: kind, quantity: row[4], event: event,
                    due: due.flatMap(CalendarDay.init), at: at))
        }
    }

    /// What each product has in the household's stock lists now (expired items too), by product:
    /// the folded name is the start of the item's search_text, as in the ledger.
    static func inStock(_ db: Database, _ householdId: Household.ID) throws -> [ProductKey: Double] {
        var stock: [ProductKey: Double] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT substr(i.search_text, 1, instr(i.search_text, char(10)) - 1) AS folded, i.unit, SUM(i.quantity)
                    FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE i.household_id = ? AND i.deleted_at IS NULL AND f.kind = 'stock' AND f.deleted_at IS NULL
                    GROUP BY folded, i.unit
                    """),
            arguments: [householdId])
        while let row = try rows.next() {
            guard let unit = ItemUnit(rawValue: row[1]) else { continue }
            stock[ProductKey(folded: row[0], unit: unit), default: 0] += row[2] as Double
        }
        return stock
    }
}

/// What happened to stock, as the ledger's `event` names it.
public enum LedgerEvent: String, Sendable {
    case stocked, used
    case usedUp = "used_up"
    case trashed
}

/// One row of the use ledger.
struct LedgerEntry {
    let name: String
    let product: ProductKey
    let kind: ItemKind
    let quantity: Double
    let event: LedgerEvent
    let due: CalendarDay?
    let at: Timestamp

    /// Wasted: it left stock for good (its last used, or the trash) on `day`, after its due date.
    func isWaste(on day: CalendarDay) -> Bool {
        guard event == .usedUp || event == .trashed, let due else { return false }
        return due < day
    }

    /// An amount that left stock.
    var isOutgoing: Bool { event != .stocked }
}

/// A product as the habits count it: its folded name and its unit.
struct ProductKey: Hashable {
    let folded: String
    let unit: ItemUnit
}

/// The household's calendar day of an instant (its time zone's offset then, summer time included).
/// Foundation is asked for the offset once per stretch between two of the zone's transitions, not
/// once a row (on Linux each ask costs about as much as reading ten ledger rows): the ledger is
/// read in time order, so a year of it asks a few times.
struct LocalDays {
    let zone: TimeZone
    /// The stretch of time the last offset holds for: from `start` until `end` (the next transition).
    private var start = Int64.max
    private var end = Int64.min
    private var offset: Int64 = 0

    init(zone: TimeZone) { self.zone = zone }

    mutating func day(of time: Timestamp) -> CalendarDay {
        let seconds = time.secondsSince1970
        if seconds < start || seconds >= end {
            offset = Int64(zone.secondsFromGMT(for: time.date))
            start = seconds
            end = zone.nextDaylightSavingTimeTransition(after: time.date).map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .max
        }
        return CalendarDay(dayNumber: Int(Self.dayNumber(local: seconds + offset)))
    }

    /// The household's midnight that began the day of `time`, by the zone's offset at `time`
    /// (no calendar: a + tap asks it).
    static func midnight(before time: Timestamp, in zone: TimeZone) -> Timestamp {
        let offset = Int64(zone.secondsFromGMT(for: time.date))
        let local = time.secondsSince1970 + offset
        return time.adding(seconds: dayNumber(local: local) * 86400 - local)
    }

    /// Whole days since 1970 of a local time in seconds, rounded down (before 1970 too).
    private static func dayNumber(local: Int64) -> Int64 { local >= 0 ? local / 86400 : (local - 86399) / 86400 }
}

/// Sums the ledger as it is read, for `HabitsReport`.
struct Tally {
    var days: LocalDays
    /// The start of the first day of the use rate's weeks.
    let useSince: Timestamp
    /// The end of today: a later row (a clock set back) is not counted yet.
    let until: Timestamp
    let firstMonth: CalendarMonth

    struct Product {
        var name: String
        var kind: ItemKind
        var used = 0.0
        var stockedDays: [CalendarDay] = []
        var wastedTimes = 0
        var wastedQuantity = 0.0

        mutating func add(_ entry: LedgerEntry, day: CalendarDay, wasted: Bool, used: Bool) {
            // The newest name and kind stand for the product.
            (name, kind) = (entry.name, entry.kind)
            if entry.event == .stocked {
                if stockedDays.last != day { stockedDays.append(day) }
            } else if wasted {
                wastedTimes += 1
                wastedQuantity += entry.quantity
            } else if used {
                self.used += entry.quantity
            }
        }
    }

    var products: [ProductKey: Product] = [:]
    /// Wasted entries by month, the month as `year * 12 + month`.
    var wasteByMonth: [Int: Int] = [:]
    var wasteByKind: [ItemKind: Int] = [:]

    mutating func add(_ entry: LedgerEntry) {
        guard entry.at < until else { return }
        let day = days.day(of: entry.at)
        let counted = CalendarMonth(day) >= firstMonth
        let wasted = entry.isWaste(on: day)
        if wasted, counted {
            wasteByMonth[day.year * 12 + day.month, default: 0] += 1
            wasteByKind[entry.kind, default: 0] += 1
        }
        let used = !wasted && entry.isOutgoing && entry.at >= useSince
        // One look-up a row, the product changed in place (hashing a name is much of the cost).
        products[entry.product, default: Product(name: entry.name, kind: entry.kind)].add(
            entry, day: day, wasted: wasted && counted, used: used)
    }

    func report(weeks: Int, months: Int, today: CalendarDay, stock: [ProductKey: Double]) -> HabitsReport {
        var used: [ProductHabit] = []
        for (key, product) in products where product.used > 0 {
            let perWeek = product.used / Double(weeks)
            let inStock = stock[key] ?? 0
            used.append(
                ProductHabit(
                    name: product.name, unit: key.unit, kind: product.kind, usedPerWeek: perWeek, inStock: inStock,
                    daysLeft: ProductHabit.daysLeft(inStock: inStock, perWeek: perWeek), boughtEveryDays: Self.usualGap(product.stockedDays)))
        }
        used.sort { ($0.daysLeft ?? .max, $0.name, $0.unit.rawValue) < ($1.daysLeft ?? .max, $1.name, $1.unit.rawValue) }
        var month = CalendarMonth(today)
        var perMonth: [MonthWaste] = []
        for _ in 0..<months {
            perMonth.insert(MonthWaste(month: month, count: wasteByMonth[month.year * 12 + month.month] ?? 0), at: 0)
            guard let previous = month.previous else { break }
            month = previous
        }
        let top = products.filter { $0.value.wastedTimes > 0 }
            .map { WastedProduct(name: $0.value.name, unit: $0.key.unit, kind: $0.value.kind, times: $0.value.wastedTimes, quantity: $0.value.wastedQuantity) }
            .sorted { ($1.times, $1.quantity, $0.name) < ($0.times, $0.quantity, $1.name) }
        return HabitsReport(
            weeks: weeks, today: today, products: Array(used.prefix(HouseholdHabits.listedProducts)), productsInUse: used.count,
            wasteByMonth: perMonth,
            wasteByKind: wasteByKind.map { KindWaste(kind: $0.key, count: $0.value) }.sorted { ($1.count, $0.kind.rawValue) < ($0.count, $1.kind.rawValue) },
            topWasted: Array(top.prefix(HouseholdHabits.topWastedCount)))
    }

    /// The median of the gaps in days between `days` (ascending, each once); nil for fewer than two.
    static func usualGap(_ days: [CalendarDay]) -> Int? {
        guard days.count >= 2 else { return nil }
        let gaps = zip(days.dropFirst(), days).map { $0.days(since: $1) }.sorted()
        return gaps[(gaps.count - 1) / 2]
    }
}

/// The Household page's figures (`HouseholdHabits.report`).
public struct HabitsReport: Sendable, Equatable {
    /// Weeks the use rate is taken over.
    public let weeks: Int
    /// The household's today.
    public let today: CalendarDay
    /// Products used in those weeks, those that run out soonest first (at most `listedProducts`).
    public let products: [ProductHabit]
    /// How many products were used in those weeks (`products` may list fewer).
    public let productsInUse: Int
    /// Wasted entries per month, the oldest month first, this month last.
    public let wasteByMonth: [MonthWaste]
    /// Wasted entries per kind over those months, the most first.
    public let wasteByKind: [KindWaste]
    /// The products wasted most often over those months (then the most quantity), at most 10.
    public let topWasted: [WastedProduct]

    public var hasWaste: Bool { !topWasted.isEmpty }
}

/// One product's use.
public struct ProductHabit: Sendable, Equatable {
    /// Its name as last written.
    public let name: String
    public let unit: ItemUnit
    public let kind: ItemKind
    /// Used a week, on average over the report's weeks.
    public let usedPerWeek: Double
    /// What the stock lists hold of it now.
    public let inStock: Double
    /// Whole days what is in stock lasts at that rate; 0 when none is left.
    public let daysLeft: Int?
    /// The median days between the days it came into stock, when it did on two days or more.
    public let boughtEveryDays: Int?

    /// Days are counted whole, and stop at ten years (a rate of almost nothing is no forecast).
    static func daysLeft(inStock: Double, perWeek: Double) -> Int? {
        guard perWeek > 0, inStock.isFinite, perWeek.isFinite else { return nil }
        let days = (inStock / (perWeek / 7)).rounded(.down)
        return days >= 3650 ? 3650 : Int(days)
    }
}

public struct MonthWaste: Sendable, Equatable {
    public let month: CalendarMonth
    public let count: Int
}

public struct KindWaste: Sendable, Equatable {
    public let kind: ItemKind
    public let count: Int
}

public struct WastedProduct: Sendable, Equatable {
    public let name: String
    public let unit: ItemUnit
    public let kind: ItemKind
    /// Entries wasted: items thrown away, or used up late.
    public let times: Int
    /// Their quantity together, in `unit`.
    public let quantity: Double
}

/// The digest's "expired unused this week".
public struct ExpiredUnused: Sendable, Equatable {
    /// Entries wasted in the seven days.
    public let count: Int
    /// The first products' names (at most `HouseholdHabits.digestNames`).
    public let names: [String]
    /// How many products they were.
    public let products: Int

    public static let none = ExpiredUnused(count: 0, names: [], products: 0)
}
