import Foundation
import GRDB

/// The reminder engine's reads and writes about what is due: items' reminders and the daily
/// digests. Each `queue…` is one transaction that marks what it took and puts the messages in the
/// `Outbox`, so a reminder is queued exactly once whatever happens around it. The words of the
/// messages are the caller's (`compose`): storage does not speak.
public struct ReminderQueue: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// What the engine's timetable depends on: the earliest pending reminder and outbox attempt, and the digest settings.
    public struct Schedule: Equatable, Sendable {
        public var reminder: Timestamp?
        public var attempt: Timestamp?
        public var digests: [DigestSetting]
        /// Households with keep rules, and the day their rules were last checked on.
        public var keepDays: [KeepDay] = []
    }

    /// A household with keep rules: its items expire overnight without a write, so its rules are
    /// checked once at the start of each of its days (`checkKeepRulesOnNewDays`).
    public struct KeepDay: Equatable, Sendable {
        public let householdId: Household.ID
        public let checkedOn: CalendarDay?
        public let timeZone: String

        public var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
    }

    public struct DigestSetting: Equatable, Sendable {
        public let householdId: Household.ID
        public let hour: Int
        public let sentOn: CalendarDay?
        public let timeZone: String

        public var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
    }

    /// Days after today that a digest's "this week" covers.
    public static let weekDays = 7

    static func schedule(_ db: Database) throws -> Schedule {
        Schedule(
            reminder: try Timestamp.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT MIN(remind_at) FROM item WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at
                        """)),
            attempt: try Outbox.nextAttempt(db),
            digests: try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.household_id, c.digest_hour, c.digest_sent_on, h.time_zone FROM push_channel c JOIN household h ON h.id = c.household_id
                        WHERE c.digest_hour IS NOT NULL ORDER BY c.household_id
                        """)
            ).map {
                DigestSetting(
                    householdId: $0["household_id"], hour: $0["digest_hour"], sentOn: try $0.decode(forColumn: "digest_sent_on"), timeZone: $0["time_zone"])
            },
            keepDays: try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT h.id, h.keep_checked_on, h.time_zone FROM household h
                        WHERE EXISTS (SELECT 1 FROM keep_rule r WHERE r.household_id = h.id) ORDER BY h.id
                        """)
            ).map { KeepDay(householdId: $0["id"], checkedOn: try $0.decode(forColumn: "keep_checked_on"), timeZone: $0["time_zone"]) })
    }

    /// When a household's rules are next checked: now when today's check is still to make, else at
    /// the start of its tomorrow.
    public static func nextKeepCheck(_ day: KeepDay, now: Date) -> Date {
        let today = CalendarDay.today(in: day.zone, now: now)
        guard day.checkedOn == today else { return now }
        return PushChannels.digestInstant(day: today.next, hour: 0, in: day.zone) ?? now.addingTimeInterval(3600)
    }

    /// Checks the keep rules of each household whose day has begun since its last check: an item
    /// that expired overnight no longer counts as stock, and its refill goes on the list.
    public func checkKeepRulesOnNewDays() throws {
        let now = clock.now()
        let time = Timestamp(now)
        for day in try schedule().keepDays where Self.nextKeepCheck(day, now: now) <= now {
            try database.write(by: nil, at: time) { db in
                try KeepRules.checkAll(db, day.householdId, at: time)
                try db.execute(
                    sql: "UPDATE household SET keep_checked_on = ? WHERE id = ?", arguments: [CalendarDay.today(in: day.zone, now: now), day.householdId])
            }
        }
    }

    public func schedule() throws -> Schedule {
        try database.writer.read { db in try Self.schedule(db) }
    }

    /// Calls `onChange` on `queue` with the schedule whenever a commit changes it, whoever wrote,
    /// until the returned cancellable is cancelled (or released).
    ///
    /// A constant region (the schedule reads the same tables and columns every time): GRDB then
    /// fetches it from a reader. Tracked otherwise, it was fetched on the writer connection after
    /// every commit that touched `household` (each write moves its change sequence) inside
    /// `isolated(readOnly:)`, whose `PRAGMA query_only` expires every prepared statement of the
    /// writer: the next write compiled all of its statements again, each item update with every
    /// trigger of the item table (bench/keep-taps).
    public func observeSchedule(
        on queue: DispatchQueue, onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Schedule) -> Void
    ) -> AnyDatabaseCancellable {
        ValueObservation.trackingConstantRegion { db in try Self.schedule(db) }.removeDuplicates()
            .start(in: database.writer, scheduling: .async(onQueue: queue), onError: onError, onChange: onChange)
    }

    /// Today's digest instant, or tomorrow's once today's was made.
    public static func nextDigest(_ digest: DigestSetting, now: Date) -> Date {
        let zone = digest.zone
        let today = CalendarDay.today(in: zone, now: now)
        let day = digest.sentOn == today ? today.next : today
        return PushChannels.digestInstant(day: day, hour: digest.hour, in: zone) ?? now.addingTimeInterval(3600)
    }

    /// Every reminder due by now: marked sent and, where the household has a push channel, one
    /// message per household in the outbox, in one transaction (so exactly once).
    public func queueDueReminders(compose: (_ language: String, _ items: [PushItem]) -> (title: String, body: String)) throws {
        let now = clock.now()
        try database.writer.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.id, i.household_id, i.name, i.due, i.remind_at, f.name AS folder
                    FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE i.remind_at IS NOT NULL AND i.deleted_at IS NULL AND i.reminder_sent_for IS NOT i.remind_at AND i.remind_at <= ?
                    ORDER BY i.household_id, i.remind_at, i.id
                    """, arguments: [Timestamp(now)])
            guard !rows.isEmpty else { return }
            var byHousehold: [(Household.ID, [PushItem])] = []
            for row in rows {
                let householdId: Household.ID = row["household_id"]
                let item = PushItem(name: row["name"], due: row["due"] ?? "", folder: row["folder"])
                if byHousehold.last?.0 == householdId { byHousehold[byHousehold.count - 1].1.append(item) } else { byHousehold.append((householdId, [item])) }
                try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id = ?", arguments: [row["id"] as Int64])
            }
            for (householdId, items) in byHousehold {
                // Without a push channel the calendar feed's alarms are the reminder; nothing to queue.
                guard try PushChannels.channel(db, householdId) != nil else { continue }
                let (title, body) = compose(try Self.language(db, householdId), items)
                try Outbox.enqueue(db, householdId: householdId, kind: "reminder", title: title, body: body, items: items, at: now)
            }
        }
    }

    /// What one household's digest tells.
    public struct DigestContents: Sendable, Equatable {
        /// Expired, due today, due in the week after today.
        public var counts: DueCounts
        /// What expired unused in the seven days to now (`HouseholdHabits`).
        public var expiredUnused: ExpiredUnused
        /// The kept products under their minimum now, by name (`KeepStock`).
        public var belowMinimum: [String]

        public init(counts: DueCounts, expiredUnused: ExpiredUnused = .none, belowMinimum: [String] = []) {
            self.counts = counts
            self.expiredUnused = expiredUnused
            self.belowMinimum = belowMinimum
        }

        public var isEmpty: Bool { counts.total == 0 && expiredUnused.count == 0 && belowMinimum.isEmpty }
    }

    /// Each household whose digest hour has come today: counts of expired, due today and due in the
    /// week after today, and what expired unused this week, as one message (none when all are 0).
    public func queueDueDigests(compose: (_ language: String, _ contents: DigestContents) -> (title: String, body: String)) throws {
        let now = clock.now()
        try database.writer.write { db in
            for digest in try Self.schedule(db).digests {
                guard Self.nextDigest(digest, now: now) <= now else { continue }
                let today = CalendarDay.today(in: digest.zone, now: now)
                try db.execute(sql: "UPDATE push_channel SET digest_sent_on = ? WHERE household_id = ?", arguments: [today, digest.householdId])
                // "This week" is the days after today: the use-soon rule with a window of a week.
                let counts = try Items.dueCounts(db, householdId: digest.householdId, window: DueWindow(today: today, soonDays: Self.weekDays))
                let contents = DigestContents(
                    counts: counts, expiredUnused: try HouseholdHabits.expiredUnusedThisWeek(db, digest.householdId, now: now),
                    belowMinimum: try KeepStock.belowMinimum(db, digest.householdId, at: Timestamp(now)))
                guard !contents.isEmpty else { continue }
                let (title, body) = compose(try Self.language(db, digest.householdId), contents)
                try Outbox.enqueue(db, householdId: digest.householdId, kind: "digest", title: title, body: body, items: [], at: now)
            }
        }
    }

    /// Push messages go to a shared topic: they speak the first owner's language, else the language
    /// the household was set up in, else English.
    static func language(_ db: Database, _ householdId: Household.ID) throws -> String {
        let owner = try String.fetchOne(
            db,
            sql: """
                SELECT language FROM member WHERE household_id = ? AND role = 'owner' ORDER BY id LIMIT 1
                """, arguments: [householdId])
        if let owner, !owner.isEmpty { return owner }
        let household = try String.fetchOne(db, sql: "SELECT language FROM household WHERE id = ?", arguments: [householdId])
        return household.flatMap { $0.isEmpty ? nil : $0 } ?? "en"
    }
}
