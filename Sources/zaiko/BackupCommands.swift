import ArgumentParser
import Backups
import Foundation

/// The data folder of the backup commands (`--data`, ZAIKO_DATA, ./data).
struct BackupDataOption: ParsableArguments {
    @Option(help: "Folder holding zaiko.sqlite and photos/. (ZAIKO_DATA, default ./data)")
    var data: String?

    var url: URL { URL(fileURLWithPath: data ?? ProcessInfo.processInfo.environment["ZAIKO_DATA"] ?? "./data").standardizedFileURL }
}

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the whole server (database, photos, manifest) to one ZIP archive; the server may keep running.")

    @Option(help: "The archive to write. (default: <data>/backups/zaiko-backup-<date>-<time>.zip)")
    var to: String?
    @OptionGroup var options: BackupDataOption

    func run() throws {
        DataDirectory.keepNewFilesPrivate()
        runInTheBackground()
        let data = options.url
        let databaseFile = data.appendingPathComponent("zaiko.sqlite")
        guard FileManager.default.fileExists(atPath: databaseFile.path) else {
            throw Failure(message: "There is no Zaiko database in \(data.path); pass the server's folder with --data.")
        }
        let destination =
            to.map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? data.appendingPathComponent("backups").appendingPathComponent(BackupArchive.defaultFileName())
        do {
            let manifest = try BackupArchive.write(
                databaseFile: databaseFile, photosDirectory: data.appendingPathComponent("photos"), to: destination,
                zaikoVersion: ZaikoVersion.current)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
            let size = ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
            print("Backup written to \(destination.path) (\(size): \(manifest.rowCounts["item"] ?? 0) items, \(manifest.photoFileCount) photo files).")
        } catch let error as BackupError {
            throw Failure(message: error.description)
        }
    }
}

/// A backup is background work: the server's pages go first whenever both want a core. Linux's
/// SCHED_IDLE (5 in <linux/sched.h>, not imported into Swift) runs the calling thread only on a
/// core the server leaves idle; elsewhere, or if refused, the lowest usual priority. On Linux both
/// apply to the calling thread only: the command's own thread, or the server's backup thread.
func runInTheBackground() {
    #if os(Linux)
        var parameters = sched_param()
        if sched_setscheduler(0, 5, &parameters) == 0 { return }
    #endif
    _ = nice(19)
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup archive into an empty data folder (stop the server first).",
        discussion: """
            Every checksum and SQLite's integrity check pass before anything is written; an archive \
            from an older Zaiko is migrated, one from a newer Zaiko is refused.
            """)

    @Argument(help: "The backup archive (.zip) written by `zaiko backup`.")
    var file: String
    @OptionGroup var options: BackupDataOption
    @Flag(help: "Restore into a folder that holds data: its current contents are moved aside first (the path is printed).")
    var replace = false

    func run() throws {
        DataDirectory.keepNewFilesPrivate()
        let archive = URL(fileURLWithPath: file).standardizedFileURL
        guard FileManager.default.fileExists(atPath: archive.path) else { throw Failure(message: "There is no file \(archive.path).") }
        do {
            let outcome = try BackupRestore.restore(archive: archive, into: options.url, replace: replace)
            let manifest = outcome.manifest
            if let aside = outcome.movedAside { print("The data that was in \(options.url.path) is now in \(aside.path).") }
            print(
                "Restored the backup of \(manifest.createdAt) (Zaiko \(manifest.zaikoVersion), \(manifest.rowCounts["item"] ?? 0) items, \(manifest.photoFileCount) photo files) into \(options.url.path)."
            )
            if outcome.schemaVersion != manifest.schemaVersion {
                print("Its database was upgraded from \"\(manifest.schemaVersion)\" to \"\(outcome.schemaVersion)\".")
            }
        } catch let error as BackupError {
            throw Failure(message: error.description)
        }
    }
}
