import Foundation
import GRDB
import Synchronization

/// One change to a household's folder, item, product, recipe or meal, as the change feed recorded it
/// (table `change_record`, written by the triggers of `Schema.v16` and, for meals, `v22`, whoever wrote).
public struct Change: Sendable, Equatable {
    /// What changed, by its typed id.
    public enum Entity: Sendable, Hashable {
        case folder(Folder.ID)
        case item(Item.ID)
        case product(Product.ID)
        /// The recipe itself, one of its ingredients or one of its tags.
        case recipe(Recipe.ID)
        /// A meal of the plan: placed, moved, changed, cooked, skipped or removed.
        case meal(Meal.ID)
    }

    /// What happened to the row. Moving to the trash and back out of it is `changed`, with `inTrash`
    /// saying where it is now; `deleted` is gone for good (purged, forgotten, deleted with its folder).
    public enum Kind: String, Sendable {
        case created, changed, deleted
    }

    /// The household's sequence number after this change: strictly increasing within the household.
    public let sequence: Int64
    public let entity: Entity
    public let kind: Kind
    /// Items and recipes: their `version` after the change (a row already showing it needs nothing).
    public let version: Int?
    /// Folders, items and recipes: in the trash after the change.
    public let inTrash: Bool
    /// Items: the folder before the change (nil when created) and after it (nil when deleted for
    /// good); they differ for a move, so a list the row left knows it. Nil for the other entities.
    public let fromFolderId: Folder.ID?
    public let toFolderId: Folder.ID?
    /// Who made it: nil for a write that named no member (another process, sqlite3 by hand, a
    /// maintenance write) and for a member removed since.
    public let memberId: Member.ID?
    public let memberName: String?
    public let at: Timestamp

    public init(
        sequence: Int64, entity: Entity, kind: Kind, version: Int? = nil, inTrash: Bool = false, fromFolderId: Folder.ID? = nil,
        toFolderId: Folder.ID? = nil, memberId: Member.ID? = nil, memberName: String? = nil, at: Timestamp
    ) {
        self.sequence = sequence
        self.entity = entity
        self.kind = kind
        self.version = version
        self.inTrash = inTrash
        self.fromFolderId = fromFolderId
        self.toFolderId = toFolderId
        self.memberId = memberId
        self.memberName = memberName
        self.at = at
    }
}

/// What a reader that saw everything up to a sequence number missed since.
public enum ChangesSince: Sendable, Equatable {
    /// The changes after it, oldest first, at most the limit asked for (more when the last one's
    /// `sequence` is below `latest`), and the household's latest sequence number.
    case changes([Change], latest: Int64)
    /// The feed no longer holds every change after it (the oldest were dropped), or the number is
    /// ahead of the household's (the database went back, a restore): the reader starts again from
    /// what is there now, at `latest`.
    case tooFarBehind(latest: Int64)
}

/// The household's change feed: what changed since a sequence number, for the live updates of
/// open pages, and a call after every commit that advanced a household's sequence.
///
/// Records are written by triggers, so every writer is covered; a named write (`AppDatabase.write(by:at:)`)
/// says who and when. A record is one row's change: an item changed twice in one transaction leaves
/// two records (the later with the later version), except that the ingredients and tags a recipe
/// save rewrites are recorded as that recipe's change once. The feed keeps each household's last
/// 5,000 records of the last 14 days: each record written drops the oldest one beyond that.
public struct ChangeFeed: Sendable {
    let database: AppDatabase

    /// The most changes one answer holds.
    public static let maximumLimit = 500

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The household's latest sequence number (0 before its first change).
    public func latestSequence(in scope: HouseholdScope) throws -> Int64 {
        try database.writer.read { db in try Self.latest(db, scope.householdId) }
    }

    static func latest(_ db: Database, _ householdId: Household.ID) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_sequence FROM household WHERE id = ?"), arguments: [householdId]) ?? 0
    }

    /// The changes after `since`, oldest first, at most `limit` (1…`maximumLimit`), read in one snapshot.
    public func changes(since: Int64, in scope: HouseholdScope, limit: Int = maximumLimit) throws -> ChangesSince {
        let limit = min(max(limit, 1), Self.maximumLimit)
        return try database.writer.read { db in
            let latest = try Self.latest(db, scope.householdId)
            if since == latest { return .changes([], latest: latest) }
            // Records are numbered without gaps and the oldest go first: the reader missed nothing
            // when the oldest kept is the one right after `since`.
            let oldest =
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT MIN(seq) FROM change_record WHERE household_id = ?"), arguments: [scope.householdId])
            guard since < latest, since >= 0, let oldest, oldest <= since + 1 else { return .tooFarBehind(latest: latest) }
            let changes = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.seq, c.entity, c.entity_id, c.kind, c.version, c.from_folder_id, c.to_folder_id, c.in_trash, c.member_id, c.at,
                            m.name AS member_name
                        FROM change_record c LEFT JOIN member m ON m.id = c.member_id AND m.household_id = c.household_id
                        WHERE c.household_id = ? AND c.seq > ? ORDER BY c.seq LIMIT ?
                        """), arguments: [scope.householdId, since, limit]
            ).map(Self.change(_:))
            return .changes(changes, latest: latest)
        }
    }

    static func change(_ row: Row) throws -> Change {
        let id: Int64 = row["entity_id"]
        let entity: Change.Entity
        switch row["entity"] as String {
        case "folder": entity = .folder(Folder.ID(id))
        case "item": entity = .item(Item.ID(id))
        case "product": entity = .product(Product.ID(id))
        case "recipe": entity = .recipe(Recipe.ID(id))
        case "meal": entity = .meal(Meal.ID(id))
        case let other: throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "a change to an unknown entity \(other)")
        }
        guard let kind = Change.Kind(rawValue: row["kind"]) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "a change of an unknown kind")
        }
        return Change(
            sequence: row["seq"], entity: entity, kind: kind, version: row["version"], inTrash: row["in_trash"], fromFolderId: row["from_folder_id"],
            toFolderId: row["to_folder_id"], memberId: row["member_id"], memberName: row["member_name"], at: try row.decode(forColumn: "at"))
    }

    /// Calls `listener` after every commit that advanced a household's sequence, once per household,
    /// with its latest number; never for a transaction rolled back. It runs on the writing thread
    /// right after the commit, before that thread writes again: it must only wake what waits (the
    /// open event streams, which then read `changes(since:)` themselves), never read or write the
    /// database or wait.
    public func onCommit(_ listener: @escaping @Sendable (Household.ID, Int64) -> Void) {
        database.committedChanges.add(listener)
    }
}

/// Tells the listeners of `ChangeFeed.onCommit` which households' sequences a commit advanced: a
/// transaction observer of `household.change_sequence`, which the triggers move with each record.
final class CommittedChanges: TransactionObserver, Sendable {
    private let listeners = Mutex<[@Sendable (Household.ID, Int64) -> Void]>([])
    /// The households the transaction under way advanced (only the writing thread touches it).
    private let advanced = Mutex<Set<Household.ID>>([])

    func add(_ listener: @escaping @Sendable (Household.ID, Int64) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard case .update(let table, let columns) = eventKind else { return false }
        return table == "household" && columns.contains("change_sequence")
    }

    func databaseDidChange(with event: DatabaseEvent) {
        _ = advanced.withLock { $0.insert(Household.ID(event.rowID)) }
    }

    func databaseDidCommit(_ db: Database) {
        let households = advanced.withLock { households in
            defer { households.removeAll() }
            return households
        }
        let listeners = listeners.withLock { $0 }
        guard !households.isEmpty, !listeners.isEmpty else { return }
        for household in households.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let latest = try? ChangeFeed.latest(db, household) else { continue }
            for listener in listeners { listener(household, latest) }
        }
    }

    func databaseDidRollback(_ db: Database) {
        advanced.withLock { $0.removeAll() }
    }
}
