import Backups
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// A backup that fails (disk full, folder gone) keeps every earlier archive, leaves no partial file,
/// is recorded for Settings and queues a push message for each household with a channel.
@Suite("Backup failures")
struct FailureTests {
    struct Setup {
        let folder: TemporaryFolder
        let home: Fixture
        let clock: ManualClock
    }

    /// "Home" has an ntfy channel (its owner reads Japanese); a second household has none.
    func setUp() throws -> Setup {
        let clock = ManualClock(utc("2026-11-22T18:00:00Z"))
        let home = try Fixture(language: "ja", clock: clock)
        try PushChannels(database: home.database, clock: clock.wall).save(
            PushChannelInput(kind: "ntfy", url: "https://ntfy.example", topic: "home"), in: home.household)
        _ = try home.accounts.createHousehold(name: "Grandparents")
        return Setup(folder: try TemporaryFolder("zaiko-failure"), home: home, clock: clock)
    }

    func runner(_ setup: Setup, makeArchive: @escaping @Sendable (URL) throws -> Void) -> AutomaticBackups {
        AutomaticBackups(
            plan: BackupPlan(directory: setup.folder.url, schedule: BackupSchedule(hour: 3, timeZone: .gmt)!), database: setup.home.database,
            clock: setup.clock.wall, texts: BackupTexts { language, key in language == "ja" && key == "backup_push_title" ? "バックアップ失敗" : nil },
            makeArchive: makeArchive)
    }

    /// The earlier archives, by name, with their bytes.
    func contents(_ folder: TemporaryFolder) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) { result[name] = try Data(contentsOf: folder.appending(name)) }
        return result
    }

    func messages(_ database: AppDatabase) throws -> [Row] {
        try database.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM push_message WHERE kind = 'backup_failed' ORDER BY id") }
    }

    /// Two good days, then a writer that writes part of the archive (and a temporary file of its own
    /// beside it) and throws ENOSPC.
    @Test func aWriterRunningOutOfSpaceHalfwayLeavesEveryEarlierArchiveAndNoPartialFile() throws {
        let setup = try setUp()
        defer { setup.folder.remove() }
        let good = runner(setup) { url in try Data(repeating: 0x5A, count: 4096).write(to: url) }
        #expect(good.backUp() == .made(file: "zaiko-backup-2026-11-22.zip"))
        setup.clock.advance(86_400)
        #expect(good.backUp() == .made(file: "zaiko-backup-2026-11-23.zip"))
        // A file that is not an automatic backup is never touched either.
        try Data("by hand".utf8).write(to: setup.folder.appending("before-upgrade.zip"))
        let before = try contents(setup.folder)

        setup.clock.advance(86_400)
        let failing = runner(setup) { url in
            try Data(repeating: 0x5A, count: 1000).write(to: url)
            try Data(repeating: 0x5A, count: 1000).write(to: url.deletingLastPathComponent().appendingPathComponent(".writer-tmp-1"))
            throw POSIXError(.ENOSPC)
        }
        #expect(failing.backUp() == .failed(.diskFull))
        #expect(try contents(setup.folder) == before)

        let status = try BackupStatusStore(database: setup.home.database).read()
        #expect(status.isFailing)
        #expect(status.lastFailureReason == .diskFull)
        #expect(status.lastFailureAt == "2026-11-24T18:00:00Z")
        #expect(status.lastSuccessAt == "2026-11-23T18:00:00Z")
        // Queued (not sent inline) for the household with a channel only, in its owner's language.
        let queued = try messages(setup.home.database)
        #expect(queued.count == 1)
        #expect(queued.first?["household_id"] == setup.home.household.householdId)
        #expect(queued.first?["state"] == "pending")
        #expect(queued.first?["title"] == "バックアップ失敗")
        #expect((queued.first?["body"] as String?)?.contains("The backup disk is full.") == true)

        // The next good backup clears the alarm; the failure stays on record.
        setup.clock.advance(86_400)
        #expect(good.backUp() == .made(file: "zaiko-backup-2026-11-25.zip"))
        let after = try BackupStatusStore(database: setup.home.database).read()
        #expect(!after.isFailing && after.lastFailureReason == .diskFull)
    }

    /// A real write refused by the kernel: `head` in a subprocess under `ulimit -f 8` (4 KB) writes
    /// the archive's first 4 KB and gets EFBIG, leaving a real partial file.
    @Test func aRealFileSizeLimitInASubprocessLeavesNoPartialFile() throws {
        let setup = try setUp()
        defer { setup.folder.remove() }
        #expect(runner(setup) { url in try Data("yesterday".utf8).write(to: url) }.backUp() == .made(file: "zaiko-backup-2026-11-22.zip"))
        setup.clock.advance(86_400)
        let partialSeen = PartialSize()
        let limited = runner(setup) { url in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f 8; head -c 100000 /dev/zero > \"$0\"", url.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            partialSeen.record((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
            if process.terminationStatus != 0 { throw POSIXError(.EFBIG) }
        }
        #expect(limited.backUp() == .failed(.diskFull))
        #expect(partialSeen.value == 4096, "the subprocess really wrote part of the file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.folder.url.path) == ["zaiko-backup-2026-11-22.zip"])
        #expect(try String(contentsOf: setup.folder.appending("zaiko-backup-2026-11-22.zip"), encoding: .utf8) == "yesterday")
        #expect(try messages(setup.home.database).count == 1)
    }

    @Test func aFolderThatIsGoneIsReportedAndNotMadeAgain() throws {
        let setup = try setUp()
        let gone = setup.folder.url
        setup.folder.remove()
        let backups = runner(setup) { url in try Data("x".utf8).write(to: url) }
        #expect(backups.backUp() == .failed(.folderMissing))
        #expect(!FileManager.default.fileExists(atPath: gone.path))
        #expect(try BackupStatusStore(database: setup.home.database).read().lastFailureReason == .folderMissing)
        #expect(try messages(setup.home.database).count == 1)
    }

    @Test func errorsAreToldAsTheirReason() {
        #expect(BackupFailureReason(POSIXError(.ENOSPC)) == .diskFull)
        #expect(BackupFailureReason(CocoaError(.fileWriteOutOfSpace)) == .diskFull)
        #expect(BackupFailureReason(DatabaseError(resultCode: .SQLITE_FULL)) == .diskFull)
        #expect(BackupFailureReason(POSIXError(.ENOENT)) == .folderMissing)
        #expect(BackupFailureReason(POSIXError(.EROFS)) == .notWritable)
        #expect(BackupFailureReason(CocoaError(.fileWriteNoPermission)) == .notWritable)
        #expect(BackupFailureReason(POSIXError(.EIO)) == .other)
    }
}

/// The size a subprocess left, seen from inside the writer.
final class PartialSize: @unchecked Sendable {
    private let lock = NSLock()
    private var size = 0
    func record(_ value: Int) { lock.withLock { size = value } }
    var value: Int { lock.withLock { size } }
}
