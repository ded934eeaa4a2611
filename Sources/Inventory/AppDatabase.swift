import Foundation
import GRDB
import Synchronization

/// Owns the SQLite connection (a WAL pool on disk, a queue in memory for tests) and its schema.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// The database file as it was when opened (nil in memory): `/healthz` notices it deleted or replaced.
    let openedFile: FileIdentity?
    /// The last committed health write, so `/healthz` polled often does not sync the disk each time.
    let lastHealthWrite = Mutex<ContinuousClock.Instant?>(nil)
    /// How long a successful health write stands for the next checks.
    let healthWriteInterval: Duration

    /// Migrates `writer` to the current schema.
    public init(_ writer: any DatabaseWriter, healthWriteInterval: Duration = .seconds(1)) throws {
        self.writer = writer
        self.healthWriteInterval = healthWriteInterval
        openedFile = FileIdentity(path: writer.path)
        try Schema.migrator.migrate(writer)
    }

    /// The household database at `url` (created if missing), checked with `quick_check` first:
    /// a damaged file stops here with `InventoryError.corruptDatabase`, it is never repaired silently.
    public static func open(at url: URL, healthWriteInterval: Duration = .seconds(1)) throws -> AppDatabase {
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
        return try AppDatabase(pool, healthWriteInterval: healthWriteInterval)
    }

    /// An empty in-memory database with the same configuration, for tests.
    public static func inMemory(healthWriteInterval: Duration = .seconds(1)) throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration()), healthWriteInterval: healthWriteInterval)
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
        if let openedFile {
            guard let current = FileIdentity(path: writer.path) else { return "the database file \(writer.path) is gone" }
            guard current == openedFile else { return "the database file \(writer.path) was replaced while open" }
            if StorageFailure.diskIsFull(at: writer.path) { return "the disk holding \(writer.path) is full" }
        }
        if let last = lastHealthWrite.withLock({ $0 }), now - last < healthWriteInterval { return nil }
        do {
            try writer.write { db in
                try db.execute(sql: "UPDATE health_check SET checked_at = ? WHERE id = 1", arguments: [Timestamp.string(from: Date())])
            }
        } catch {
            lastHealthWrite.withLock { $0 = nil }
            return "a write could not commit: \(error)"
        }
        lastHealthWrite.withLock { $0 = now }
        return nil
    }
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
