import Foundation
import Testing

@testable import Inventory

/// The one rule for how a due date stands: expired before today, today, soon through the last day
/// of the household's window, later after it, none without a date.
@Suite("Due state")
struct DueStateTests {
    let today = CalendarDay(year: 2026, month: 11, day: 22)

    @Test func expiredTodaySoonLaterAndNone() {
        let window = DueWindow(today: today, soonDays: 3)
        #expect(window.state(of: "2026-11-21") == .expired)
        #expect(window.state(of: "1999-01-01") == .expired)
        #expect(window.state(of: "2026-11-22") == .today)
        #expect(window.state(of: "2026-11-23") == .soon)
        #expect(window.state(of: nil) == .none)
    }

    @Test func theLastDayOfTheWindowIsSoonAndTheNextIsLater() {
        let window = DueWindow(today: today, soonDays: 3)
        #expect(window.soonUntil == CalendarDay(year: 2026, month: 11, day: 25))
        #expect(window.state(of: "2026-11-25") == .soon)
        #expect(window.state(of: "2026-11-26") == .later)
    }

    @Test func aWindowOfNoDaysHasTodayButNothingSoon() {
        let window = DueWindow(today: today, soonDays: 0)
        #expect(window.state(of: "2026-11-22") == .today)
        #expect(window.state(of: "2026-11-23") == .later)
    }

    @Test func todayIsTheHouseholdsToday() {
        // 16:00 UTC on the 22nd is already 01:00 on the 23rd in Tokyo.
        let now = Date(timeIntervalSince1970: 1_795_363_200)
        #expect(Timestamp(now).description == "2026-11-22T16:00:00Z")
        let tokyo = DueWindow(household: Household(id: 1, draft: .init(name: "Home", timeZone: "Asia/Tokyo", dueSoonDays: 2)), now: now)
        #expect(tokyo.today == CalendarDay(year: 2026, month: 11, day: 23))
        #expect(tokyo.soonUntil == CalendarDay(year: 2026, month: 11, day: 25))
        #expect(tokyo.state(of: "2026-11-22") == .expired)
        #expect(tokyo.state(of: "2026-11-23") == .today)
        let utc = DueWindow(household: Household(id: 1, draft: .init(name: "Home", timeZone: "UTC", dueSoonDays: 2)), now: now)
        #expect(utc.state(of: "2026-11-22") == .today)
        // An unknown zone counts as UTC rather than failing the page.
        let unknown = DueWindow(household: Household(id: 1, draft: .init(name: "Home", timeZone: "Mars/Olympus", dueSoonDays: 2)), now: now)
        #expect(unknown.today == utc.today)
    }

    @Test func countsAddUpByState() {
        var counts = DueCounts()
        counts.add(.expired, 2)
        counts.add(.today, 1)
        counts.add(.soon, 4)
        counts.add(.later, 9)
        counts.add(.none, 9)
        #expect((counts.expired, counts.today, counts.soon, counts.total) == (2, 1, 4, 7))
    }
}
