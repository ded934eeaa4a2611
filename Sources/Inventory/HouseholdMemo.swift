import GRDB
import Synchronization

/// One value per household worked out from its database, kept in memory until what it was read
/// from changes, shared by every request. `version` is a number in the household's row that
/// triggers advance whenever an input of the value changes, whoever writes (its change sequence,
/// its recipes' version); `key` is the rest of what the value depends on (the day it was read
/// for, the weeks it covers). Serves the meal plan's reservations, the recipe catalog and the
/// Household page's report: pages are read far more often than a household writes.
final class HouseholdMemo<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let version: Int64
        let key: Key
        let value: Value
    }

    private let kept = Mutex<[Household.ID: Entry]>([:])
    /// The most households kept (a server holds a few): past it, the others are read again.
    static var householdLimit: Int { 64 }

    init() {}

    /// The value for `householdId` at `version` and `key`, as of the caller's transaction: the
    /// kept one when both match, else `read()`'s, kept for the next reader.
    func value(_ db: Database, householdId: Household.ID, version: Int64, key: Key, read: () throws -> Value) rethrows -> Value {
        if let entry = kept.withLock({ $0[householdId] }), entry.version == version, entry.key == key { return entry.value }
        let value = try read()
        // What a write transaction reads may never be committed; a request that read an older
        // snapshot does not replace a newer entry.
        guard !db.isInWriteTransaction else { return value }
        kept.withLock { kept in
            if let entry = kept[householdId], entry.version > version { return }
            if kept[householdId] == nil, kept.count >= Self.householdLimit { kept.removeAll() }
            kept[householdId] = Entry(version: version, key: key, value: value)
        }
        return value
    }
}

/// The key of a value that depends on its version alone.
struct VersionOnly: Equatable, Sendable {}
