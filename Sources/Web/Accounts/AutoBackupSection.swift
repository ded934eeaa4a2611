import Backups
import Foundation

/// Settings' "Automatic backups" card: the last good backup, the next one, and the last failure,
/// in the household's time zone and the reader's language.
struct AutoBackupSection: Sendable {
    /// The last good backup, and the next one when they are scheduled.
    let lines: [String]
    /// The server makes none (`--no-backup`).
    let off: Bool
    /// The last attempt failed: said as an alert.
    let failure: String?
    /// A failure a good backup has followed since.
    let pastFailure: String?

    init(_ status: BackupStatus, timeZone: String, locale t: Catalog) {
        let when = { (iso: String) in DisplayFormat.dateTime(iso, timeZone: timeZone, locale: t) }
        var lines = [status.lastSuccessAt.map { t.format("autobackup_last_good", ["date": when($0)]) } ?? t["autobackup_none_yet"]]
        if let next = status.nextAt { lines.append(t.format("autobackup_next", ["date": when(next)])) }
        self.lines = lines
        off = !status.isScheduled
        let failed = status.lastFailureAt.map { at in
            t.format(
                status.isFailing ? "autobackup_failed" : "autobackup_failed_before",
                ["date": when(at), "reason": t["backup_failure_\((status.lastFailureReason ?? .other).rawValue)"]])
        }
        failure = status.isFailing ? failed : nil
        pastFailure = status.isFailing ? nil : failed
    }
}
