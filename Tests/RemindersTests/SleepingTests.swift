import Foundation
import Inventory
import Testing

@testable import Reminders

@Suite("Doorbell and sleepers")
struct SleepingTests {
    @Test func theSystemSleeperWakesAtTheDeadline() async throws {
        let sleeper = SystemSleeper(clock: .system)
        let started = ContinuousClock.now
        await sleeper.sleep(until: Date().addingTimeInterval(0.2), bell: Doorbell())
        let slept = ContinuousClock.now - started
        #expect(slept >= .milliseconds(150), "\(slept)")
    }

    @Test func aRingEndsTheSleepEarly() async throws {
        let sleeper = SystemSleeper(clock: .system)
        let bell = Doorbell()
        let started = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(50))
            bell.ring()
        }
        await sleeper.sleep(until: Date().addingTimeInterval(3600), bell: bell)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aRingBeforeTheWaitIsNotLost() async {
        let bell = Doorbell()
        bell.ring()
        await bell.wait(timeout: nil)  // returns at once
        // One ring, one wake: the next wait times out.
        let started = ContinuousClock.now
        await bell.wait(timeout: 0.05)
        #expect(ContinuousClock.now - started >= .milliseconds(40))
    }

    @Test func aPastDeadlineDoesNotSleep() async {
        let sleeper = SystemSleeper(clock: .system)
        let started = ContinuousClock.now
        await sleeper.sleep(until: Date().addingTimeInterval(-10), bell: Doorbell())
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func aSleepIsCappedSoALateClockIsNoticed() async {
        // Deadline a day away, cap 0.1 s: the engine looks again after the cap.
        let sleeper = SystemSleeper(clock: .system, longest: 0.1)
        let started = ContinuousClock.now
        await sleeper.sleep(until: Date().addingTimeInterval(86400), bell: Doorbell())
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
