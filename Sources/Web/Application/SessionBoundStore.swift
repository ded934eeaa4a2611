import Foundation
import Inventory
import Synchronization

/// A value kept in memory between two requests says how many bytes it holds, so the store can
/// keep a budget.
public protocol HeldInMemory: Sendable {
    /// About how many bytes the value holds (its text and data; small fixed parts do not matter).
    var heldBytes: Int { get }
}

/// How much a `SessionBoundStore` holds.
struct PendingStoreLimits: Sendable {
    /// Values one household keeps at once (one per session; its oldest go first).
    var perHousehold: Int
    /// Bytes one household's values hold at most.
    var householdBytes: Int
    /// Bytes every household's values together hold at most.
    var totalBytes: Int

    /// Room for several previews of the largest CSV file (4 MiB) per household; a server with
    /// a handful of households stays well under `totalBytes`.
    static let standard = PendingStoreLimits(perHousehold: 8, householdBytes: 16 * 1024 * 1024, totalBytes: 96 * 1024 * 1024)
}

/// Values that wait in memory between two requests of one person: an uploaded CSV file until its
/// preview is confirmed, an imported recipe until the editor opens it.
///
/// Memory rather than a folder on disk: a value is small, waits for minutes, and is bound to one
/// household and one session by a random token the server made, so no path ever comes from the
/// client, nothing with a household's data is left on disk when the server stops, and there is
/// nothing to clean up after a crash (a restart only means doing it again). Each session keeps its
/// latest value only; values expire after `lifetime`.
///
/// Every household has its own room (`PendingStoreLimits.perHousehold` values, `.householdBytes`): a new
/// value pushes out the oldest of its own household only, never another household's. The whole
/// store holds at most `PendingStoreLimits.totalBytes`; a value that does not fit is refused (`keep` answers
/// nil) and the page says so, rather than taking room from another household.
/// A value is taken once: a confirmation sent twice (a double tap) acts once.
public final class SessionBoundStore<Value: HeldInMemory>: Sendable {
    struct Kept: Sendable {
        let householdId: Household.ID
        let sessionId: Int64
        let value: Value
        let keptAt: Date
    }

    static var lifetime: TimeInterval { 30 * 60 }

    private let kept = Mutex<[String: Kept]>([:])
    private let clock: WallClock
    let limits: PendingStoreLimits

    init(clock: WallClock, limits: PendingStoreLimits = .standard) {
        self.clock = clock
        self.limits = limits
    }

    /// Keeps `value` for the member's session, replacing that session's earlier one; returns its
    /// token, or nil when there is no room for it (see the type's comment).
    func keep(_ value: Value, for member: SignedIn) -> String? {
        keep(value, householdId: member.household.householdId, sessionId: member.sessionId)
    }

    func keep(_ value: Value, householdId: Household.ID, sessionId: Int64) -> String? {
        let size = value.heldBytes
        guard size <= limits.householdBytes else { return nil }
        let token = Crypto.token()
        let now = clock.now()
        return kept.withLock { kept -> String? in
            // Expired values and this session's earlier one are of no use to anyone.
            kept = kept.filter { $0.value.sessionId != sessionId && now.timeIntervalSince($0.value.keptAt) < Self.lifetime }
            // Room is made inside the household only, oldest first.
            var own = kept.filter { $0.value.householdId == householdId }.sorted { $0.value.keptAt < $1.value.keptAt }
            var ownBytes = own.reduce(0) { $0 + $1.value.value.heldBytes }
            while !own.isEmpty, own.count >= limits.perHousehold || ownBytes + size > limits.householdBytes {
                let oldest = own.removeFirst()
                ownBytes -= oldest.value.value.heldBytes
                kept[oldest.key] = nil
            }
            let totalBytes = kept.values.reduce(0) { $0 + $1.value.heldBytes }
            guard totalBytes + size <= limits.totalBytes else { return nil }
            kept[token] = Kept(householdId: householdId, sessionId: sessionId, value: value, keptAt: now)
            return token
        }
    }

    /// The value behind `token` if it was kept in this member's household and session and has not
    /// expired, taken out; nil for anything else (wrong token, another session or household,
    /// expired, already taken).
    public func take(_ token: String, for member: SignedIn) -> Value? {
        take(token, householdId: member.household.householdId, sessionId: member.sessionId)
    }

    func take(_ token: String, householdId: Household.ID, sessionId: Int64) -> Value? {
        let now = clock.now()
        return kept.withLock { kept in
            guard let entry = kept[token], entry.householdId == householdId, entry.sessionId == sessionId else { return nil }
            kept[token] = nil
            return now.timeIntervalSince(entry.keptAt) < Self.lifetime ? entry.value : nil
        }
    }

    var count: Int { kept.withLock { $0.count } }

    /// Bytes held now (expired values included until the next `keep`).
    var heldBytes: Int { kept.withLock { $0.values.reduce(0) { $0 + $1.value.heldBytes } } }
}
