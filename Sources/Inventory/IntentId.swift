import GRDB

/// The id a phone gives an action it made without a network (a quick action, an item added by
/// name), kept with the action until the server has it. The phone sends the action again until
/// an answer arrives; the server remembers the ids it applied, so an action whose answer was lost
/// on the way is recognised when it comes again and is not applied twice.
public struct IntentId: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// 8 to 64 letters, digits and hyphens (a `crypto.randomUUID()` is 36); anything else is no id.
    public init?(_ text: String?) {
        guard let text, (8...64).contains(text.utf8.count),
            text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }

    /// How many ids each member's phones are remembered by (the newest).
    static let remembered = 5_000
}

extension Items {
    /// Whether `intent` was applied for this member: an action that takes its item off a list (a
    /// purchase) is recognised when it comes again although the item is no longer there.
    public func wasApplied(_ intent: IntentId, by memberId: Member.ID) throws -> Bool {
        try database.writer.read { db in try AppDatabase.wasApplied(db, intent, by: memberId) }
    }
}

extension AppDatabase {
    /// `write(by:at:)` for an action a phone may send more than once: when `intent` was applied
    /// for this member before, nothing is written and `InventoryError.alreadyApplied` is thrown;
    /// otherwise the id is remembered in the same transaction as the action, so the action and the
    /// memory of it are saved together or not at all. Without an id, a plain named write.
    func write<T>(by memberId: Member.ID, at time: Timestamp, intent: IntentId?, _ updates: (Database) throws -> T) throws -> T {
        try write(by: memberId, at: time) { db in
            guard let intent else { return try updates(db) }
            if try Self.wasApplied(db, intent, by: memberId) { throw InventoryError.alreadyApplied }
            let result = try updates(db)
            try db.cachedStatement(sql: "INSERT INTO applied_intent (member_id, intent_id, applied_at) VALUES (?, ?, ?)")
                .execute(arguments: [memberId, intent.rawValue, time])
            try db.cachedStatement(
                sql: """
                    DELETE FROM applied_intent WHERE member_id = ?1 AND rowid <=
                        (SELECT rowid FROM applied_intent WHERE member_id = ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ?2)
                    """
            ).execute(arguments: [memberId, IntentId.remembered])
            return result
        }
    }

    static func wasApplied(_ db: Database, _ intent: IntentId, by memberId: Member.ID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM applied_intent WHERE member_id = ? AND intent_id = ?)"),
            arguments: [memberId, intent.rawValue]) ?? false
    }
}
