import Foundation
import GRDB

/// One due stock item as the calendar feed shows it.
public struct FeedEvent: Sendable, Equatable {
    public let itemId: Item.ID
    public let name: String
    public let folder: String
    public let due: CalendarDay
    /// When the item has a reminder.
    public let remindAt: Timestamp?
    public let updatedAt: Timestamp

    public init(itemId: Item.ID, name: String, folder: String, due: CalendarDay, remindAt: Timestamp?, updatedAt: Timestamp) {
        self.itemId = itemId
        self.name = name
        self.folder = folder
        self.due = due
        self.remindAt = remindAt
        self.updatedAt = updatedAt
    }
}

/// One meal of the plan as the calendar feed shows it.
public struct FeedMeal: Sendable, Equatable {
    public let mealId: Meal.ID
    public let day: CalendarDay
    public let slot: MealSlot
    /// The recipe's name, or the note of a meal without one.
    public let name: String
    public let servings: Int?
    public let updatedAt: Timestamp

    public init(mealId: Meal.ID, day: CalendarDay, slot: MealSlot, name: String, servings: Int?, updatedAt: Timestamp) {
        self.mealId = mealId
        self.day = day
        self.slot = slot
        self.name = name
        self.servings = servings
        self.updatedAt = updatedAt
    }
}

/// A member's calendar feed: the household's due items and, unless the member left it out, the
/// meal plan from a week ago on.
public struct CalendarFeed: Sendable, Equatable {
    public let householdId: Household.ID
    public let householdName: String
    public let events: [FeedEvent]
    public var meals: [FeedMeal] = []
    /// The member's language, when they chose one: the feed's words are theirs.
    public var language: String? = nil

    public init(householdId: Household.ID, householdName: String, events: [FeedEvent]) {
        self.householdId = householdId
        self.householdName = householdName
        self.events = events
    }
}

/// The secret feed addresses members subscribe to from their phone's calendar. A token is shown
/// once when made; only its hash is stored, so replacing it makes the old address stop at once.
public struct CalendarFeeds: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    static func hash(_ token: String) -> Data { Data(Crypto.sha256(Array(token.utf8))) }

    /// A new address for the member (the previous one, if any, stops working); its token.
    public func create(memberId: Member.ID) throws -> String {
        let token = Crypto.token()
        try database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO calendar_feed (member_id, token_hash, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (member_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
                    """, arguments: [memberId, Self.hash(token), Timestamp(clock.now())])
        }
        return token
    }

    /// Whether the member's feed carries the meal plan.
    public func setMeals(_ included: Bool, memberId: Member.ID) throws {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE calendar_feed SET meals = ? WHERE member_id = ?", arguments: [included, memberId])
        }
    }

    /// Whether the member's feed carries the meal plan (nil: the member has no feed).
    public func includesMeals(memberId: Member.ID) throws -> Bool? {
        try database.writer.read { db in try Bool.fetchOne(db, sql: "SELECT meals FROM calendar_feed WHERE member_id = ?", arguments: [memberId]) }
    }

    public func remove(memberId: Member.ID) throws {
        try database.writer.write { db in try db.execute(sql: "DELETE FROM calendar_feed WHERE member_id = ?", arguments: [memberId]) }
    }

    /// When the member's current address was made, or nil when they have none.
    public func createdAt(memberId: Member.ID) throws -> Timestamp? {
        try database.writer.read { db in
            try Timestamp.fetchOne(db, sql: "SELECT created_at FROM calendar_feed WHERE member_id = ?", arguments: [memberId])
        }
    }

    /// True when `token` is the member's current address.
    public func isCurrent(_ token: String, memberId: Member.ID) throws -> Bool {
        guard Self.plausible(token) else { return false }
        return try database.writer.read { db in
            try Member.ID.fetchOne(db, sql: "SELECT member_id FROM calendar_feed WHERE token_hash = ?", arguments: [Self.hash(token)]) == memberId
        }
    }

    static func plausible(_ token: String) -> Bool { !token.isEmpty && token.utf8.count <= 100 }

    /// The feed behind a token: every due stock item of the member's household, nil for an unknown token.
    public func feed(token: String) throws -> CalendarFeed? {
        guard Self.plausible(token) else { return nil }
        return try database.writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT h.id, h.name, m.language, c.meals, h.time_zone FROM calendar_feed c JOIN member m ON m.id = c.member_id
                        JOIN household h ON h.id = m.household_id
                        WHERE c.token_hash = ?
                        """, arguments: [Self.hash(token)])
            else { return nil }
            let householdId: Household.ID = row["id"]
            let events = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.id, i.name, i.due, i.remind_at, i.updated_at, f.name AS folder
                    FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE i.household_id = ? AND i.deleted_at IS NULL AND i.due IS NOT NULL AND f.kind = 'stock' AND f.deleted_at IS NULL
                    ORDER BY i.due, i.id
                    """, arguments: [householdId]
            ).map {
                FeedEvent(
                    itemId: $0["id"], name: $0["name"], folder: $0["folder"], due: try $0.decode(forColumn: "due"),
                    remindAt: try $0.decode(forColumn: "remind_at"), updatedAt: try $0.decode(forColumn: "updated_at"))
            }
            var feed = CalendarFeed(householdId: householdId, householdName: row["name"], events: events)
            feed.language = row["language"]
            if row["meals"] == true {
                let today = CalendarDay.today(in: TimeZone(identifier: row["time_zone"] ?? "") ?? .gmt, now: clock.now())
                feed.meals = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT m.id, m.day, m.slot, COALESCE(r.name, m.note) AS name, m.servings, m.updated_at FROM meal m
                        LEFT JOIN recipe r ON r.id = m.recipe_id
                        WHERE m.household_id = ? AND m.day >= ? AND (m.done IS NULL OR m.done = 'cooked')
                        ORDER BY m.day, \(MealSlot.orderSQL.replacingOccurrences(of: "slot", with: "m.slot")), m.position, m.id LIMIT 1000
                        """, arguments: [householdId, today.adding(days: -7)]
                ).map {
                    FeedMeal(
                        mealId: $0["id"], day: try $0.decode(forColumn: "day"), slot: try $0.decode(forColumn: "slot"), name: $0["name"],
                        servings: $0["servings"], updatedAt: try $0.decode(forColumn: "updated_at"))
                }
            }
            return feed
        }
    }
}

/// What "rebuild reminders" did.
public struct RebuildReport: Sendable, Equatable {
    /// Reminders that were waiting (not sent yet), all dropped.
    public let dropped: Int
    /// Reminders in the future, scheduled again.
    public let recreated: Int
    /// Reminder dates in the past, cleared from their items.
    public let cleared: Int
}

/// The household's reminder schedule as a whole.
public struct ReminderSchedule: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Drops every pending reminder (and reminder messages not delivered yet), schedules again those
    /// in the future and clears reminder dates in the past. Cleared items count as changed.
    public func rebuild(in scope: HouseholdScope, by memberId: Member.ID) throws -> RebuildReport {
        let now = Timestamp(clock.now())
        return try database.write(by: memberId, at: now) { db in
            let pending =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM item WHERE household_id = ? AND remind_at IS NOT NULL AND deleted_at IS NULL
                        AND reminder_sent_for IS NOT remind_at
                        """, arguments: [scope.householdId]) ?? 0
            try db.execute(sql: "DELETE FROM push_message WHERE household_id = ? AND kind = 'reminder' AND state = 'pending'", arguments: [scope.householdId])
            let queued = db.changesCount
            try db.execute(
                sql: """
                    UPDATE item SET reminder_sent_for = NULL
                    WHERE household_id = ? AND remind_at IS NOT NULL AND remind_at > ? AND deleted_at IS NULL
                    """, arguments: [scope.householdId, now])
            let recreated = db.changesCount
            let past = try Item.fetchAll(
                db,
                sql: """
                    SELECT * FROM item WHERE household_id = ? AND remind_at IS NOT NULL AND remind_at <= ? AND deleted_at IS NULL
                    """, arguments: [scope.householdId, now])
            for var item in past {
                item.remindAt = nil
                item.version += 1
                item.updatedAt = now
                try item.update(db)
                try db.execute(sql: "UPDATE item SET reminder_sent_for = NULL WHERE id = ?", arguments: [item.id])
                try Items.record(db, item, "changed", "remind_at", by: memberId, at: now)
            }
            return RebuildReport(dropped: pending + queued, recreated: recreated, cleared: past.count)
        }
    }
}
