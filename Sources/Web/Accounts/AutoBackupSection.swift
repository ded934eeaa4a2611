import Backups
import Foundation
import Inventory

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
    /// "Back up now" is offered (the server makes backups and none is being made).
    let canBackUpNow: Bool
    /// A backup is being made now.
    let running: Bool
    /// The newest archive may be downloaded (`GET /settings/backups/latest`).
    let canDownload: Bool
    /// What became of "Back up now", after its redirect.
    let notice: String?

    /// `control` is nil when the server makes no backups; `mayDownload` when the archive holds
    /// only this owner's household; `asked` is the `backup` query of the redirect.
    init(_ status: BackupStatus, timeZone: String, locale t: Catalog, control: (any BackupControl)? = nil, mayDownload: Bool = false, asked: String? = nil) {
        let when = { (instant: Timestamp) in DisplayFormat.dateTime(instant, timeZone: timeZone, locale: t) }
        var lines = [status.lastSuccessAt.map { t.format(.autobackupLastGood, ["date": when($0)]) } ?? t[.autobackupNoneYet]]
        if let next = status.nextAt { lines.append(t.format(.autobackupNext, ["date": when(next)])) }
        self.lines = lines
        off = !status.isScheduled
        let failed = status.lastFailureAt.map { at in
            t.format(
                status.isFailing ? .autobackupFailed : .autobackupFailedBefore,
                ["date": when(at), "reason": t[.backupFailure, (status.lastFailureReason ?? .other).rawValue]])
        }
        failure = status.isFailing ? failed : nil
        pastFailure = status.isFailing ? nil : failed
        running = control?.isBackingUp ?? false
        canBackUpNow = control != nil && !running
        canDownload = mayDownload && control?.latestArchive() != nil
        switch asked {
        case "busy": notice = t[.autobackupBusy]
        case "started" where !running: notice = t[.autobackupDone]
        default: notice = nil
        }
    }
}
