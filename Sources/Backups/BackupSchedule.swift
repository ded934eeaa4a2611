import Foundation
import Inventory

/// Once a day at `hour`:00 in the server's time zone.
public struct BackupSchedule: Sendable, Equatable {
    public let hour: Int
    public let timeZone: TimeZone

    public init?(hour: Int, timeZone: TimeZone = .current) {
        guard (0...23).contains(hour) else { return nil }
        self.hour = hour
        self.timeZone = timeZone
    }

    /// The first `hour`:00 strictly after `now` (the next hour that exists when a DST change skips it).
    public func next(after now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var day = CalendarDay.today(in: timeZone, now: now)
        // Twice at most; three steps cover a day that a DST change made 23 or 25 hours long.
        for _ in 0..<3 {
            if let instant = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour)), instant > now {
                return instant
            }
            day = day.adding(days: 1)
        }
        return now.addingTimeInterval(86_400)
    }

    /// The last `hour`:00 at or before `now`: the backup that should have been made by then.
    public func previous(atOrBefore now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var day = CalendarDay.today(in: timeZone, now: now)
        for _ in 0..<3 {
            if let instant = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour)), instant <= now {
                return instant
            }
            day = day.adding(days: -1)
        }
        return now.addingTimeInterval(-86_400)
    }

    /// The local date an archive made at `instant` is named after.
    public func day(of instant: Date) -> CalendarDay { CalendarDay.today(in: timeZone, now: instant) }
}
