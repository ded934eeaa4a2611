import Foundation
import GRDB

/// An instant as Zaiko keeps it: to the whole second, stored as UTC ISO-8601 text
/// ("2026-11-22T05:10:00Z", as SQLite's `strftime('%Y-%m-%dT%H:%M:%SZ')` writes it), which sorts as
/// time does. Keeping only whole seconds makes a timestamp read back from its column equal the one
/// written, and lets records compare instants rather than their text.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let secondsSince1970: Int64

    /// The second `date` falls in (its fraction dropped, as the text always did).
    public init(_ date: Date) { secondsSince1970 = Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// Exactly "YYYY-MM-DDTHH:MM:SSZ" in ASCII digits, at a day that exists (years 1900–9999) and
    /// a time of day that exists.
    public init?(_ text: String) {
        var text = text
        guard let timestamp = text.withUTF8({ Timestamp(utf8: $0) }) else { return nil }
        self = timestamp
    }

    /// `init(_:)` over the text's bytes, read in place: list pages read several per row.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 20, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
            let day = CalendarDay(utf8: UnsafeBufferPointer(rebasing: bytes[0..<10])),
            let hour = ASCIIDigits.read(bytes, 11..<13), let minute = ASCIIDigits.read(bytes, 14..<16),
            let second = ASCIIDigits.read(bytes, 17..<19), hour < 24, minute < 60, second < 60
        else { return nil }
        secondsSince1970 = Int64(day.dayNumber) * 86400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The current second by the system's clock: a record's default; code with a `WallClock` uses
    /// `Timestamp(clock.now())`.
    public static func now() -> Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSince1970)) }

    public func adding(seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: secondsSince1970 + seconds) }

    private init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    /// The stored text, written in place with no `DateFormatter` or `Calendar`: list pages and the
    /// item editor's hidden fields write several per request.
    public var description: String {
        let (days, second) = secondsSince1970.quotientAndRemainder(dividingBy: 86400)
        let (dayNumber, secondOfDay) = second < 0 ? (days - 1, Int(second) + 86400) : (days, Int(second))
        let clock = String(unsafeUninitializedCapacity: 10) { bytes in
            bytes[0] = 0x54
            ASCIIDigits.write(secondOfDay / 3600, width: 2, at: 1, in: bytes)
            bytes[3] = 0x3A
            ASCIIDigits.write(secondOfDay % 3600 / 60, width: 2, at: 4, in: bytes)
            bytes[6] = 0x3A
            ASCIIDigits.write(secondOfDay % 60, width: 2, at: 7, in: bytes)
            bytes[9] = 0x5A
            return 10
        }
        return CalendarDay(dayNumber: Int(dayNumber)).description + clock
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSince1970 < b.secondsSince1970 }
}

/// Bound, read and encoded as its text.
extension Timestamp: StoredAsText {
    public static let textExample = "a timestamp such as 2026-11-22T05:10:00Z"
}
