import Foundation
import GRDB

/// What the use-soon page shows, read in one transaction (one snapshot).
public struct UseSoonPageContents: Sendable {
    public let household: Household
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    public let useSoon: UseSoon
    /// Every folder of the household, in order (move targets, shopping lists, notices).
    public let folders: [Folder]
}

/// What the calendar shows, read in one transaction (one snapshot).
public struct CalendarPageContents: Sendable {
    public let household: Household
    /// The household's due window at the instant asked for.
    public let window: DueWindow
    /// The month shown.
    public let month: CalendarMonth
    public let due: DueMonth
    /// Every folder of the household, in order (shopping lists for the notices).
    public let folders: [Folder]
}

extension Items {
    /// Page `page` of what to use soon (see `useSoon`), with the household and its folders, as
    /// they were at one instant. `now` places the household's due window.
    public func useSoonPage(in scope: HouseholdScope, page: Int, now: Date) throws -> UseSoonPageContents {
        try database.writer.read { db in
            let household = try HouseholdSettings.household(db, scope.householdId)
            let window = DueWindow(household: household, now: now)
            return UseSoonPageContents(
                household: household, window: window, useSoon: try Self.useSoon(db, scope.householdId, window: window, page: page),
                folders: try Self.folders(db, scope.householdId))
        }
    }

    /// The calendar's month (see `dueMonth`) and page `page` of `day`'s items, with the household
    /// and its folders, as they were at one instant. `day` shows in its own month, whatever `month`
    /// says; with neither, the month of the household's today (`now` places it).
    public func calendarPage(in scope: HouseholdScope, month: CalendarMonth?, day: CalendarDay?, page: Int, now: Date) throws -> CalendarPageContents {
        try database.writer.read { db in
            let household = try HouseholdSettings.household(db, scope.householdId)
            let window = DueWindow(household: household, now: now)
            let shown = day.map(CalendarMonth.init) ?? month ?? CalendarMonth(window.today)
            return CalendarPageContents(
                household: household, window: window, month: shown, due: try Self.dueMonth(db, scope.householdId, month: shown, day: day, page: page),
                folders: try Self.folders(db, scope.householdId))
        }
    }
}
