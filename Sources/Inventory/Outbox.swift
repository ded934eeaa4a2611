import Foundation
import GRDB
import Tagged

/// A message in the outbox.
public struct PushMessage: Sendable, Equatable, Identifiable {
    /// An outbox message's id (table `push_message`).
    public typealias ID = Tagged<PushMessage, Int64>

    public enum State: String, Sendable { case pending, sent, failed }
    public let id: ID
    public let householdId: Household.ID
    public let kind: String
    public let title: String
    public let body: String
    public let items: [PushItem]
    public let state: State
    public let attempts: Int
    public let nextAttemptAt: Timestamp
    public let lastError: PushFailure?
    public let createdAt: Timestamp
    public let sentAt: Timestamp?

    public init(row: Row) throws {
        id = row["id"]
        householdId = row["household_id"]
        kind = row["kind"]
        title = row["title"]
        body = row["body"]
        items = (try? JSONDecoder().decode([PushItem].self, from: Data((row["items"] as String? ?? "[]").utf8))) ?? []
        state = State(rawValue: row["state"]) ?? .pending
        attempts = row["attempts"]
        nextAttemptAt = try row.decode(forColumn: "next_attempt_at")
        lastError = (row["last_error"] as String?).map(PushFailure.init(stored:))
        createdAt = try row.decode(forColumn: "created_at")
        sentAt = try row.decode(forColumn: "sent_at")
    }
}

/// What settings shows about the channel: the last message sent, the last failure, what waits.
public struct PushStatus: Sendable, Equatable {
    public var lastSentAt: Timestamp?
    public var lastError: PushFailure?
    public var lastErrorAt: Timestamp?
    /// Messages waiting for a retry, and the earliest retry.
    public var waiting: Int = 0
    public var nextRetryAt: Timestamp?
    /// Messages given up after every retry.
    public var failed: Int = 0
}

extension PushMessage {
    /// The engine has tried it at least once (or it was dropped): a test's outcome is known.
    public var attempted: Bool { state != .pending || attempts > 0 }
}

/// The household's outbox of push messages, and every transaction on it: enqueue, claim what is
/// due, record a success or a failure with its next attempt, drop, report. The reminder engine and
/// the settings page both go through here; no one else writes `push_message`.
public struct Outbox: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// "Send a test" is limited per household: at most this many tests…
    public static let testsPerWindow = 5
    /// …in this many seconds.
    public static let testWindow: TimeInterval = 10 * 60

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    // MARK: - Enqueue

    /// Puts a message in the outbox, due at once (inside the caller's transaction).
    @discardableResult
    static func enqueue(_ db: Database, householdId: Household.ID, kind: String, title: String, body: String, items: [PushItem], at time: Date) throws
        -> PushMessage.ID
    {
        let json = String(decoding: (try? JSONEncoder().encode(items)) ?? Data("[]".utf8), as: UTF8.self)
        let stamp = Timestamp(time)
        try db.execute(
            sql: """
                INSERT INTO push_message (household_id, kind, title, body, items, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [householdId, kind, title, body, json, stamp, stamp])
        return PushMessage.ID(rawValue: db.lastInsertedRowID)
    }

    /// Queues a test message for the engine to send now; its id, to follow how it went. Refused
    /// without a channel (`push`) and past `testsPerWindow` tests in `testWindow` (`push_test`).
    public func enqueueTest(in scope: HouseholdScope, title: String, body: String) throws -> PushMessage.ID {
        let now = clock.now()
        return try database.writer.write { db in
            guard try PushChannels.channel(db, scope.householdId) != nil else { throw InventoryError.validation(["push": .pushNoChannel]) }
            let recent =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM push_message WHERE household_id = ? AND kind = 'test' AND created_at > ?
                        """, arguments: [scope.householdId, Timestamp(now.addingTimeInterval(-Self.testWindow))]) ?? 0
            guard recent < Self.testsPerWindow else { throw InventoryError.validation(["push_test": .pushTestLimited]) }
            return try Self.enqueue(db, householdId: scope.householdId, kind: "test", title: title, body: body, items: [], at: now)
        }
    }

    /// Messages waiting for a retry are tried at once (the channel's settings changed).
    static func retryNow(_ db: Database, householdId: Household.ID, at now: Date) throws {
        try db.execute(
            sql: "UPDATE push_message SET next_attempt_at = ? WHERE household_id = ? AND state = 'pending'",
            arguments: [Timestamp(now), householdId])
    }

    /// What waited is dropped (the channel was removed).
    static func dropPending(_ db: Database, householdId: Household.ID) throws {
        try db.execute(sql: "DELETE FROM push_message WHERE household_id = ? AND state = 'pending'", arguments: [householdId])
    }

    // MARK: - Delivery (the reminder engine)

    /// The earliest instant a pending message is due, for the engine's schedule.
    static func nextAttempt(_ db: Database) throws -> Timestamp? {
        try Timestamp.fetchOne(db.cachedStatement(sql: "SELECT MIN(next_attempt_at) FROM push_message WHERE state = 'pending'"))
    }

    /// Households with a message due by now, oldest first.
    public func householdsWithDueMessages() throws -> [HouseholdScope] {
        let stamp = Timestamp(clock.now())
        return try database.writer.read { db in
            try Household.ID.fetchAll(
                db,
                sql: """
                    SELECT household_id FROM push_message WHERE state = 'pending' AND next_attempt_at <= ?
                    GROUP BY household_id ORDER BY MIN(next_attempt_at), household_id
                    """, arguments: [stamp]
            ).map(HouseholdScope.init)
        }
    }

    /// The household's oldest due message not in `tried`, with its channel (nil when it has none),
    /// held for `lease` seconds so that no other engine on the same file sends it meanwhile.
    public func claimNext(in scope: HouseholdScope, skipping tried: Set<PushMessage.ID>, lease: TimeInterval) throws -> (PushMessage, PushChannel?)? {
        let now = clock.now()
        return try database.writer.write { db in
            let candidates = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM push_message WHERE household_id = ? AND state = 'pending' AND next_attempt_at <= ?
                    ORDER BY next_attempt_at, id LIMIT ?
                    """, arguments: [scope.householdId, Timestamp(now), tried.count + 1]
            ).map(PushMessage.init(row:))
            guard let message = candidates.first(where: { !tried.contains($0.id) }) else { return nil }
            try db.execute(
                sql: "UPDATE push_message SET next_attempt_at = ? WHERE id = ?",
                arguments: [Timestamp(now.addingTimeInterval(lease)), message.id])
            return (message, try PushChannels.channel(db, scope.householdId))
        }
    }

    /// The message went out (its `attempts`-th attempt).
    public func recordSuccess(_ message: PushMessage, attempts: Int) throws {
        let stamp = Timestamp(clock.now())
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE push_message SET state = 'sent', attempts = ?, sent_at = ?, last_error = NULL WHERE id = ?",
                arguments: [attempts, stamp, message.id])
        }
    }

    /// The message did not go out: tried again at `retryAt`, or given up when that is nil.
    public func recordFailure(_ message: PushMessage, attempts: Int, failure: PushFailure, retryAt: Date?) throws {
        let now = clock.now()
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE push_message SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [
                    retryAt == nil ? "failed" : "pending", attempts, Timestamp(retryAt ?? now),
                    failure.stored, message.id,
                ])
        }
    }

    // MARK: - Reading

    public func message(_ id: PushMessage.ID, in scope: HouseholdScope) throws -> PushMessage? {
        try database.writer.read { db in try Self.message(db, id, scope.householdId) }
    }

    static func message(_ db: Database, _ id: PushMessage.ID, _ householdId: Household.ID) throws -> PushMessage? {
        try Row.fetchOne(db, sql: "SELECT * FROM push_message WHERE id = ? AND household_id = ?", arguments: [id, householdId]).map(PushMessage.init(row:))
    }

    /// Waits, at most `timeout`, until the engine has tried to send message `id` (or it is gone).
    /// No polling: an observation of the row sees each commit that changes it.
    public func awaitAttempt(_ id: PushMessage.ID, in scope: HouseholdScope, timeout: Duration) async throws -> PushMessage? {
        if timeout > .zero {
            let writer = database.writer
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    let changes = ValueObservation.tracking { db in try Self.message(db, id, scope.householdId) }.values(in: writer)
                    // An observation that fails ends the wait too: the row is read again below.
                    _ = try? await changes.first { message in message?.attempted ?? true }
                }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll()
            }
        }
        return try message(id, in: scope)
    }

    public func status(in scope: HouseholdScope) throws -> PushStatus {
        try database.writer.read { db in try Self.status(db, scope.householdId) }
    }

    static func status(_ db: Database, _ householdId: Household.ID) throws -> PushStatus {
        var status = PushStatus()
        status.lastSentAt = try Timestamp.fetchOne(
            db, sql: "SELECT MAX(sent_at) FROM push_message WHERE household_id = ? AND state = 'sent'", arguments: [householdId])
        if let row = try Row.fetchOne(
            db,
            sql: """
                SELECT last_error, COALESCE(sent_at, next_attempt_at) AS at FROM push_message
                WHERE household_id = ? AND last_error IS NOT NULL ORDER BY id DESC LIMIT 1
                """, arguments: [householdId])
        {
            status.lastError = (row["last_error"] as String?).map(PushFailure.init(stored:))
            status.lastErrorAt = try row.decode(forColumn: "at")
        }
        if let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) AS waiting, MIN(next_attempt_at) AS next FROM push_message
                WHERE household_id = ? AND state = 'pending' AND attempts > 0
                """, arguments: [householdId])
        {
            status.waiting = row["waiting"]
            status.nextRetryAt = try row.decode(forColumn: "next")
        }
        // A failed test is reported by the test itself, not counted as a lost message.
        status.failed =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM push_message WHERE household_id = ? AND state = 'failed' AND kind != 'test'
                    """, arguments: [householdId]) ?? 0
        return status
    }
}
