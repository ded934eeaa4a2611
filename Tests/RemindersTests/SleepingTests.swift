import Foundation
import Inventory
import TestSupport
import Testing

@testable import Reminders

/// No wall-clock upper bounds here: a loaded machine may run any of these late. What a wait
/// returns (rung or timed out) and how long a sleep is asked to last are asserted instead.
@Suite("Doorbell and sleepers")
struct SleepingTests {
    @Test func theSystemSleeperWakesAtTheDeadline() async throws {
        let sleeper = SystemSleeper(clock: .system)
        let started = ContinuousClock.now
        await sleeper.sleep(until: Date().addingTimeInterval(0.2), bell: Doorbell())
        let slept = ContinuousClock.now - started
        // A lower bound only: a timer never fires early, however loaded the machine.
        #expect(slept >= .milliseconds(150), "\(slept)")
    }

    @Test func theSystemSleeperWaitsUntilTheDeadlineByItsClock() {
        let clock = ManualClock()
        let sleeper = SystemSleeper(clock: clock.wall, longest: 900)
        #expect(sleeper.timeout(until: clock.now.addingTimeInterval(90)) == 90)
        #expect(sleeper.timeout(until: nil) == 900, "nothing scheduled: look again after the cap")
    }

    @Test func aRingEndsTheWaitEarly() async throws {
        let bell = Doorbell()
        ringSoon(bell)
        // The timeout is only a give-up: the ring must be what ends the wait.
        #expect(await bell.wait(timeout: 120) == .rung)
    }

    @Test func aRingBeforeTheWaitIsNotLost() async {
        let bell = Doorbell()
        bell.ring()
        #expect(await bell.wait(timeout: 120) == .rung)
        // One ring, one wake: the next wait times out.
        #expect(await bell.wait(timeout: 0.05) == .timedOut)
    }

    @Test func aLateTimerDoesNotEndALaterWait() async {
        let bell = Doorbell()
        #expect(await bell.wait(timeout: 0.01) == .timedOut)
        ringSoon(bell)
        #expect(await bell.wait(timeout: 120) == .rung)
    }

    @Test func aPastDeadlineDoesNotSleep() async {
        let clock = ManualClock()
        let sleeper = SystemSleeper(clock: clock.wall)
        #expect(sleeper.timeout(until: clock.now.addingTimeInterval(-10)) == nil)
        #expect(sleeper.timeout(until: clock.now) == nil)
        // And the sleep itself returns without a ring (it would wait for one otherwise).
        await sleeper.sleep(until: clock.now.addingTimeInterval(-10), bell: Doorbell())
    }

    @Test func aSleepIsCappedSoALateClockIsNoticed() async {
        // Deadline a day away, cap 0.1 s: the engine looks again after the cap.
        let clock = ManualClock()
        let sleeper = SystemSleeper(clock: clock.wall, longest: 0.1)
        #expect(sleeper.timeout(until: clock.now.addingTimeInterval(86400)) == 0.1)
        // The capped sleep ends by its timer, not by a ring (none comes).
        #expect(await Doorbell().wait(timeout: sleeper.timeout(until: clock.now.addingTimeInterval(86400))) == .timedOut)
    }

    /// Rings from a plain thread a moment from now. Not from a Task: with every suite running on
    /// two cooperative threads, a ringing task once waited past the 120 s give-up of the wait.
    func ringSoon(_ bell: Doorbell) {
        Thread.detachNewThread {
            usleep(50_000)
            bell.ring()
        }
    }
}
