import Foundation

/// "YYYY-MM-DDTHH:MM" as a datetime-local field sends it, in a given time zone.
public enum LocalDateTime {
    public static func instant(_ text: String, in timeZone: TimeZone) -> Date? {
        let pieces = text.split(separator: "T")
        guard pieces.count == 2, let day = CalendarDay(String(pieces[0])) else { return nil }
        let clock = pieces[1].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2, (0...23).contains(clock[0]), (0...59).contains(clock[1]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: clock[0], minute: clock[1]))
    }

    /// The field's text for a stored instant.
    public static func text(_ instant: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(format: "%04d-%02d-%02dT%02d:%02d", p.year!, p.month!, p.day!, p.hour!, p.minute!)
    }
}
