import Foundation
import Inventory
import Synchronization

/// Imported recipes kept in memory between the import's 303 and the editor that opens the draft,
/// as the editor's own values (`RecipeInput`, the picture already stored through the photo pipeline).
///
/// As `PendingImports`: bound to one household and one session by a random token the server made,
/// taken once (a reload of the editor after that shows an empty editor, not a second copy), kept
/// 30 minutes, at most 32 (the oldest go first), one per session (a new import replaces the
/// previous one). Nothing is written to the database before the person saves the editor; a photo
/// stored for a draft that is never saved is an orphan the photo store's collection removes.
public final class PendingRecipeDrafts: Sendable {
    struct Kept: Sendable {
        let householdId: Int64
        let sessionId: Int64
        let draft: RecipeInput
        let keptAt: Date
    }

    static let lifetime: TimeInterval = 30 * 60
    static let capacity = 32

    private let kept = Mutex<[String: Kept]>([:])
    private let clock: WallClock

    public init(clock: WallClock) { self.clock = clock }

    /// Keeps the draft for the member's session, replacing that session's earlier one; returns its token.
    func keep(_ draft: RecipeInput, for member: SignedIn) -> String {
        let token = Crypto.token()
        let now = clock.now()
        kept.withLock { kept in
            kept = kept.filter { $0.value.sessionId != member.sessionId && now.timeIntervalSince($0.value.keptAt) < Self.lifetime }
            while kept.count >= Self.capacity, let oldest = kept.min(by: { $0.value.keptAt < $1.value.keptAt })?.key {
                kept[oldest] = nil
            }
            kept[token] = Kept(
                householdId: member.householdId, sessionId: member.sessionId, draft: draft, keptAt: now)
        }
        return token
    }

    /// The draft behind `token` if it was made in this member's household and session and has not
    /// expired; taken out, so it is given once. Nil for anything else (wrong token, another session
    /// or household, expired, already taken): the editor then opens empty.
    public func take(token: String, session member: SignedIn) -> RecipeInput? {
        let now = clock.now()
        return kept.withLock { kept in
            guard let entry = kept[token], entry.householdId == member.householdId, entry.sessionId == member.sessionId else { return nil }
            kept[token] = nil
            return now.timeIntervalSince(entry.keptAt) < Self.lifetime ? entry.draft : nil
        }
    }

    var count: Int { kept.withLock { $0.count } }
}
