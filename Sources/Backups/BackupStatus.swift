import Foundation
import Inventory

/// What owners see of the server's automatic backups (the one `backup_status` row).
public struct BackupStatus: Sendable, Equatable {
    /// The next scheduled backup; nil when no running server makes them (`--no-backup`).
    public var nextAt: Timestamp?
    public var lastSuccessAt: Timestamp?
    public var lastSuccessFile: String?
    public var lastFailureAt: Timestamp?
    public var lastFailureReason: BackupFailureReason?

    public init(
        nextAt: Timestamp? = nil, lastSuccessAt: Timestamp? = nil, lastSuccessFile: String? = nil, lastFailureAt: Timestamp? = nil,
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
        guard let failed = lastFailureAt else { return false }
        guard let succeeded = lastSuccessAt else { return true }
        return failed > succeeded
    }
}

extension BackupStatus {
    /// The status as stored, its failure's reason read from its code.
    public init(_ stored: StoredBackupStatus) {
        self.init(
            nextAt: stored.nextAt, lastSuccessAt: stored.lastSuccessAt, lastSuccessFile: stored.lastSuccessFile, lastFailureAt: stored.lastFailureAt,
            lastFailureReason: stored.lastFailureReason.flatMap(BackupFailureReason.init(rawValue:)))
    }
}

/// Reads and records the automatic backups' status (through Inventory's `BackupRecords`). A
/// failure is recorded, and a push message queued for every household with a push channel, in one
/// transaction; the reminder engine sends them.
public struct BackupStatusStore: Sendable {
    let records: BackupRecords

    /// Push messages of this kind say a backup failed.
    public static let pushKind = "backup_failed"

    public init(database: AppDatabase) { records = BackupRecords(database: database) }

    public func read() throws -> BackupStatus {
        BackupStatus(try records.status())
    }

    /// True when `scope` is the only household on the server: an archive holds every
    /// household's data (password hashes too), so only then may its owner download it.
    public func holdsOnly(in scope: HouseholdScope) throws -> Bool { try records.holdsOnly(in: scope) }

    /// True when a household was made before `time` (there was data to back up then).
    public func hadHouseholds(before time: Date) throws -> Bool { try records.hadHouseholds(before: time) }

    /// The next scheduled backup, or nil: none are made (`--no-backup`, or the server stopped).
    public func recordSchedule(next: Date?) throws { try records.recordSchedule(next: next) }

    public func recordSuccess(at time: Date, file: String) throws { try records.recordSuccess(at: time, file: file) }

    /// Records the failure and queues its push message for each household with a channel, in that
    /// household's language; returns how many were queued.
    @discardableResult
    public func recordFailure(at time: Date, reason: BackupFailureReason, texts: BackupTexts) throws -> Int {
        try records.recordFailure(at: time, reason: reason.rawValue, pushKind: Self.pushKind) { language in texts.failure(reason, language: language) }
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
