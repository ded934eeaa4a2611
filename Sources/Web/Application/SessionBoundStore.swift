import Foundation
import Inventory
import Synchronization

/// Values that wait in memory between two requests of one person: an uploaded CSV file until its
/// preview is confirmed, an imported recipe until the editor opens it.
///
/// Memory rather than a folder on disk: a value is small, waits for minutes, and is bound to one
/// household and one session by a random token the server made, so no path ever comes from the
/// client, nothing with a household's data is left on disk when the server stops, and there is
/// nothing to clean up after a crash (a restart only means doing it again). Each session keeps its
/// latest value only; values expire after `lifetime`, and the oldest go first beyond `capacity`.
/// A value is taken once: a confirmation sent twice (a double tap) acts once.
public final class SessionBoundStore<Value: Sendable>: Sendable {
    struct Kept: Sendable {
        let householdId: Int64
        let sessionId: Int64
        let value: Value
        let keptAt: Date
    }

    static var lifetime: TimeInterval { 30 * 60 }
    static var capacity: Int { 32 }

    private let kept = Mutex<[String: Kept]>([:])
    private let clock: WallClock

    public init(clock: WallClock) { self.clock = clock }

    /// Keeps `value` for the member's session, replacing that session's earlier one; returns its token.
    func keep(_ value: Value, for member: SignedIn) -> String {
        let token = Crypto.token()
        let now = clock.now()
        kept.withLock { kept in
            kept = kept.filter { $0.value.sessionId != member.sessionId && now.timeIntervalSince($0.value.keptAt) < Self.lifetime }
            while kept.count >= Self.capacity, let oldest = kept.min(by: { $0.value.keptAt < $1.value.keptAt })?.key {
                kept[oldest] = nil
            }
            kept[token] = Kept(householdId: member.householdId, sessionId: member.sessionId, value: value, keptAt: now)
        }
        return token
    }

    /// The value behind `token` if it was kept in this member's household and session and has not
    /// expired, taken out; nil for anything else (wrong token, another session or household,
    /// expired, already taken).
    public func take(_ token: String, for member: SignedIn) -> Value? {
        let now = clock.now()
        return kept.withLock { kept in
            guard let entry = kept[token], entry.householdId == member.householdId, entry.sessionId == member.sessionId else { return nil }
            kept[token] = nil
            return now.timeIntervalSince(entry.keptAt) < Self.lifetime ? entry.value : nil
        }
    }

    var count: Int { kept.withLock { $0.count } }
}
