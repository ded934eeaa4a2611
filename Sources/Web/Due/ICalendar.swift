import Foundation
import Inventory

/// An iCalendar (RFC 5545) document of a household's due dates: one all-day event per due stock
/// item, with a display alarm at its reminder. Times are UTC or whole days, so no VTIMEZONE.
enum ICalendar {
    /// `t`: the words of the meal plan's events (the member's language).
    static func document(_ feed: CalendarFeed, now: Date, t: Catalog) -> String {
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Zaiko//Zaiko household inventory//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escape("Zaiko · " + feed.householdName),
            // Phones that honour it refresh every hour.
            "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
            "X-PUBLISHED-TTL:PT1H",
        ]
        let stamp = utc(now)
        for event in feed.events {
            lines += [
                "BEGIN:VEVENT",
                // Stable for the item whatever changes about it or the address the server is reached at.
                "UID:zaiko-item-\(event.itemId)-household-\(feed.householdId)",
                "DTSTAMP:" + stamp,
                "LAST-MODIFIED:" + utc(event.updatedAt.date),
                // A DATE start alone is one whole day (RFC 5545 3.6.1); a DTEND after 9999-12-31 could not be written.
                "DTSTART;VALUE=DATE:" + compact(event.due),
                "SUMMARY:" + escape(event.name),
                "DESCRIPTION:" + escape(event.folder),
                "TRANSP:TRANSPARENT",
            ]
            if let remind = event.remindAt?.date {
                lines += [
                    "BEGIN:VALARM",
                    "ACTION:DISPLAY",
                    "DESCRIPTION:" + escape(event.name),
                    "TRIGGER;VALUE=DATE-TIME:" + utc(remind),
                    "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        for meal in feed.meals {
            lines += [
                "BEGIN:VEVENT",
                "UID:zaiko-meal-\(meal.mealId)-household-\(feed.householdId)",
                "DTSTAMP:" + stamp,
                "LAST-MODIFIED:" + utc(meal.updatedAt.date),
                "DTSTART;VALUE=DATE:" + compact(meal.day),
                "SUMMARY:" + escape(t.format(.planFeedSummary, ["slot": t[.planSlot, meal.slot], "name": meal.name])),
            ]
            if let servings = meal.servings { lines.append("DESCRIPTION:" + escape(t.count(.planServings, servings))) }
            lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        var out = ""
        out.reserveCapacity(lines.count * 40)
        for line in lines {
            out += fold(line)
            out += "\r\n"
        }
        return out
    }

    /// TEXT values: backslash, semicolon, comma and line breaks escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }
            default:
                // Other control characters are not allowed in TEXT.
                if scalar.value < 0x20 || scalar.value == 0x7F { out += " " } else { out.unicodeScalars.append(scalar) }
            }
            previousWasCR = scalar == "\r"
        }
        return out
    }

    /// Lines longer than 75 octets continue on the next line after a space, never inside a UTF-8 character.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var out = ""
        var width = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if width + size > limit {
                out += "\r\n "
                width = 1
                limit = 75
            }
            out.unicodeScalars.append(scalar)
            width += size
        }
        return out
    }

    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return pad(p.year!, 4) + pad(p.month!, 2) + pad(p.day!, 2) + "T" + pad(p.hour!, 2) + pad(p.minute!, 2) + pad(p.second!, 2) + "Z"
    }

    static func compact(_ day: CalendarDay) -> String { pad(day.year, 4) + pad(day.month, 2) + pad(day.day, 2) }

    static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
