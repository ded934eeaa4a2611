import Foundation
import GRDB
import Inventory
import Lifecycle
import Logging
import Synchronization

/// Sends each item's reminder once, at its `remind_at`, through the household's push channel; makes
/// the daily digests; delivers the outbox with retries, each household's messages on a task of
/// their own (so one household's slow endpoint delays no other household). Its reads and writes
/// are Inventory's `ReminderQueue` and `Outbox` transactions; it writes no SQL of its own.
///
/// It never polls: it sleeps until the next instant anything is due (a reminder, a digest, a retry)
/// and a GRDB `ValueObservation` of that schedule rings its doorbell when a write changes it, so an
/// edit made anywhere through the same database reschedules it without the writer knowing the engine.
/// State lives in the database (`item.reminder_sent_for`, `push_channel.digest_sent_on`,
/// `push_message`), so a restart neither repeats nor drops a reminder; those missed while the server
/// was down go out at start, one message per household.
public final class ReminderEngine: Service {
    public var name: String { "reminders" }

    let database: AppDatabase
    let clock: WallClock
    let sleeper: any Sleeper
    let delivery: PushDelivery
    let texts: ReminderTexts
    let logger: Logger
    let outbox: Outbox
    let queue: ReminderQueue
    let bell = Doorbell()
    private let stopped = Atomic<Bool>(false)
    /// One delivery task per household with messages going out: a slow endpoint holds only its own household.
    private let deliveries = Mutex<[HouseholdScope: Task<Void, Never>]>([:])
    /// Set by a delivery the outbox failed under (a disk refusing writes): the next pass counts as
    /// failed and starts none, so the engine pauses instead of restarting it the moment it ends.
    private let deliveryFailed = Atomic<Bool>(false)
    private let observer = Mutex<AnyDatabaseCancellable?>(nil)

    /// Waits between attempts of a message: 1 min, 5 min, 30 min, then every 2 h.
    public static let retryDelays: [TimeInterval] = [60, 5 * 60, 30 * 60, 2 * 3600]
    /// A message is given up after this many attempts (about 11 hours); a test message after one.
    public static let maxAttempts = 8
    /// How long a message being sent is held, so a second engine on the same file does not send it too.
    static let sendingLease: TimeInterval = 120

    public init(
        database: AppDatabase, clock: WallClock = .system, sleeper: (any Sleeper)? = nil, delivery: PushDelivery = PushDelivery(),
        texts: ReminderTexts = .english, logger: Logger = Logger(label: "zaiko.reminders")
    ) {
        self.database = database
        self.clock = clock
        self.sleeper = sleeper ?? SystemSleeper(clock: clock)
        self.delivery = delivery
        self.outbox = Outbox(database: database, clock: clock)
        self.queue = ReminderQueue(database: database, clock: clock)
        self.texts = texts
        self.logger = logger
    }

    // MARK: - Running

    /// Runs until its task is cancelled: a pass over what is due, then sleep until the next instant or
    /// a change. Once cancelled, it finishes the pass in progress and waits for the deliveries under
    /// way (each ends at its deadline at worst).
    public func run() async {
        await withTaskCancellationHandler {
            await passes()
        } onCancel: {
            stop()
        }
    }

    func passes() async {
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
            // What is still due after a healthy pass is a message whose household's delivery is under
            // way: that delivery rings when it ends, so wait for the bell rather than spin.
            if healthy, let due = next, due <= clock.now(), !deliveries.withLock({ $0.isEmpty }) { next = nil }
            await sleeper.sleep(until: next, bell: bell)
        }
        // Deliveries in progress end (at their deadline at worst) before the database may close.
        for task in deliveries.withLock({ Array($0.values) }) { await task.value }
        observer.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Ends `run()` after the pass in progress.
    func stop() {
        stopped.store(true, ordering: .releasing)
        bell.ring()
    }

    /// Makes the engine look at its schedule now.
    public func wake() { bell.ring() }

    /// Rings the doorbell whenever the schedule's next instants change, whoever wrote.
    func startObserving() {
        let cancellable = queue.observeSchedule(
            on: DispatchQueue(label: "zaiko.reminders.observation"),
            onError: { [logger] error in logger.error("reminder observation failed", metadata: ["error": "\(error)"]) },
            onChange: { [bell] _ in bell.ring() })
        observer.withLock { $0 = cancellable }
    }

    /// The next instant anything is due, or nil when nothing is scheduled.
    public func nextInstant() throws -> Date? {
        let schedule = try queue.schedule()
        var instants = [schedule.reminder, schedule.attempt].compactMap { $0?.date }
        for digest in schedule.digests { instants.append(ReminderQueue.nextDigest(digest, now: clock.now())) }
        for day in schedule.keepDays { instants.append(ReminderQueue.nextKeepCheck(day, now: clock.now())) }
        return instants.min()
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
        do { try queue.checkKeepRulesOnNewDays() } catch {
            healthy = false
            logger.error("keep rules could not be checked", metadata: ["error": "\(error)"])
        }
        if deliveryFailed.exchange(false, ordering: .acquiringAndReleasing) {
            healthy = false
        } else {
            do { try startDueDeliveries() } catch {
                healthy = false
                logger.error("outbox unreadable", metadata: ["error": "\(error)"])
            }
        }
        return healthy
    }

    func queueDueReminders() throws {
        try queue.queueDueReminders { language, items in texts.reminder(items, language: language) }
    }

    func queueDueDigests() throws {
        try queue.queueDueDigests { language, contents in texts.digest(contents, language: language) }
    }

    /// Starts a delivery task for each household with a message due and none running yet.
    func startDueDeliveries() throws {
        let due = try outbox.householdsWithDueMessages()
        deliveries.withLock { running in
            for household in due where running[household] == nil && !stopped.load(ordering: .acquiring) {
                running[household] = Task.detached { [self] in
                    await deliverDueMessages(in: household)
                    deliveries.withLock { $0[household] = nil }
                    // Something may have come due for this household meanwhile.
                    bell.ring()
                }
            }
        }
    }

    /// Sends the household's messages whose time has come, oldest first, one at a time; a failure
    /// waits for its next attempt.
    func deliverDueMessages(in scope: HouseholdScope) async {
        var tried = Set<PushMessage.ID>()
        do {
            while !stopped.load(ordering: .acquiring) {
                guard let (message, channel) = try outbox.claimNext(in: scope, skipping: tried, lease: Self.sendingLease) else { return }
                tried.insert(message.id)
                guard let channel else {
                    try finish(message, .failed(.noChannel, detail: "no push channel"), giveUp: true)
                    continue
                }
                let outcome = await delivery.deliver(message, on: channel)
                try finish(message, outcome, giveUp: message.kind == "test")
            }
        } catch {
            deliveryFailed.store(true, ordering: .releasing)
            logger.error("outbox unreadable", metadata: ["household": "\(scope.householdId)", "error": "\(error)"])
        }
    }

    func finish(_ message: PushMessage, _ outcome: PushDelivery.Outcome, giveUp: Bool) throws {
        let attempts = message.attempts + 1
        let metadata: Logger.Metadata = [
            "household": "\(message.householdId)", "message": "\(message.id)", "kind": "\(message.kind)", "attempt": "\(attempts)",
        ]
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
