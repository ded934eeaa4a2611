import Foundation
import GRDB

/// Owns the SQLite connection (a WAL pool on disk, a queue in memory for tests) and its schema.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    /// Migrates `writer` to the current schema.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Schema.migrator.migrate(writer)
    }

    /// The household database at `url` (created if missing), checked with `quick_check` first:
    /// a damaged file stops here with `InventoryError.corruptDatabase`, it is never repaired silently.
    public static func open(at url: URL) throws -> AppDatabase {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration())
            try checkIntegrity(pool)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw InventoryError.corruptDatabase(path: url.path, detail: error.message ?? "\(error.resultCode)")
        }
        return try AppDatabase(pool)
    }

    /// An empty in-memory database with the same configuration, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration()))
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // An acknowledged write must survive a power cut.
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

    /// True when the database answers; what `/healthz` reports.
    public func isHealthy() -> Bool {
        (try? writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
