import Foundation
import GRDB

/// A calendar date with no time zone ("2026-11-22"), as due dates are.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int

    /// Exactly "YYYY-MM-DD" in ASCII digits, and a day that exists.
    public init?(_ text: String) {
        var text = text
        guard let day = text.withUTF8({ CalendarDay(utf8: $0) }) else { return nil }
        self = day
    }

    /// `init(_:)` over the text's bytes, read in place (a `Timestamp` reads its first ten).
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            let y = ASCIIDigits.read(bytes, 0..<4), let m = ASCIIDigits.read(bytes, 5..<7), let d = ASCIIDigits.read(bytes, 8..<10),
            (1900...9999).contains(y), (1...12).contains(m), d >= 1, d <= Self.daysIn(month: m, year: y)
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }

    /// Today in `timeZone`.
    public static func today(in timeZone: TimeZone, now: Date) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    public func adding(days: Int) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(byAdding: .day, value: days, to: start(in: .gmt))!
        return CalendarDay.today(in: .gmt, now: date)
    }

    public var next: CalendarDay { adding(days: 1) }

    /// The same day `months` months later, or the month's last day when it has no such day
    /// (31 January + 1 month is 28 or 29 February).
    public func adding(months: Int) -> CalendarDay {
        let index = year * 12 + (month - 1) + months
        let (y, m) = (index / 12, index % 12 + 1)
        return CalendarDay(year: y, month: m, day: min(day, Self.daysIn(month: m, year: y)))
    }

    /// Days from `other` to this day: 2 when this is the day after tomorrow of `other`, −2 two days before.
    public func days(since other: CalendarDay) -> Int { dayNumber - other.dayNumber }

    /// Days since 1970-01-01 (negative before), by the proleptic Gregorian calendar; plain
    /// arithmetic, since every row of a list asks.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The day `dayNumber` days after 1970-01-01 (the inverse of `dayNumber`, plain arithmetic too).
    init(dayNumber: Int) {
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    }

    /// Midnight at the start of this day in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// "YYYY-MM-DD", written in place: list pages write one or more per row.
    public var description: String {
        guard (0...9999).contains(year) else {
            // Only arithmetic far from any stored day (which has four digits) comes here: the year
            // as it is, padded to four digits, then "-MM-DD".
            let digits = String(year)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + description(year: 0).dropFirst(4)
        }
        return description(year: year)
    }

    /// The text with `year` for the year, which has four digits.
    private func description(year: Int) -> String {
        String(unsafeUninitializedCapacity: 10) { bytes in
            ASCIIDigits.write(year, width: 4, at: 0, in: bytes)
            bytes[4] = 0x2D
            ASCIIDigits.write(month, width: 2, at: 5, in: bytes)
            bytes[7] = 0x2D
            ASCIIDigits.write(day, width: 2, at: 8, in: bytes)
            return 10
        }
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A month of the Gregorian calendar ("2026-11").
public struct CalendarMonth: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    /// Exactly "YYYY-MM" with ASCII digits, in the years a due date can have.
    public init?(_ text: String) {
        guard text.utf8.count == 7, let first = CalendarDay(text + "-01") else { return nil }
        (year, month) = (first.year, first.month)
    }

    public init(_ day: CalendarDay) { (year, month) = (day.year, day.month) }

    public var first: CalendarDay { CalendarDay(year: year, month: month, day: 1) }
    public var last: CalendarDay { CalendarDay(year: year, month: month, day: dayCount) }
    public var dayCount: Int { CalendarDay.daysIn(month: month, year: year) }

    /// The months before and after, within the years a due date can have.
    public var previous: CalendarMonth? {
        let (y, m) = month == 1 ? (year - 1, 12) : (year, month - 1)
        return y < 1900 ? nil : CalendarMonth(year: y, month: m)
    }

    public var next: CalendarMonth? {
        let (y, m) = month == 12 ? (year + 1, 1) : (year, month + 1)
        return y > 9999 ? nil : CalendarMonth(year: y, month: m)
    }

    public func contains(_ day: CalendarDay) -> Bool { day.year == year && day.month == month }

    public func day(_ number: Int) -> CalendarDay { CalendarDay(year: year, month: month, day: number) }

    init(year: Int, month: Int) { (self.year, self.month) = (year, month) }

    public var description: String { String(first.description.prefix(7)) }

    public static func < (a: CalendarMonth, b: CalendarMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }
}

/// Fixed-width decimal numbers read and written in place, for the texts of days and timestamps:
/// pages read and write several per row, and building them from `String(n)`, padding and
/// interpolation cost an allocation or more per piece.
enum ASCIIDigits {
    /// The number `range` of `bytes` spells, or nil when one of them is not a digit 0–9.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    /// Writes `value` (not negative, below 10^width) as `width` digits, zero-padded, from `offset` on.
    static func write(_ value: Int, width: Int, at offset: Int, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        var rest = value
        for index in (offset..<offset + width).reversed() {
            bytes[index] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }
}

extension CalendarDay {
    /// 0 for Sunday … 6 for Saturday (Sakamoto's method: no Calendar, no time zone).
    public var weekday: Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
    }
}

/// Bound, read and encoded as its text ("2026-11-22").
extension CalendarDay: StoredAsText {
    public static let textExample = "a day such as 2026-11-22"
}
