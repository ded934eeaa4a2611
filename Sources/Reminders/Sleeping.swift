import Foundation
import Inventory
import Synchronization

/// Wakes the engine: a ring is remembered until the next wait, so none is lost between two waits.
public final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
        /// Counts waits, so a late timer cannot end a later wait.
        var generation = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// What ended a wait.
    public enum Wake: Sendable, Equatable { case rung, timedOut }

    public func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            state.generation += 1
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when rung (or at once if it was rung since the last wait), or after `timeout` seconds;
    /// says which, so a test can tell a ring from a timer without measuring time.
    @discardableResult
    public func wait(timeout: TimeInterval?) async -> Wake {
        let timedOut = Mutex(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let generation = state.withLock { state -> Int? in
                if state.rung {
                    state.rung = false
                    return nil
                }
                state.waiter = continuation
                return state.generation
            }
            guard let generation else {
                continuation.resume()
                return
            }
            guard let timeout else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [self] in
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard state.generation == generation, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    state.generation += 1
                    return waiter
                }
                guard let waiter else { return }
                timedOut.withLock { $0 = true }
                waiter.resume()
            }
        }
        return timedOut.withLock { $0 } ? .timedOut : .rung
    }
}

/// How the engine waits for its next instant: really (`SystemSleeper`) or as a test says (`ManualSleeper`).
public protocol Sleeper: Sendable {
    /// Returns at `deadline` by the engine's clock (nil: nothing scheduled), or earlier when `bell` rings.
    func sleep(until deadline: Date?, bell: Doorbell) async
}

/// Sleeps on a timer until the deadline. A sleep lasts at most `longest` seconds: a box without a
/// real-time clock may set its clock long after boot, and a deadline measured before that would be off.
public struct SystemSleeper: Sleeper {
    let clock: WallClock
    let longest: TimeInterval

    public init(clock: WallClock = .system, longest: TimeInterval = 15 * 60) {
        self.clock = clock
        self.longest = longest
    }

    public func sleep(until deadline: Date?, bell: Doorbell) async {
        guard let timeout = timeout(until: deadline) else { return }
        await bell.wait(timeout: timeout)
    }

    /// How long a sleep until `deadline` waits at most: nil when the deadline has passed, never
    /// more than `longest`.
    public func timeout(until deadline: Date?) -> TimeInterval? {
        let interval = deadline.map { $0.timeIntervalSince(clock.now()) } ?? longest
        guard interval > 0 else { return nil }
        return min(interval, longest)
    }
}

/// A sleeper for tests over a `ManualClock`: the engine sleeps until the test moves the clock past
/// its deadline (or something rings). Never waits for real time.
public final class ManualSleeper: Sleeper {
    public let clock: ManualClock
    private struct State {
        var deadline: Date?
        var bell: Doorbell?
        var sleeps = 0
        /// Wakes sent by `advance`, and how many of them the engine had seen when it last lay down.
        var wakes = 0
        var wakesSeenAsleep = -1
        var asleep = false
    }
    private let state = Mutex(State())

    public init(clock: ManualClock) { self.clock = clock }

    public func sleep(until deadline: Date?, bell: Doorbell) async {
        let due = state.withLock { state -> Bool in
            state.deadline = deadline
            state.bell = bell
            state.sleeps += 1
            let due = deadline.map { $0 <= clock.now } ?? false
            if !due {
                state.asleep = true
                state.wakesSeenAsleep = state.wakes
            }
            return due
        }
        if due { return }
        await bell.wait(timeout: nil)
        state.withLock { $0.asleep = false }
    }

    /// Moves the clock; wakes the engine when that passes its deadline.
    public func advance(_ seconds: TimeInterval) {
        clock.advance(seconds)
        let bell = state.withLock { state -> Doorbell? in
            guard let deadline = state.deadline, deadline <= clock.now else { return nil }
            state.wakes += 1
            return state.bell
        }
        bell?.ring()
    }

    /// True once the engine has gone back to sleep after the last wake `advance` sent: whatever
    /// that wake made it do is done. (Rings from elsewhere, such as a database change, are not counted.)
    public var isSettled: Bool { state.withLock { $0.asleep && $0.wakesSeenAsleep == $0.wakes } }

    /// Moves the clock to `date` (never back).
    public func advance(to date: Date) { advance(max(0, date.timeIntervalSince(clock.now))) }

    /// The instant the engine last asked to sleep until.
    public var deadline: Date? { state.withLock { $0.deadline } }
    /// How many times the engine went to sleep.
    public var sleeps: Int { state.withLock { $0.sleeps } }
}
