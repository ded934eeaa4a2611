import Inventory

/// Timestamps and days written as their text in tests (`due: "2026-11-25"`); a malformed literal is
/// the test's own mistake and stops it at once. The app itself only reads them from text it checks.
extension Timestamp: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        guard let timestamp = Timestamp(text) else { preconditionFailure("\"\(text)\" is not a timestamp such as 2026-11-22T05:10:00Z") }
        self = timestamp
    }
}

extension CalendarDay: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        guard let day = CalendarDay(text) else { preconditionFailure("\"\(text)\" is not a day such as 2026-11-22") }
        self = day
    }
}
