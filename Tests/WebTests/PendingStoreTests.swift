import Foundation
import Inventory
import Testing

@testable import Web

/// The store of pending CSV previews and recipe drafts: every household has its own room, and the
/// bytes it holds are bounded (issue 22, item 5).
@Suite struct PendingStoreTests {
    struct Blob: HeldInMemory {
        let heldBytes: Int
    }

    let clock = ManualClock()
    let householdA: Household.ID = 1
    let householdB: Household.ID = 2

    @Test func anotherHouseholdsPreviewsNeverPushOutAPendingUpload() {
        let store = SessionBoundStore<Blob>(clock: clock.wall)
        let waiting = store.keep(Blob(heldBytes: 1000), householdId: householdA, sessionId: 1)
        #expect(waiting != nil)
        // Household B opens 32 previews from 32 sessions, as the review did.
        for session in 100..<132 {
            clock.advance(1)
            _ = store.keep(Blob(heldBytes: 1000), householdId: householdB, sessionId: Int64(session))
        }
        #expect(store.take(waiting!, householdId: householdA, sessionId: 1) != nil, "A's upload is still there")
        #expect(store.count <= store.limits.perHousehold, "B kept only its own room")
    }

    @Test func aHouseholdPushesOutItsOwnOldestWhenItsRoomIsFull() {
        let store = SessionBoundStore<Blob>(clock: clock.wall, limits: .init(perHousehold: 2, householdBytes: 10_000, totalBytes: 100_000))
        let first = store.keep(Blob(heldBytes: 10), householdId: householdA, sessionId: 1)!
        clock.advance(1)
        let second = store.keep(Blob(heldBytes: 10), householdId: householdA, sessionId: 2)!
        clock.advance(1)
        let third = store.keep(Blob(heldBytes: 10), householdId: householdA, sessionId: 3)!
        #expect(store.take(first, householdId: householdA, sessionId: 1) == nil)
        #expect(store.take(second, householdId: householdA, sessionId: 2) != nil)
        #expect(store.take(third, householdId: householdA, sessionId: 3) != nil)
    }

    @Test func theHouseholdByteBudgetIsKeptByPushingOutItsOwnOldest() {
        let store = SessionBoundStore<Blob>(clock: clock.wall, limits: .init(perHousehold: 8, householdBytes: 3000, totalBytes: 100_000))
        let tokens = (1...3).map { session -> String in
            clock.advance(1)
            return store.keep(Blob(heldBytes: 1000), householdId: householdA, sessionId: Int64(session))!
        }
        let fourth = store.keep(Blob(heldBytes: 1500), householdId: householdA, sessionId: 4)
        #expect(fourth != nil)
        #expect(store.heldBytes <= 3000)
        #expect(store.take(tokens[0], householdId: householdA, sessionId: 1) == nil)
        #expect(store.take(tokens[1], householdId: householdA, sessionId: 2) == nil)
        #expect(store.take(tokens[2], householdId: householdA, sessionId: 3) != nil)
        #expect(store.keep(Blob(heldBytes: 3001), householdId: householdA, sessionId: 5) == nil, "larger than the household's room: refused")
    }

    @Test func theServerWideBudgetRefusesRatherThanTakingAnotherHouseholdsRoom() {
        let store = SessionBoundStore<Blob>(clock: clock.wall, limits: .init(perHousehold: 8, householdBytes: 3000, totalBytes: 4000))
        let a = store.keep(Blob(heldBytes: 3000), householdId: householdA, sessionId: 1)
        #expect(a != nil)
        #expect(store.keep(Blob(heldBytes: 1500), householdId: householdB, sessionId: 2) == nil, "refused: no room left on the server")
        #expect(store.heldBytes <= 4000)
        #expect(store.take(a!, householdId: householdA, sessionId: 1) != nil)
        #expect(store.keep(Blob(heldBytes: 1500), householdId: householdB, sessionId: 2) != nil, "room again once A's was taken")
        clock.advance(31 * 60)
        #expect(store.keep(Blob(heldBytes: 3000), householdId: householdA, sessionId: 1) != nil, "expired values make room")
    }

    @Test func theStandardRoomHoldsTheLargestCSVFile() {
        let limits = PendingStoreLimits.standard
        #expect(limits.householdBytes >= 2 * 4 * 1024 * 1024)
        #expect(limits.totalBytes >= limits.householdBytes)
    }
}
