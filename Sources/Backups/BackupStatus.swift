import Foundation
import GRDB
import Inventory

/// What owners see of the server's automatic backups (the one `backup_status` row).
public struct BackupStatus: Sendable, Equatable {
    /// The next scheduled backup; nil when no running server makes them (`--no-backup`).
    public var nextAt: String?
    public var lastSuccessAt: String?
    public var lastSuccessFile: String?
    public var lastFailureAt: String?
    public var lastFailureReason: BackupFailureReason?

    public init(
        nextAt: String? = nil, lastSuccessAt: String? = nil, lastSuccessFile: String? = nil, lastFailureAt: String? = nil,
        lastFailureReason: BackupFailureReason? = nil
    ) {
        self.nextAt = nextAt
        self.lastSuccessAt = lastSuccessAt
        self.lastSuccessFile = lastSuccessFile
        self.lastFailureAt = lastFailureAt
        self.lastFailureReason = lastFailureReason
    }

    public var isScheduled: Bool { nextAt != nil }

    /// The last attempt failed: no good backup since the last failure.
    public var isFailing: Bool {
        guard let failed = Timestamp.date(from: lastFailureAt) else { return false }
        guard let succeeded = Timestamp.date(from: lastSuccessAt) else { return true }
        return failed > succeeded
    }
}

/// Reads and records the automatic backups' status. A failure is recorded, and a push message
/// queued for every household with a push channel, in one transaction; the reminder engine sends them.
public struct BackupStatusStore: Sendable {
    let database: AppDatabase

    /// Push messages of this kind say a backup failed.
    public static let pushKind = "backup_failed"

    public init(database: AppDatabase) { self.database = database }

    public func read() throws -> BackupStatus {
        try database.writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM backup_status WHERE id = 1") else { return BackupStatus() }
            return BackupStatus(
                nextAt: row["next_at"], lastSuccessAt: row["last_success_at"], lastSuccessFile: row["last_success_file"],
                lastFailureAt: row["last_failure_at"], lastFailureReason: (row["last_failure_reason"] as String?).flatMap(BackupFailureReason.init(rawValue:)))
        }
    }

    /// True when `householdId` is the only household on the server: an archive holds every
    /// household's data (password hashes too), so only then may its owner download it.
    public func holdsOnly(householdId: Int64) throws -> Bool {
        try database.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM household LIMIT 2") == [householdId]
        }
    }

    /// True when a household was made before `time` (there was data to back up then).
    public func hadHouseholds(before time: Date) throws -> Bool {
        try database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM household WHERE created_at < ?)", arguments: [Timestamp.string(from: time)]) ?? false
        }
    }

    /// The next scheduled backup, or nil: none are made (`--no-backup`, or the server stopped).
    public func recordSchedule(next: Date?) throws {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE backup_status SET next_at = ? WHERE id = 1", arguments: [next.map(Timestamp.string(from:))])
        }
    }

    public func recordSuccess(at time: Date, file: String) throws {
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE backup_status SET last_success_at = ?, last_success_file = ? WHERE id = 1",
                arguments: [Timestamp.string(from: time), file])
        }
    }

    /// Records the failure and queues its push message for each household with a channel, in that
    /// household's language; returns how many were queued.
    @discardableResult
    public func recordFailure(at time: Date, reason: BackupFailureReason, texts: BackupTexts) throws -> Int {
        try database.writer.write { db in
            try db.execute(
                sql: "UPDATE backup_status SET last_failure_at = ?, last_failure_reason = ? WHERE id = 1",
                arguments: [Timestamp.string(from: time), reason.rawValue])
            let households = try Int64.fetchAll(db, sql: "SELECT household_id FROM push_channel ORDER BY household_id")
            for householdId in households {
                let (title, body) = texts.failure(reason, language: try ReminderQueue.language(db, householdId))
                try Outbox.enqueue(db, householdId: householdId, kind: Self.pushKind, title: title, body: body, items: [], at: time)
            }
            return households.count
        }
    }
}

/// The words of the failure's push message, in a household's language (read from the app's catalogs).
public struct BackupTexts: Sendable {
    let lookup: @Sendable (_ language: String, _ key: String) -> String?

    public init(lookup: @escaping @Sendable (_ language: String, _ key: String) -> String?) { self.lookup = lookup }

    /// English built in: for tests and a missing catalog.
    public static let english = BackupTexts { _, _ in nil }

    static let fallback: [String: String] = [
        "backup_push_title": "Zaiko: the automatic backup failed",
        "backup_push_body": "{reason} Earlier backups are untouched.",
        "backup_failure_disk_full": "The backup disk is full.",
        "backup_failure_folder_missing": "The backup folder is missing (is its disk connected?).",
        "backup_failure_not_writable": "The backup folder cannot be written to.",
        "backup_failure_other": "Something unexpected stopped it; the server's log has the details.",
    ]

    func text(_ language: String, _ key: String) -> String { lookup(language, key) ?? Self.fallback[key] ?? key }

    public func failure(_ reason: BackupFailureReason, language: String) -> (title: String, body: String) {
        let body = text(language, "backup_push_body").replacingOccurrences(of: "{reason}", with: text(language, "backup_failure_\(reason.rawValue)"))
        return (text(language, "backup_push_title"), body)
    }
}
