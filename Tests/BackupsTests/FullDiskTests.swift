import Foundation
import TestSupport
import Testing

@testable import Backups
@testable import Inventory

/// A write the disk refuses (full, over quota, read-only, not permitted) while the archive is being
/// written is a typed error, told to owners in words of its own, and leaves no file behind.
@Suite("Backups on a full or read-only disk")
struct FullDiskTests {
    /// Writes part of the archive, then fails as the kernel would.
    static func refusing(_ code: POSIXErrorCode) -> BackupArchive.ZipWriter {
        { url, _, _, _ in
            try Data(repeating: 0x5A, count: 4096).write(to: url)
            throw POSIXError(code)
        }
    }

    @Test(arguments: [
        (POSIXErrorCode.ENOSPC, BackupFailureReason.diskFull), (.EDQUOT, .diskFull), (.EROFS, .notWritable), (.EACCES, .notWritable),
    ])
    func aWriteTheDiskRefusesIsTypedAndLeavesNothing(code: POSIXErrorCode, reason: BackupFailureReason) throws {
        let data = try ServerData()
        defer { data.close() }
        try data.addItems(2, photos: 1)
        let folder = data.folder.appending("backups")
        let destination = folder.appendingPathComponent("backup.zip")
        let error = #expect(throws: BackupError.self) {
            try BackupArchive.write(
                source: data.database.writer, photosDirectory: data.photosURL, to: destination, zaikoVersion: "test", now: Date(),
                writeZip: Self.refusing(code))
        }
        #expect(error == (reason == .diskFull ? .diskFull(folder.path) : .notWritable(folder.path)))
        #expect(BackupFailureReason(try #require(error)) == reason)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// The automatic backup that writes a real archive onto a full disk records "disk full" for
    /// Settings (it used to say "Something unexpected stopped it").
    @Test func theAutomaticBackupOnAFullDiskRecordsDiskFull() throws {
        let data = try ServerData()
        defer { data.close() }
        try data.addItems(1)
        let folder = data.folder.appending("automatic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clock = ManualClock(utc("2026-11-22T18:00:00Z"))
        let database = data.database
        let photos = data.photosURL
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: folder, schedule: BackupSchedule(hour: 3, timeZone: .gmt)!), database: database, clock: clock.wall,
            makeArchive: { url in
                _ = try BackupArchive.write(
                    source: database.writer, photosDirectory: photos, to: url, zaikoVersion: "test", now: Date(), writeZip: Self.refusing(.ENOSPC))
            })
        #expect(backups.backUp() == .failed(.diskFull))
        #expect(try BackupStatusStore(database: database).read().lastFailureReason == .diskFull)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
