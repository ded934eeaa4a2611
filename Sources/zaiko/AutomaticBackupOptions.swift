import ArgumentParser
import Backups
import Foundation
import Inventory
import Logging
import Web

/// `zaiko serve`'s automatic backups: on by default, daily at `--backup-hour` (server time) into
/// `--backup-dir`, kept per `--backup-keep`; `--no-backup` turns them off.
struct AutomaticBackupOptions: ParsableArguments {
    @Option(help: "Hour of the daily automatic backup, 0 to 23, in the server's time zone.")
    var backupHour: Int = 3

    @Option(help: "Folder for automatic backups. (default: <data>/backups)")
    var backupDir: String?

    @Option(help: "Automatic backups kept: daily,weekly. 7,4 keeps the last 7 days and one a week for the 4 weeks before.")
    var backupKeep: String = BackupRetention.standard.description

    @Flag(help: "Make no automatic backups.")
    var noBackup = false

    /// Checked before anything is opened or written: one sentence saying which option is wrong.
    func validate() throws {
        if BackupSchedule(hour: backupHour) == nil { throw ValidationError("--backup-hour must be an hour from 0 to 23, not \(backupHour).") }
        if BackupRetention(parsing: backupKeep) == nil { throw ValidationError(BackupRetention.usage) }
    }

    /// The plan the options describe (`validate()` has passed).
    func plan(data: URL) throws -> BackupPlan {
        guard let schedule = BackupSchedule(hour: backupHour), let retention = BackupRetention(parsing: backupKeep) else {
            throw ValidationError(BackupRetention.usage)
        }
        let directory = backupDir.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? data.appendingPathComponent("backups")
        return BackupPlan(directory: directory, schedule: schedule, retention: retention)
    }

    /// The schedule (nil with `--no-backup`), not running yet: it is one of the server's services,
    /// run once the server is set up (Settings uses it for "Back up now") and stopped before the
    /// database closes.
    func make(database: AppDatabase, data: URL, photos: URL, localizations: Localizations) throws -> AutomaticBackups? {
        let status = BackupStatusStore(database: database)
        // What a backup or restore killed mid-way left: beside the data folder (a restore's
        // staging folder) and in the default backup folder (the schedule sweeps its own folder).
        for folder in [data.deletingLastPathComponent(), data.appendingPathComponent("backups")] {
            WorkFiles.sweep(folder, includingOwn: true)
        }
        if noBackup {
            try status.recordSchedule(next: nil)
            return nil
        }
        let plan = try plan(data: data)
        // The default folder is made at start; one given with --backup-dir must exist (a backup disk
        // that is not mounted is reported at backup time, not replaced by a folder on the data disk).
        if backupDir == nil { try? FileManager.default.createDirectory(at: plan.directory, withIntermediateDirectories: true) }
        let backups = AutomaticBackups(
            plan: plan, database: database,
            texts: BackupTexts { language, key in localizations.catalogs[language]?.text(named: key) },
            logger: Logger(label: "zaiko.backups"),
            makeArchive: { url in
                // On the schedule's own thread, which does nothing else.
                runInTheBackground()
                _ = try BackupArchive.write(
                    database: database, photosDirectory: photos, to: url, zaikoVersion: ZaikoVersion.current, now: Date())
            })
        return backups
    }
}
