import Foundation
import GRDB
import Inventory
import Logging
import Synchronization

/// Sends each item's reminder once, at its `remind_at`, through the household's push channel; makes
/// the daily digests; delivers the outbox with retries.
///
/// It never polls: it sleeps until the next instant anything is due (a reminder, a digest, a retry)
/// and a GRDB `ValueObservation` of that schedule rings its doorbell when a write changes it, so an
/// edit made anywhere through the same database reschedules it without the writer knowing the engine.
/// State lives in the database (`item.reminder_sent_for`, `push_channel.digest_sent_on`,
/// `push_message`), so a restart neither repeats nor drops a reminder; those missed while the server
/// was down go out at start, one message per household.
public final class ReminderEngine: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let sleeper: any Sleeper
    let delivery: PushDelivery
    let texts: ReminderTexts
    let logger: Logger
    let outbox: Outbox
    let bell = Doorbell()
    private let stopped = Atomic<Bool>(false)
    /// One delivery task per household with messages going out: a slow endpoint holds only its own household.
    private let deliveries = Mutex<[Int64: Task<Void, Never>]>([:])
    private let observer = Mutex<AnyDatabaseCancellable?>(nil)

    /// Waits between attempts of a message: 1 min, 5 min, 30 min, then every 2 h.
    public static let retryDelays: [TimeInterval] = [60, 5 * 60, 30 * 60, 2 * 3600]
    /// A message is given up after this many attempts (about 11 hours); a test message after one.
    public static let maxAttempts = 8
    /// How long a message being sent is held, so a second engine on the same file does not send it too.
    static let sendingLease: TimeInterval = 120
    /// A week for the digest: the 7 days after today.
    static let weekDays = 7

    public init(
        database: AppDatabase, clock: WallClock = .system, sleeper: (any Sleeper)? = nil, delivery: PushDelivery = PushDelivery(),
        texts: ReminderTexts = .english, logger: Logger = Logger(label: "zaiko.reminders")
    ) {
        self.database = database
        self.clock = clock
        self.sleeper = sleeper ?? SystemSleeper(clock: clock)
        self.delivery = delivery
        self.outbox = Outbox(database: database, clock: clock)
        self.texts = texts
        self.logger = logger
    }

    // MARK: - Running

    /// Runs until `stop()`: a pass over what is due, then sleep until the next instant or a change.
    public func run() async {
        startObserving()
        while !stopped.load(ordering: .acquiring) {
            let healthy = await step()
            if stopped.load(ordering: .acquiring) { break }
            var next: Date?
            do { next = try nextInstant() } catch {
                logger.error("reminder schedule unreadable", metadata: ["error": "\(error)"])
            }
            // After a failed pass, never spin: wait at least a little before trying again.
            if !healthy, let due = next, due <= clock.now() { next = clock.now().addingTimeInterval(30) }
            await sleeper.sleep(until: next, bell: bell)
        }
        // Deliveries in progress end (at their deadline at worst) before the database may close.
        for task in deliveries.withLock({ Array($0.values) }) { await task.value }
        observer.withLock { $0?.cancel(); $0 = nil }
    }

    /// Ends `run()` after the pass in progress.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        bell.ring()
    }

    /// Makes the engine look at its schedule now.
    public func wake() { bell.ring() }

    /// Rings the doorbell whenever the schedule's next instants change, whoever wrote.
    func startObserving() {
        let observation = ValueObservation.tracking { db in try Self.schedule(db) }.removeDuplicates()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: DispatchQueue(label: "zaiko.reminders.observation")),
            onError: { [logger] error in logger.error("reminder observation failed", metadata: ["error": "\(error)"]) },
            onChange: { [bell] _ in bell.ring() })
        observer.withLock { $0 = cancellable }
    }

    /// What the schedule depends on: the earliest pending reminder and retry, and the digest settings.
    struct Schedule: Equatable {
        var reminder: String?
        var attempt: String?
        var digests: [DigestSetting]
    }

    struct DigestSetting: Equatable {
        let householdId: Int64
        let hour: Int
        let sentOn: String?
        let timeZone: String
    }

    static func schedule(_ db: Database) throws -> Schedule {
        Schedule(
            reminder: try String.fetchOne(db.cachedStatement(sql: """
                SELECT MIN(remind_at) FROM item WHERE remind_at IS NOT NULL AND deleted_at IS NULL AND reminder_sent_for IS NOT remind_at
                """)),
            attempt: try Outbox.nextAttempt(db),
            digests: try Row.fetchAll(db.cachedStatement(sql: """
                SELECT c.household_id, c.digest_hour, c.digest_sent_on, h.time_zone FROM push_channel c JOIN household h ON h.id = c.household_id
                WHERE c.digest_hour IS NOT NULL ORDER BY c.household_id
                """)).map { DigestSetting(householdId: $0["household_id"], hour: $0["digest_hour"], sentOn: $0["digest_sent_on"], timeZone: $0["time_zone"]) })
    }

    /// The next instant anything is due, or nil when nothing is scheduled.
    public func nextInstant() throws -> Date? {
        let schedule = try database.writer.read { db in try Self.schedule(db) }
        var instants = [schedule.reminder, schedule.attempt].compactMap { Timestamp.date(from: $0) }
        for digest in schedule.digests {
            let zone = TimeZone(identifier: digest.timeZone) ?? .gmt
            instants.append(Self.nextDigest(digest, zone: zone, now: clock.now()))
        }
        return instants.min()
    }

    /// Today's digest instant, or tomorrow's once today's was made.
    static func nextDigest(_ digest: DigestSetting, zone: TimeZone, now: Date) -> Date {
        let today = CalendarDay.today(in: zone, now: now)
        let day = digest.sentOn == today.description ? today.next : today
        return PushChannels.digestInstant(day: day, hour: digest.hour, in: zone) ?? now.addingTimeInterval(3600)
    }

    // MARK: - One pass

    /// Queues what is due and sends what waits; false when part of it failed (it is tried again later).
    @discardableResult
    public func step() async -> Bool {
        var healthy = true
        do { try queueDueReminders() } catch {
            healthy = false
            logger.error("reminders could not be queued", metadata: ["error": "\(error)"])
        }
        do { try queueDueDigests() } catch {
            healthy = false
            logger.error("digests could not be queued", metadata: ["error": "\(error)"])
        }
        do { try startDueDeliveries() } catch {
            healthy = false
            logger.error("outbox unreadable", metadata: ["error": "\(error)"])
        }
        return healthy
    }

    /// Every reminder due by now: marked sent and, where the household has a push channel, one
    /// message per household in the outbox, in one transaction (so exactly once).
    func queueDueReminders() throws {
        let now = clock.now()
        let stamp = Timestamp.string(from: now)
        try database.writer.write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT i.id, i.household_id, i.name, i.due, i.remind_at, f.name AS folder
                FROM item i JOIN folder f ON f.id = i.folder_id
                WHERE i.remind_at IS NOT NULL AND i.deleted_at IS NULL AND i.reminder_sent_for IS NOT i.remind_at AND i.remind_at <= ?
                ORDER BY i.household_id, i.remind_at, i.id
                """, arguments: [stamp])
            guard !rows.isEmpty else { return }
            var byHousehold: [(Int64, [PushItem])] = []
            for row in rows {
                let householdId: Int64 = row["household_id"]
                let item = PushItem(name: row["name"], due: row["due"] ?? "", folder: row["folder"])
                if byHousehold.last?.0 == householdId { byHousehold[byHousehold.count - 1].1.append(item) } else { byHousehold.append((householdId, [item])) }
                try db.execute(sql: "UPDATE item SET reminder_sent_for = remind_at WHERE id = ?", arguments: [row["id"] as Int64])
            }
            for (householdId, items) in byHousehold {
                // Without a push channel the calendar feed's alarms are the reminder; nothing to queue.
                guard try PushChannels.channel(db, householdId) != nil else { continue }
                let language = try Self.language(db, householdId)
                let (title, body) = texts.reminder(items, language: language)
                try Outbox.enqueue(db, householdId: householdId, kind: "reminder", title: title, body: body, items: items, at: now)
            }
        }
    }

    /// Push messages go to a shared topic: they speak the first owner's language, else the language
    /// the household was set up in, else English.
    static func language(_ db: Database, _ householdId: Int64) throws -> String {
        let owner = try String.fetchOne(db, sql: """
            SELECT language FROM member WHERE household_id = ? AND role = 'owner' ORDER BY id LIMIT 1
            """, arguments: [householdId])
        if let owner, !owner.isEmpty { return owner }
        let household = try String.fetchOne(db, sql: "SELECT language FROM household WHERE id = ?", arguments: [householdId])
        return household.flatMap { $0.isEmpty ? nil : $0 } ?? "en"
    }

    /// Each household whose digest hour has come today: counts of expired, due today and due in the
    /// week after today, as one message (none when all three are 0).
    func queueDueDigests() throws {
        let now = clock.now()
        try database.writer.write { db in
            for digest in try Self.schedule(db).digests {
                let zone = TimeZone(identifier: digest.timeZone) ?? .gmt
                guard Self.nextDigest(digest, zone: zone, now: now) <= now else { continue }
                let today = CalendarDay.today(in: zone, now: now)
                try db.execute(sql: "UPDATE push_channel SET digest_sent_on = ? WHERE household_id = ?", arguments: [today.description, digest.householdId])
                let counts = try Row.fetchOne(db, sql: """
                    SELECT COUNT(CASE WHEN i.due < ?1 THEN 1 END) AS expired,
                           COUNT(CASE WHEN i.due = ?1 THEN 1 END) AS today,
                           COUNT(CASE WHEN i.due > ?1 AND i.due <= ?2 THEN 1 END) AS week
                    FROM item i JOIN folder f ON f.id = i.folder_id
                    WHERE i.household_id = ?3 AND i.deleted_at IS NULL AND i.due IS NOT NULL AND i.due <= ?2 AND f.kind = 'stock'
                    """, arguments: [today.description, today.adding(days: Self.weekDays).description, digest.householdId])
                let (expired, dueToday, week): (Int, Int, Int) = (counts?["expired"] ?? 0, counts?["today"] ?? 0, counts?["week"] ?? 0)
                guard expired + dueToday + week > 0 else { continue }
                let (title, body) = texts.digest(expired: expired, today: dueToday, week: week, language: try Self.language(db, digest.householdId))
                try Outbox.enqueue(db, householdId: digest.householdId, kind: "digest", title: title, body: body, items: [], at: now)
            }
        }
    }

    /// Starts a delivery task for each household with a message due and none running yet.
    func startDueDeliveries() throws {
        let due = try outbox.householdsWithDueMessages()
        deliveries.withLock { running in
            for householdId in due where running[householdId] == nil && !stopped.load(ordering: .acquiring) {
                running[householdId] = Task.detached { [self] in
                    await deliverDueMessages(householdId: householdId)
                    deliveries.withLock { $0[householdId] = nil }
                    // Something may have come due for this household meanwhile.
                    bell.ring()
                }
            }
        }
    }

    /// Sends the household's messages whose time has come, oldest first, one at a time; a failure
    /// waits for its next attempt.
    func deliverDueMessages(householdId: Int64) async {
        var tried = Set<Int64>()
        do {
            while !stopped.load(ordering: .acquiring) {
                guard let (message, channel) = try outbox.claimNext(householdId: householdId, skipping: tried, lease: Self.sendingLease) else { return }
                tried.insert(message.id)
                guard let channel else {
                    try finish(message, .failed(.noChannel, detail: "no push channel"), giveUp: true)
                    continue
                }
                let outcome = await delivery.deliver(message, on: channel)
                try finish(message, outcome, giveUp: message.kind == "test")
            }
        } catch {
            logger.error("outbox unreadable", metadata: ["household": "\(householdId)", "error": "\(error)"])
        }
    }

    func finish(_ message: PushMessage, _ outcome: PushDelivery.Outcome, giveUp: Bool) throws {
        let attempts = message.attempts + 1
        let metadata: Logger.Metadata = ["household": "\(message.householdId)", "message": "\(message.id)", "kind": "\(message.kind)", "attempt": "\(attempts)"]
        switch outcome {
        case .sent:
            try outbox.recordSuccess(message, attempts: attempts)
            logger.info("push sent", metadata: metadata)
        case .failed(let failure, let detail):
            let final = giveUp || attempts >= Self.maxAttempts
            let delay = Self.retryDelays[min(attempts - 1, Self.retryDelays.count - 1)]
            try outbox.recordFailure(message, attempts: attempts, failure: failure, retryAt: final ? nil : clock.now().addingTimeInterval(delay))
            var details = metadata
            details["error"] = "\(detail)"
            details["retry"] = final ? "none" : "in \(Int(delay)) s"
            logger.warning("push failed", metadata: details)
        }
    }
}
