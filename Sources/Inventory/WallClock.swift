import Foundation

/// The current time, injectable so tests can move it (throttling, expiry, reminders).
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = WallClock { Date() }
}
