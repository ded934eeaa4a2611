import Foundation
import Inventory
import Testing

@testable import Web

@Suite struct ICalendarTests {
    @Test func escapesTextValues() {
        #expect(ICalendar.escape("a,b;c\\d\ne\r\nf") == "a\\,b\\;c\\\\d\\ne\\nf")
    }

    @Test func foldsLongLinesAt75OctetsWithoutSplittingACharacter() {
        let line = "SUMMARY:" + String(repeating: "賞味期限の近い牛乳と卵", count: 6)
        let folded = ICalendar.fold(line)
        let physical = folded.components(separatedBy: "\r\n")
        #expect(physical.count > 1)
        for (index, part) in physical.enumerated() {
            #expect(part.utf8.count <= 75, "line \(index) has \(part.utf8.count) octets")
            if index > 0 { #expect(part.hasPrefix(" ")) }
        }
        // Unfolding gives the line back.
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
        #expect(ICalendar.fold("SHORT:x") == "SHORT:x")
    }

    @Test func anItemWithAReminderHasAnAlarmAtItsInstant() {
        let feed = CalendarFeed(
            householdId: 3, householdName: "Home",
            events: [
                FeedEvent(itemId: 7, name: "Milk", folder: "Fridge", due: "2026-12-31", remindAt: "2026-12-30T23:15:00Z", updatedAt: "2026-11-22T05:00:00Z"),
                FeedEvent(itemId: 8, name: "Rice", folder: "Pantry", due: "2027-01-01", remindAt: nil, updatedAt: "2026-11-22T05:00:00Z"),
            ])
        let text = ICalendar.document(feed, now: Timestamp("2026-11-22T06:00:00Z").date, t: Localizations.embedded.fallback)
        #expect(text.contains("UID:zaiko-item-7-household-3\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20261231\r\n"))
        #expect(!text.contains("DTEND"), "a DATE start alone is the whole day, also for 9999-12-31")
        #expect(text.contains("DTSTAMP:20261122T060000Z\r\n"))
        #expect(text.contains("LAST-MODIFIED:20261122T050000Z\r\n"))
        #expect(text.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Milk\r\nTRIGGER;VALUE=DATE-TIME:20261230T231500Z\r\nEND:VALARM\r\n"))
        #expect(text.components(separatedBy: "BEGIN:VALARM").count == 2)
    }

    @Test func aMealIsAnAllDayEventInTheMembersLanguage() throws {
        var feed = CalendarFeed(householdId: 3, householdName: "Home", events: [])
        feed.meals = [FeedMeal(mealId: 9, day: "2026-11-24", slot: .dinner, name: "カレー", servings: 4, updatedAt: "2026-11-22T05:00:00Z")]
        let japanese = try #require(Localizations.embedded.catalogs["ja"])
        let text = ICalendar.document(feed, now: Timestamp("2026-11-22T06:00:00Z").date, t: japanese)
        #expect(text.contains("UID:zaiko-meal-9-household-3\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20261124\r\n"))
        #expect(text.contains("SUMMARY:夕食：カレー\r\n"))
        #expect(text.contains("DESCRIPTION:4人分\r\n"))
    }
}
