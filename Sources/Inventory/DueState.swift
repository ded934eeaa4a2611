import Foundation

/// How an item's due date stands: the one rule behind the list rows, the use-soon page and the
/// daily digest.
public enum DueState: String, Sendable, CaseIterable {
    /// Before today.
    case expired
    case today
    /// After today, through the last day of the window.
    case soon
    /// After the window.
    case later
    /// No due date (or none that reads as a day).
    case none
}

/// The household's "today" and the last day counted as soon, fixed for one request or one pass.
public struct DueWindow: Sendable, Equatable {
    public let today: CalendarDay
    public let soonUntil: CalendarDay

    public init(today: CalendarDay, soonDays: Int) {
        self.today = today
        soonUntil = today.adding(days: max(0, soonDays))
    }

    /// Today in `timeZone` at `now`.
    public init(timeZone: TimeZone, soonDays: Int, now: Date) {
        self.init(today: CalendarDay.today(in: timeZone, now: now), soonDays: soonDays)
    }

    /// The household's window: its own time zone (UTC when unknown) and its due-soon days.
    public init(household: Household, now: Date) {
        self.init(timeZone: TimeZone(identifier: household.timeZone) ?? .gmt, soonDays: household.dueSoonDays, now: now)
    }

    public func state(of day: CalendarDay) -> DueState {
        if day < today { return .expired }
        if day == today { return .today }
        return day <= soonUntil ? .soon : .later
    }

    /// The state of a due date, or `.none` without one.
    public func state(of due: CalendarDay?) -> DueState {
        guard let due else { return .none }
        return state(of: due)
    }
}

/// How many items stand in each state that asks for attention.
public struct DueCounts: Sendable, Equatable {
    public var expired = 0
    public var today = 0
    public var soon = 0

    public init() {}

    public var total: Int { expired + today + soon }

    /// Counts `count` items in `state`; later and undated items are not counted.
    public mutating func add(_ state: DueState, _ count: Int = 1) {
        switch state {
        case .expired: expired += count
        case .today: today += count
        case .soon: soon += count
        case .later, .none: break
        }
    }
}
