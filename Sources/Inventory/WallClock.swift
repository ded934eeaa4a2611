import Foundation
import Synchronization

/// The current time, injectable so tests can move it (throttling, expiry, reminders).
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = WallClock { Date() }
}

/// A clock that only moves when told to: for tests, and for anything that must replay time.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }

    public var now: Date { current.withLock { $0 } }
    public func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    public var wall: WallClock { WallClock { [self] in now } }
}
