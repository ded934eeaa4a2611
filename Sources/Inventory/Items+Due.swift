import Foundation
import GRDB

/// A stock item with the name of its folder, for pages that gather items from every folder.
public struct DueItem: Sendable, Equatable {
    public let item: Item
    public let folderName: String
    /// The folder's starter key while unrenamed (see `Folder.starter`).
    public var folderStarter: String? = nil
}

/// The use-soon page: the household's stock items that are expired, due today or due within
/// its window, earliest first, one page of them, and how many there are in each group.
public struct UseSoon: Sendable {
    public let expired: [DueItem]
    public let today: [DueItem]
    public let soon: [DueItem]
    /// Counts over the whole household, not only this page.
    public let expiredCount: Int
    public let todayCount: Int
    public let soonCount: Int
    public let page: Int
    public let pages: Int

    public var total: Int { expiredCount + todayCount + soonCount }
}

/// One month of the calendar: items due per day, and the items of one chosen day.
public struct DueMonth: Sendable {
    /// Due day → stock items due that day.
    public let counts: [CalendarDay: Int]
    public let day: CalendarDay?
    /// One page of the chosen day's items, by name.
    public let dayItems: [DueItem]
    public let dayTotal: Int
    public let page: Int
    public let pages: Int
}

extension Items {
    /// Stock items of a household (not in the trash, stock lists only) due in a range of days.
    /// Read from the index `item_due` (household_id, due) in due order; CROSS JOIN keeps SQLite
    /// from starting at the folders, which would need a sort. Its bounds are `bounds(from:through:)`.
    static let dueRange = """
        FROM item i CROSS JOIN folder f ON f.id = i.folder_id
        WHERE i.household_id = ? AND i.deleted_at IS NULL AND i.due IS NOT NULL AND i.due BETWEEN ? AND ?
          AND f.kind = 'stock' AND f.deleted_at IS NULL
        """

    /// The arguments of `dueRange`: from `first` (nil: from the earliest day, as the empty text
    /// sorts before every day) through `last`.
    static func bounds(_ householdId: Household.ID, from first: CalendarDay?, through last: CalendarDay) -> StatementArguments {
        [householdId, first?.description ?? "", last]
    }

    static func dueCounts(_ db: Database, _ householdId: Household.ID, from: CalendarDay?, through: CalendarDay) throws -> [CalendarDay: Int] {
        var counts: [CalendarDay: Int] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT i.due, COUNT(*) \(dueRange) GROUP BY i.due"), arguments: bounds(householdId, from: from, through: through))
        while let row = try rows.next() { counts[try row.decode(atIndex: 0)] = row[1] }
        return counts
    }

    static func dueItems(_ db: Database, _ householdId: Household.ID, from: CalendarDay?, through: CalendarDay, offset: Int) throws -> [DueItem] {
        try Item.fetchList(
            db.cachedStatement(sql: "SELECT i.*, f.name AS folder_name, f.starter AS folder_starter \(dueRange) ORDER BY i.due, i.name, i.id LIMIT ? OFFSET ?"),
            arguments: bounds(householdId, from: from, through: through) + [ListPage.size, offset]
        ) { item, row in DueItem(item: item, folderName: row["folder_name"], folderStarter: row["folder_starter"]) }
    }

    /// The statement of `dueCounts(_:householdId:window:)`: items before, on and after today
    /// (three times today's text), of a household, due on or before the last day of the window.
    static let dueStateCounts = """
        SELECT COUNT(*) FILTER (WHERE i.due < ?), COUNT(*) FILTER (WHERE i.due = ?), COUNT(*) FILTER (WHERE i.due > ?)
        FROM folder f CROSS JOIN item i ON i.folder_id = f.id
        WHERE f.household_id = ? AND f.kind = 'stock' AND f.deleted_at IS NULL
          AND i.deleted_at IS NULL AND i.due IS NOT NULL AND i.due <= ?
        """

    /// How many stock items of a household are expired, due today and due soon in `window`; inside
    /// the caller's transaction (the reminder engine counts for its digest while it queues it).
    ///
    /// SQLite counts, in one pass over the index `item_due_by_folder` (folder_id, due) of each stock
    /// folder: the index holds every column the count reads, so no item row is looked up, where
    /// `dueRange` looks up each item and its folder (a household with a thousand expired items
    /// spent most of its use-soon page there). The household is the folder's: an item's household
    /// is always its folder's (a foreign key on both). A stored day sorts as its text does, so the
    /// states are text comparisons, and no row becomes a `CalendarDay`.
    static func dueCounts(_ db: Database, householdId: Household.ID, window: DueWindow) throws -> DueCounts {
        let today = window.today.description
        var counts = DueCounts()
        // An aggregate without GROUP BY gives exactly one row.
        if let row = try Row.fetchOne(db.cachedStatement(sql: dueStateCounts), arguments: [today, today, today, householdId, window.soonUntil]) {
            (counts.expired, counts.today, counts.soon) = (row[0], row[1], row[2])
        }
        return counts
    }

    /// Every stock item that expired before the window's today, is due today, or is due soon,
    /// across the household's stock lists, earliest first; one page of `ListPage.size`.
    public func useSoon(in scope: HouseholdScope, window: DueWindow, page requested: Int = 1) throws -> UseSoon {
        try database.writer.read { db in try Self.useSoon(db, scope.householdId, window: window, page: requested) }
    }

    static func useSoon(_ db: Database, _ householdId: Household.ID, window: DueWindow, page requested: Int) throws -> UseSoon {
        let last = window.soonUntil
        // Usually everything fits on the first page, and its rows are the counts: one query.
        // Otherwise SQLite counts the states (`dueCounts`), and the page asked for is read.
        var items = requested <= 1 ? try Self.dueItems(db, householdId, from: nil, through: last, offset: 0) : []
        var counts = DueCounts()
        if requested <= 1 && items.count < ListPage.size {
            for item in items { counts.add(window.state(of: item.item.due)) }
        } else {
            counts = try Self.dueCounts(db, householdId: householdId, window: window)
        }
        let pages = max(1, (counts.total + ListPage.size - 1) / ListPage.size)
        let page = min(max(1, requested), pages)
        if requested > 1 { items = try Self.dueItems(db, householdId, from: nil, through: last, offset: (page - 1) * ListPage.size) }
        let states = items.map { window.state(of: $0.item.due) }
        let group = { (state: DueState) in zip(items, states).filter { $0.1 == state }.map(\.0) }
        return UseSoon(
            expired: group(.expired), today: group(.today), soon: group(.soon),
            expiredCount: counts.expired, todayCount: counts.today, soonCount: counts.soon, page: page, pages: pages)
    }

    /// How many stock items are due on each day of `month`, and one page of `day`'s items.
    public func dueMonth(in scope: HouseholdScope, month: CalendarMonth, day: CalendarDay? = nil, page requested: Int = 1) throws -> DueMonth {
        try database.writer.read { db in try Self.dueMonth(db, scope.householdId, month: month, day: day, page: requested) }
    }

    static func dueMonth(_ db: Database, _ householdId: Household.ID, month: CalendarMonth, day: CalendarDay?, page requested: Int) throws -> DueMonth {
        let counts = try Self.dueCounts(db, householdId, from: month.first, through: month.last)
        guard let day else { return DueMonth(counts: counts, day: nil, dayItems: [], dayTotal: 0, page: 1, pages: 1) }
        let total = month.contains(day) ? counts[day] ?? 0 : try Self.dueCounts(db, householdId, from: day, through: day)[day] ?? 0
        let pages = max(1, (total + ListPage.size - 1) / ListPage.size)
        let page = min(max(1, requested), pages)
        let items = total == 0 ? [] : try Self.dueItems(db, householdId, from: day, through: day, offset: (page - 1) * ListPage.size)
        return DueMonth(counts: counts, day: day, dayItems: items, dayTotal: total, page: page, pages: pages)
    }
}

extension Items {
    /// How many stock items are expired, due today and due soon at `now`, and the household's due
    /// window then (its today and its last "soon" day), read at one instant.
    public func dueCounts(in scope: HouseholdScope, now: Date) throws -> (counts: DueCounts, window: DueWindow) {
        try database.writer.read { db in
            let window = DueWindow(household: try HouseholdSettings.household(db, scope.householdId), now: now)
            return (try Self.dueCounts(db, householdId: scope.householdId, window: window), window)
        }
    }

    /// The stock items due from `first` through `last`, earliest first, at most `limit` (the API's
    /// calendar of due dates).
    public func due(in scope: HouseholdScope, from first: CalendarDay, through last: CalendarDay, limit: Int) throws -> [DueItem] {
        try database.writer.read { db in
            try Item.fetchList(
                db.cachedStatement(sql: "SELECT i.*, f.name AS folder_name, f.starter AS folder_starter \(Self.dueRange) ORDER BY i.due, i.name, i.id LIMIT ?"),
                arguments: Self.bounds(scope.householdId, from: first, through: last) + [limit]
            ) { item, row in DueItem(item: item, folderName: row["folder_name"], folderStarter: row["folder_starter"]) }
        }
    }
}
