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

/// The clock of the browser tests (`ZAIKO_TEST_CLOCK`): a file holds an instant ("2026-11-26T12:00:00Z")
/// and the clock runs on from it at the real rate, counted from the file's modification time. A test
/// moves it by writing a new instant; every process reading the file agrees on the time.
/// `real` is the time it runs on with (the system's; a test of the clock itself gives a manual one).
public final class FileClock: Sendable {
    /// Why the file cannot serve as a clock, told as one sentence.
    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    public let file: URL
    private let real: WallClock
    /// The instant read last and the modification time it was read at: read again when the file changes.
    private let cached = Mutex<(modified: Date, instant: Date)?>(nil)

    /// Fails when the file is missing or does not hold an ISO-8601 instant.
    public init(file: URL, real: WallClock = .system) throws {
        self.file = file
        self.real = real
        _ = try reading()
    }

    public var now: Date {
        // A file that turns unreadable mid-run (a test writing it) keeps the last instant read.
        let realNow = real.now()
        if let reading = try? reading() { return reading.instant.addingTimeInterval(realNow.timeIntervalSince(reading.modified)) }
        return cached.withLock { $0.map { $0.instant.addingTimeInterval(realNow.timeIntervalSince($0.modified)) } } ?? realNow
    }

    public var wall: WallClock { WallClock { [self] in now } }

    private func reading() throws -> (modified: Date, instant: Date) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        guard let modified = attributes?[.modificationDate] as? Date else {
            throw Unreadable(description: "\(file.path) (ZAIKO_TEST_CLOCK) cannot be read.")
        }
        if let cached = cached.withLock({ $0 }), cached.modified == modified { return cached }
        let text = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // ISO-8601 with or without a fraction of a second (the browser tests write microseconds).
        guard let instant = try? Date(text, strategy: .iso8601) else {
            throw Unreadable(description: "\(file.path) (ZAIKO_TEST_CLOCK) must hold an instant such as 2026-11-26T12:00:00Z, not \"\(text)\".")
        }
        cached.withLock { $0 = (modified, instant) }
        return (modified, instant)
    }
}
