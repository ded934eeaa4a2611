import Foundation
import GRDB
import Synchronization

/// Owns the SQLite connection (a WAL pool on disk, a queue in memory for tests) and its schema.
public final class AppDatabase: Sendable {
    /// The connection, Inventory's alone: everything else reads and writes through the stores' named methods.
    let writer: any DatabaseWriter
    /// The database file as it was when opened (nil in memory): `/healthz` notices it deleted or replaced.
    let openedFile: FileIdentity?
    /// The last committed health write, so `/healthz` polled often does not sync the disk each time.
    let lastHealthWrite = Mutex<ContinuousClock.Instant?>(nil)
    /// How long a successful health write stands for the next checks.
    let healthWriteInterval: Duration

    /// Refuses every commit once the file is no longer the one that was opened (nil in memory).
    let fileGuard: OpenedFileGuard?
    /// Calls `ChangeFeed.onCommit`'s listeners after a commit that advanced a household's changes.
    let committedChanges = CommittedChanges()
    /// The meal plan's reservations of each household, kept until it changes.
    let reservations = ReservationCache()
    /// The Household page's report of each household, kept until it changes or the day turns.
    let habits = HouseholdMemo<HouseholdHabits.ReportKey, HabitsReport>()

    /// Migrates `writer` to the current schema. `fileCheck` says how long a check that the file is
    /// still the one opened stands for the next writes, and which clock measures it (a seam for tests).
    init(_ writer: any DatabaseWriter, healthWriteInterval: Duration = .seconds(1), fileCheck: FileCheck = FileCheck()) throws {
        self.writer = writer
        self.healthWriteInterval = healthWriteInterval
        openedFile = FileIdentity(path: writer.path)
        fileGuard = openedFile.map { OpenedFileGuard(path: writer.path, opened: $0, check: fileCheck) }
        try Schema.migrator.migrate(writer)
        if let fileGuard { writer.add(transactionObserver: fileGuard, extent: .databaseLifetime) }
        writer.add(transactionObserver: committedChanges, extent: .databaseLifetime)
    }

    /// A named write on behalf of `memberId` at `time`, in one transaction: the change feed's records
    /// name them (`change_actor`, which the triggers read, is set first and cleared last, inside the
    /// transaction, so no other write ever sees it). Every store method that knows who writes uses it.
    /// Before it commits, the keep rules of the products it touched are checked (`KeepStock`), and
    /// the API request it is made for, if that carries an `Idempotency-Key`, is marked done.
    func write<T>(by memberId: Member.ID?, at time: Timestamp, _ updates: (Database) throws -> T) throws -> T {
        try writer.write { db in
            try db.cachedStatement(
                sql:
                    "INSERT OR REPLACE INTO change_actor (id, member_id, at, records_before) VALUES (1, ?, ?, (SELECT IFNULL(MAX(rowid), 0) FROM change_record))"
            ).execute(arguments: [memberId, time])
            let result = try updates(db)
            try KeepStock.checkTouched(db, at: time)
            try IdempotentRequests.markApplied(db, at: time)
            try db.cachedStatement(sql: "DELETE FROM change_actor").execute()
            return result
        }
    }

    /// The household database at `url` (created if missing), checked with `quick_check` first:
    /// a damaged file stops here with `InventoryError.corruptDatabase`, it is never repaired silently.
    public static func open(at url: URL, healthWriteInterval: Duration = .seconds(1), fileCheck: FileCheck = FileCheck()) throws -> AppDatabase {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration())
            // GRDB's WAL set-up runs `synchronous = NORMAL` on the writer after `prepareDatabase`:
            // without this, a commit is acknowledged before it reaches the disk.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try checkIntegrity(pool)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw InventoryError.corruptDatabase(path: url.path, detail: error.message ?? "\(error.resultCode)")
        }
        return try AppDatabase(pool, healthWriteInterval: healthWriteInterval, fileCheck: fileCheck)
    }

    /// An empty in-memory database with the same configuration, for tests: a copy of one migrated
    /// once in this process (tests make hundreds, and the migrations cost more than the copy).
    public static func inMemory(healthWriteInterval: Duration = .seconds(1)) throws -> AppDatabase {
        let queue = try DatabaseQueue(configuration: configuration())
        try migratedInMemory.get().backup(to: queue)
        return try AppDatabase(queue, healthWriteInterval: healthWriteInterval)
    }

    /// The schema as the migrations make it, in memory, made the first time it is asked for.
    private static let migratedInMemory = Result<DatabaseQueue, any Error> {
        let queue = try DatabaseQueue(configuration: configuration())
        try Schema.migrator.migrate(queue)
        return queue
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // An acknowledged write must survive a power cut (the pool's writer is set again after
            // GRDB's WAL set-up, see `open`).
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    static func checkIntegrity(_ writer: any DatabaseWriter) throws {
        let results = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        guard results == ["ok"] else {
            throw InventoryError.corruptDatabase(path: writer.path, detail: results.prefix(3).joined(separator: "; "))
        }
    }

    /// Moves every committed write from the WAL into the database file and empties the WAL, then
    /// closes: after a clean stop, `zaiko.sqlite` alone holds everything, and an older copy put back
    /// in its place is not overwritten by a stale WAL at the next start.
    public func close() throws {
        // The connections close even when the checkpoint fails (the WAL then replays at the next start).
        var checkpointFailure: (any Error)?
        if openedFile != nil {
            do {
                try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            } catch {
                checkpointFailure = error
            }
        }
        try writer.close()
        if let checkpointFailure { throw checkpointFailure }
    }

    /// Nil when the database answers, is still the file that was opened, and can commit a write;
    /// otherwise what is wrong, for `/healthz` and the log.
    public func healthProblem(now: ContinuousClock.Instant = .now) -> String? {
        if let fileGuard {
            if let change = fileGuard.change() { return change.sentence(writer.path) }
            if StorageFailure.diskIsFull(at: writer.path) { return "the disk holding \(writer.path) is full" }
        }
        if let last = lastHealthWrite.withLock({ $0 }), now - last < healthWriteInterval { return nil }
        do {
            try writer.write { db in
                try db.execute(sql: "UPDATE health_check SET checked_at = ? WHERE id = 1", arguments: [Timestamp(Date())])
            }
        } catch {
            lastHealthWrite.withLock { $0 = nil }
            return "a write could not commit: \(error)"
        }
        lastHealthWrite.withLock { $0 = now }
        return nil
    }

    /// What happened to the database file since it was opened: nil while it is still there.
    public func fileChange() -> DatabaseFileChange? { fileGuard?.change() }

    /// Saves everything the open database holds (the file itself may be gone: the server still has
    /// it open) into a new file beside where it was, and returns that file. For a stop after the
    /// file was deleted or replaced, so acknowledged writes are never lost with it.
    public func saveBeside(now: Date = Date()) throws -> URL {
        let original = URL(fileURLWithPath: writer.path)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var rescue = original.deletingLastPathComponent().appendingPathComponent("\(original.lastPathComponent).rescued-\(formatter.string(from: now))")
        var attempt = 1
        while FileManager.default.fileExists(atPath: rescue.path) {
            attempt += 1
            rescue = original.deletingLastPathComponent().appendingPathComponent(
                "\(original.lastPathComponent).rescued-\(formatter.string(from: now))-\(attempt)")
        }
        let target = rescue.path
        try fileGuard?.allowingRescue {
            try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [target]) }
        }
        return rescue
    }
}

/// What became of the database file while the server had it open.
public enum DatabaseFileChange: Sendable, Equatable {
    /// Deleted (or moved away): nothing is at the path.
    case gone
    /// Another file is at the path (a copy renamed over it, a restore by hand).
    case replaced

    func sentence(_ path: String) -> String {
        switch self {
        case .gone: return "the database file \(path) is gone"
        case .replaced: return "the database file \(path) was replaced while open"
        }
    }
}

/// How often the write path looks at the database file, and by which clock.
public struct FileCheck: Sendable {
    /// How long a check that found the file unchanged stands for the next writes.
    public var interval: Duration
    public var now: @Sendable () -> ContinuousClock.Instant

    public init(interval: Duration = .seconds(1), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.interval = interval
        self.now = now
    }
}

/// Refuses a commit when the database file was deleted or replaced since it was opened: such a
/// write would be acknowledged and then lost (the next start opens whatever is at the path). The
/// commit is rolled back and `StorageFailure.databaseFileChanged` thrown to the writer. A check
/// that found the file unchanged stands for `FileCheck.interval`, so a busy server does not stat
/// the file on every write; a change, once seen, is never forgotten.
final class OpenedFileGuard: TransactionObserver, Sendable {
    let path: String
    let opened: FileIdentity
    let check: FileCheck
    private let state = Mutex<(lastGood: ContinuousClock.Instant?, seen: DatabaseFileChange?, rescuing: Bool)>((nil, nil, false))

    init(path: String, opened: FileIdentity, check: FileCheck) {
        self.path = path
        self.opened = opened
        self.check = check
    }

    /// What happened to the file, looked at now.
    func change() -> DatabaseFileChange? {
        let found: DatabaseFileChange? =
            switch FileIdentity(path: path) {
            case nil: .gone
            case let current? where current != opened: .replaced
            default: nil
            }
        state.withLock { state in
            if let found { state.seen = state.seen ?? found } else { state.lastGood = check.now() }
        }
        return found
    }

    /// `body` may commit although the file changed (the rescue's `VACUUM INTO`).
    func allowingRescue<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.rescuing = true }
        defer { state.withLock { $0.rescuing = false } }
        return try body()
    }

    func databaseWillCommit() throws {
        let now = check.now()
        let (recent, rescuing) = state.withLock { state -> (Bool, Bool) in
            let checkedLately: Bool = state.lastGood.map { now - $0 < check.interval } ?? false
            return (state.seen == nil && checkedLately, state.rescuing)
        }
        if recent || rescuing { return }
        if change() != nil { throw StorageFailure.databaseFileChanged }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

/// A file's device and inode: the same path naming another file (deleted and created again,
/// restored under the running server) has another identity.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// Nil for a path that does not exist (or an in-memory database's empty path).
    init?(path: String) {
        guard !path.isEmpty, path != ":memory:" else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
