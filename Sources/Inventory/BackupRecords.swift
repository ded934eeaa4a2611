import Foundation
import GRDB

/// The one `backup_status` row as stored: what the automatic backups did last and will do next
/// (the failure's reason as its code).
public struct StoredBackupStatus: Sendable, Equatable {
    public var nextAt: Timestamp?
    public var lastSuccessAt: Timestamp?
    public var lastSuccessFile: String?
    public var lastFailureAt: Timestamp?
    public var lastFailureReason: String?
}

/// What the server's automatic backups write and read in the database: their status row, and
/// the push messages a failure queues. Each method is one transaction.
public struct BackupRecords: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// The status row; all nil before the first backup was scheduled.
    public func status() throws -> StoredBackupStatus {
        try database.writer.read { db in try Self.status(db) }
    }

    static func status(_ db: Database) throws -> StoredBackupStatus {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM backup_status WHERE id = 1") else { return StoredBackupStatus() }
        return StoredBackupStatus(
            nextAt: try row.decode(forColumn: "next_at"), lastSuccessAt: try row.decode(forColumn: "last_success_at"),
            lastSuccessFile: row["last_success_file"], lastFailureAt: try row.decode(forColumn: "last_failure_at"),
            lastFailureReason: row["last_failure_reason"])
    }

    /// True when `scope` is the only household on the server.
    public func holdsOnly(in scope: HouseholdScope) throws -> Bool {
        try database.writer.read { db in try Self.holdsOnly(db, scope.householdId) }
    }

    static func holdsOnly(_ db: Database, _ householdId: Household.ID) throws -> Bool {
        try Household.ID.fetchAll(db, sql: "SELECT id FROM household LIMIT 2") == [householdId]
    }

    /// True when a household was made before `time`.
    public func hadHouseholds(before time: Date) throws -> Bool {
        try database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM household WHERE created_at < ?)", arguments: [Timestamp(time)]) ?? false
        }
    }

    /// The next scheduled backup, or nil: none are made.
    public func recordSchedule(next: Date?) throws {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE backup_status SET next_at = ? WHERE id = 1", arguments: [next.map(Timestamp.init)])
        }
    }

    public func recordSuccess(at time: Date, file: String) throws {
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE backup_status SET last_success_at = ?, last_success_file = ? WHERE id = 1",
                arguments: [Timestamp(time), file])
        }
    }

    /// Records the failure (`reason` is its code) and queues a push message of `pushKind` for each
    /// household with a push channel, its words from `message` in that household's language, all
    /// in one transaction; returns how many were queued.
    public func recordFailure(
        at time: Date, reason: String, pushKind: String, message: (_ language: String) -> (title: String, body: String)
    ) throws -> Int {
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE backup_status SET last_failure_at = ?, last_failure_reason = ? WHERE id = 1",
                arguments: [Timestamp(time), reason])
            let households = try Household.ID.fetchAll(db, sql: "SELECT household_id FROM push_channel ORDER BY household_id")
            for householdId in households {
                let (title, body) = message(try ReminderQueue.language(db, householdId))
                try Outbox.enqueue(db, householdId: householdId, kind: pushKind, title: title, body: body, items: [], at: time)
            }
            return households.count
        }
    }
}
