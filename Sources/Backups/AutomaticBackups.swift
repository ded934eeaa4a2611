import Foundation
import Inventory
import Lifecycle
import Logging
import Synchronization

/// Where, when and how many automatic backups.
public struct BackupPlan: Sendable {
    public let directory: URL
    public let schedule: BackupSchedule
    public let retention: BackupRetention

    public init(directory: URL, schedule: BackupSchedule, retention: BackupRetention = .standard) {
        self.directory = directory
        self.schedule = schedule
        self.retention = retention
    }
}

/// What owners may ask of the server's backups from Settings.
public protocol BackupControl: Sendable {
    /// Asks for a backup now, made on the backups' own thread at idle priority (the caller never
    /// waits for it); false when one is already asked for or being made.
    func backUpNow() -> Bool
    /// A backup asked for is waiting to start or being made.
    var isBackingUp: Bool { get }
    /// The newest automatic backup in the folder; nil when there is none.
    func latestArchive() -> URL?
}

/// Makes the daily archive on a thread of its own (archives are long, blocking I/O, kept off
/// Swift's cooperative pool so pages and reminders never wait behind them), then prunes old ones;
/// a service: the schedule runs for as long as `run()` does.
///
/// An archive is written by `makeArchive` under a hidden temporary name (`WorkFiles`), then fsynced and renamed to
/// `zaiko-backup-<local date>.zip`: a failure leaves no partial file and never touches an earlier
/// archive (pruning runs only after a success). The outcome is recorded for Settings, logged in one
/// line, and a failure is pushed to each household with a channel.
public final class AutomaticBackups: BackupControl, Service {
    public var name: String { "automatic backups" }

    public enum Outcome: Sendable, Equatable {
        case made(file: String)
        case failed(BackupFailureReason)
    }

    let plan: BackupPlan
    let clock: WallClock
    let status: BackupStatusStore
    let texts: BackupTexts
    let logger: Logger
    let makeArchive: @Sendable (URL) throws -> Void
    let bell = Doorbell()
    /// The last doorbell ticket a pass has fully handled: tests wait on it instead of sleeping.
    private let served = Atomic<Int>(0)
    /// "Back up now" was asked and the thread has not started that backup yet.
    private let requested = Atomic<Bool>(false)
    /// A backup is being made (scheduled, caught up or asked for).
    private let running = Atomic<Bool>(false)

    public init(
        plan: BackupPlan, database: AppDatabase, clock: WallClock = .system, texts: BackupTexts = .english,
        logger: Logger = Logger(label: "zaiko.backups"), makeArchive: @escaping @Sendable (URL) throws -> Void
    ) {
        self.plan = plan
        self.clock = clock
        self.status = BackupStatusStore(database: database)
        self.texts = texts
        self.logger = logger
        self.makeArchive = makeArchive
    }

    // MARK: - The thread

    /// Runs the schedule on its own thread until the task is cancelled; a backup in progress
    /// finishes first. Settings then says none are scheduled.
    public func run() async {
        removeLeftovers()
        await withTaskCancellationHandler {
            await onOwnThread(named: "zaiko.backups") { [self] in schedule() }
        } onCancel: {
            bell.stop()
        }
        do { try status.recordSchedule(next: nil) } catch { logger.warning("backup status not recorded", metadata: ["error": "\(error)"]) }
    }

    /// Makes the thread look at the clock now; returns a ticket for `hasHandled(_:)`.
    @discardableResult
    public func wake() -> Int { bell.ring() }

    /// A pass that started after `wake()` returned `ticket` has ended.
    public func hasHandled(_ ticket: Int) -> Bool { served.load(ordering: .acquiring) >= ticket }

    /// The schedule's thread: backs up when due or asked, and sleeps between, until the bell stops.
    func schedule() {
        // A backup missed while the box was off (or killed mid-way) is made at once, on this thread.
        if isBehind(now: clock.now()) { backUp() }
        var next = plan.schedule.next(after: clock.now())
        recordSchedule(next)
        while true {
            // The ticket is read before the clock, so a pass that handled it saw any time set before it.
            let ticket = bell.ticket
            if bell.isStopped { return }
            let now = clock.now()
            if now >= next || requested.load(ordering: .acquiring) {
                backUp()
                requested.store(false, ordering: .releasing)
                next = plan.schedule.next(after: clock.now())
                recordSchedule(next)
            }
            served.store(ticket, ordering: .releasing)
            // Never more than a minute without looking at the clock: it may jump (suspend, NTP).
            let wait = min(max(next.timeIntervalSince(clock.now()), 0), 60)
            bell.wait(beyond: ticket, until: Date().addingTimeInterval(wait))
        }
    }

    /// True when the last scheduled backup was not made: the last good one is older than it, or
    /// there never was one although a household already existed then.
    func isBehind(now: Date) -> Bool {
        let due = plan.schedule.previous(atOrBefore: now)
        do {
            if let success = try status.read().lastSuccessAt { return success.date < due }
            return try status.hadHouseholds(before: due)
        } catch {
            logger.warning("backup status not read", metadata: ["error": "\(error)"])
            return false
        }
    }

    // MARK: - Asked from Settings

    public func backUpNow() -> Bool {
        guard !running.load(ordering: .acquiring), requested.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        wake()
        return true
    }

    public var isBackingUp: Bool { requested.load(ordering: .acquiring) || running.load(ordering: .acquiring) }

    public func latestArchive() -> URL? {
        let newest = entries().compactMap { name in ArchiveName.day(of: name).map { (name, $0) } }.max { $0.1 < $1.1 }
        return newest.map { plan.directory.appendingPathComponent($0.0) }
    }

    func recordSchedule(_ next: Date) {
        do { try status.recordSchedule(next: next) } catch { logger.warning("backup status not recorded", metadata: ["error": "\(error)"]) }
    }

    // MARK: - One backup

    /// Makes today's archive now (replacing one made earlier today only once the new one is
    /// complete), then prunes; records and reports the outcome.
    @discardableResult
    public func backUp() -> Outcome {
        running.store(true, ordering: .releasing)
        defer { running.store(false, ordering: .releasing) }
        let now = clock.now()
        let file = ArchiveName.file(for: plan.schedule.day(of: now))
        let temporary = WorkFiles.new(in: plan.directory, "automatic")
        WorkFiles.sweep(plan.directory, includingOwn: false)
        let before = Set(entries())
        do {
            try checkFolder()
            try makeArchive(temporary)
            try Durable.sync(temporary)
            try Durable.rename(temporary, to: plan.directory.appendingPathComponent(file))
            try Durable.sync(plan.directory)
        } catch {
            removePartial(temporary, keeping: before)
            let reason = BackupFailureReason(error)
            logger.error(
                "automatic backup failed",
                metadata: ["file": "\(plan.directory.appendingPathComponent(file).path)", "reason": "\(reason.rawValue)", "error": "\(error)"])
            do { try status.recordFailure(at: now, reason: reason, texts: texts) } catch {
                logger.error("backup failure not recorded", metadata: ["error": "\(error)"])
            }
            return .failed(reason)
        }
        prune()
        logger.info("automatic backup made", metadata: ["file": "\(plan.directory.appendingPathComponent(file).path)"])
        do { try status.recordSuccess(at: now, file: file) } catch { logger.error("backup success not recorded", metadata: ["error": "\(error)"]) }
        return .made(file: file)
    }

    /// The folder must exist already: a backup disk that is not mounted is reported, never
    /// replaced by a new folder on the disk holding the data.
    func checkFolder() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: plan.directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackupFailureReason.folderMissing
        }
        guard access(plan.directory.path, W_OK) == 0 else { throw BackupFailureReason.notWritable }
    }

    func entries() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: plan.directory.path)) ?? [] }

    /// What a failed attempt left: the temporary file, and anything else it created in the folder
    /// (a writer's own temporary file beside it) that is not a finished archive, nor the work of
    /// another process (`zaiko backup` run by hand into the same folder).
    func removePartial(_ temporary: URL, keeping before: Set<String>) {
        try? FileManager.default.removeItem(at: temporary)
        for name in entries() where !before.contains(name) && ArchiveName.day(of: name) == nil && (WorkFiles.owner(of: name) ?? getpid()) == getpid() {
            try? FileManager.default.removeItem(at: plan.directory.appendingPathComponent(name))
        }
    }

    /// Temporary files of an attempt cut short by a crash or a power cut (before this process
    /// has work of its own there).
    func removeLeftovers() { WorkFiles.sweep(plan.directory, includingOwn: true) }

    /// Deletes the archives retention does not keep; other files in the folder are never touched.
    func prune() {
        let archives = entries().compactMap { name in ArchiveName.day(of: name).map { (name, $0) } }
        let kept = plan.retention.kept(archives.map(\.1))
        for (name, day) in archives where !kept.contains(day) {
            do { try FileManager.default.removeItem(at: plan.directory.appendingPathComponent(name)) } catch {
                logger.warning("old backup not deleted", metadata: ["file": "\(name)", "error": "\(error)"])
            }
        }
    }
}

/// fsync and rename, as POSIX errors (ENOSPC shows up at fsync on some file systems).
enum Durable {
    static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    static func rename(_ source: URL, to destination: URL) throws {
        guard Foundation.rename(source.path, destination.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}

/// Wakes the backup thread early (a test moved the clock, the server stops); counts rings as tickets.
final class Doorbell: @unchecked Sendable {
    // Every field is read and written under `condition`'s lock only.
    private let condition = NSCondition()
    private var rings = 0
    private var stopped = false

    var ticket: Int { locked { rings } }
    var isStopped: Bool { locked { stopped } }

    func ring() -> Int {
        locked {
            rings += 1
            condition.broadcast()
            return rings
        }
    }

    func stop() {
        locked {
            stopped = true
            rings += 1
            condition.broadcast()
        }
    }

    /// Until a ring after `ticket`, a stop, or `deadline`.
    func wait(beyond ticket: Int, until deadline: Date) {
        condition.lock()
        defer { condition.unlock() }
        while rings <= ticket, !stopped {
            if !condition.wait(until: deadline) { return }
        }
    }

    private func locked<T>(_ work: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return work()
    }
}
