import Backups
import Foundation
import Inventory
import Synchronization
import TestSupport
import Testing

/// Daily at the operator's hour in the server's time zone, once per day, on the runner's own thread
/// driven by an injected clock (the test moves the clock and rings; nothing sleeps or is timed).
@Suite("Backup schedule")
struct ScheduleTests {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func theNextBackupIsTheSetHourInTheServersZone() throws {
        let schedule = try #require(BackupSchedule(hour: 3, timeZone: tokyo))
        // 02:59 in Tokyo is 17:59 UTC the day before.
        #expect(schedule.next(after: utc("2026-11-22T17:59:00Z")) == utc("2026-11-22T18:00:00Z"))
        // At 03:00 exactly, the next one is tomorrow's.
        #expect(schedule.next(after: utc("2026-11-22T18:00:00Z")) == utc("2026-11-23T18:00:00Z"))
        #expect(schedule.next(after: utc("2026-11-23T01:00:00Z")) == utc("2026-11-23T18:00:00Z"))
        #expect(schedule.day(of: utc("2026-11-22T18:00:00Z")) == CalendarDay("2026-11-23"))
        #expect(BackupSchedule(hour: 24) == nil && BackupSchedule(hour: -1) == nil)
        // A day when 02:00 does not exist (Berlin, spring forward): the backup still happens that day.
        let berlin = try #require(BackupSchedule(hour: 2, timeZone: TimeZone(identifier: "Europe/Berlin")!))
        let skipped = berlin.next(after: utc("2026-03-28T12:00:00Z"))
        #expect(berlin.day(of: skipped) == CalendarDay("2026-03-29"))
        #expect(skipped > utc("2026-03-28T12:00:00Z") && skipped <= utc("2026-03-29T02:00:00Z"))
    }

    @Test func theThreadMakesOneBackupAtTheSetHourEachDay() async throws {
        let folder = try TemporaryFolder("zaiko-schedule")
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        let clock = ManualClock(utc("2026-11-22T16:00:00Z")) // 01:00 in Tokyo
        let made = Mutex<[String]>([])
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: folder.url, schedule: BackupSchedule(hour: 3, timeZone: tokyo)!), database: database,
            clock: clock.wall,
            makeArchive: { url in
                made.withLock { $0.append(url.lastPathComponent) }
                try Data("archive".utf8).write(to: url)
            })
        /// Moves the clock, rings, and waits until the thread has looked at the new time.
        func at(_ time: String) async throws {
            let target = utc(time)
            clock.advance(target.timeIntervalSince(clock.now))
            let ticket = backups.wake()
            try await eventually("the backup thread handled the ring") { backups.hasHandled(ticket) }
        }
        func archives() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() }
        let status = BackupStatusStore(database: database)
        try await running(backups) {
            try await at("2026-11-22T16:00:00Z")
            #expect(try status.read().nextAt == "2026-11-22T18:00:00Z")
            try await at("2026-11-22T17:59:59Z")
            #expect(made.withLock { $0 }.isEmpty)
            try await at("2026-11-22T18:00:00Z")
            #expect(try archives() == ["zaiko-backup-2026-11-23.zip"])
            #expect(try status.read().lastSuccessAt == "2026-11-22T18:00:00Z")
            #expect(try status.read().nextAt == "2026-11-23T18:00:00Z")
            // Rung again and again the same day, later that day: no second backup.
            try await at("2026-11-22T18:00:00Z")
            try await at("2026-11-22T18:30:00Z")
            try await at("2026-11-23T17:59:00Z")
            #expect(made.withLock { $0 }.count == 1)
            try await at("2026-11-23T18:00:01Z")
            #expect(try archives() == ["zaiko-backup-2026-11-23.zip", "zaiko-backup-2026-11-24.zip"])
            // Three days asleep (a suspended box): one backup when it wakes, not three.
            try await at("2026-11-27T09:00:00Z")
            #expect(made.withLock { $0 }.count == 3)
            #expect(try archives().last == "zaiko-backup-2026-11-27.zip")
            #expect(try status.read().nextAt == "2026-11-27T18:00:00Z")
            // Written under a hidden temporary name, renamed once complete.
            #expect(made.withLock { $0 }.allSatisfy { $0.hasPrefix(".zaiko-tmp-\(getpid())-") })
        }
    }

    /// Starts a runner at `now` over `database` (03:00 in Tokyo), lets its thread make its first
    /// pass, and returns the archives it made; nothing sleeps, the clock never moves.
    func archivesMadeAtStart(_ database: AppDatabase, now: String) async throws -> [String] {
        let folder = try TemporaryFolder("zaiko-schedule")
        defer { folder.remove() }
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: folder.url, schedule: BackupSchedule(hour: 3, timeZone: tokyo)!), database: database,
            clock: ManualClock(utc(now)).wall, makeArchive: { url in try Data("archive".utf8).write(to: url) })
        return try await running(backups) {
            let ticket = backups.wake()
            try await eventually("the backup thread made its first pass") { backups.hasHandled(ticket) }
            return try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        }
    }

    @Test func aBackupMissedWhileTheBoxWasOffIsMadeAtStart() async throws {
        let database = try AppDatabase.inMemory()
        let status = BackupStatusStore(database: database)
        // The last good backup: 03:00 on the 21st in Tokyo; the box was off at 03:00 on the 22nd.
        try status.recordSuccess(at: utc("2026-11-20T18:00:00Z"), file: "zaiko-backup-2026-11-21.zip")
        // 01:00 on the 23rd in Tokyo: before today's 03:00, after yesterday's missed one.
        #expect(try await archivesMadeAtStart(database, now: "2026-11-22T16:00:00Z") == ["zaiko-backup-2026-11-23.zip"])
        #expect(try status.read().lastSuccessAt == "2026-11-22T16:00:00Z")
    }

    @Test func noBackupAtStartWhenTheLastScheduledOneWasMade() async throws {
        let database = try AppDatabase.inMemory()
        try BackupStatusStore(database: database).recordSuccess(at: utc("2026-11-21T18:00:00Z"), file: "zaiko-backup-2026-11-22.zip")
        #expect(try await archivesMadeAtStart(database, now: "2026-11-22T16:00:00Z") == [])
    }

    /// Never backed up: a household that existed at the last scheduled time is backed up at once;
    /// a server set up since (or with no household yet) waits for the schedule.
    @Test func aServerNeverBackedUpCatchesUpOnlyWhenItHadDataAtTheScheduledTime() async throws {
        let empty = try AppDatabase.inMemory()
        #expect(try await archivesMadeAtStart(empty, now: "2026-11-22T16:00:00Z") == [])
        let setUpSince = try Fixture(clock: ManualClock(utc("2026-11-21T19:00:00Z")))
        #expect(try await archivesMadeAtStart(setUpSince.database, now: "2026-11-22T16:00:00Z") == [])
        let setUpBefore = try Fixture(clock: ManualClock(utc("2026-11-21T17:00:00Z")))
        #expect(try await archivesMadeAtStart(setUpBefore.database, now: "2026-11-22T16:00:00Z") == ["zaiko-backup-2026-11-23.zip"])
    }

    @Test func theLastScheduledTimeIsTheHourAtOrBeforeNow() throws {
        let schedule = try #require(BackupSchedule(hour: 3, timeZone: tokyo))
        #expect(schedule.previous(atOrBefore: utc("2026-11-22T16:00:00Z")) == utc("2026-11-21T18:00:00Z"))
        #expect(schedule.previous(atOrBefore: utc("2026-11-22T18:00:00Z")) == utc("2026-11-22T18:00:00Z"))
        #expect(schedule.previous(atOrBefore: utc("2026-11-22T18:00:01Z")) == utc("2026-11-22T18:00:00Z"))
    }

    @Test func theDailyBackupIsTheWholeArchiveAndVerifies() async throws {
        let data = try ServerData()
        defer { data.close() }
        try data.addItems(3, photos: 1)
        let backupsFolder = data.folder.appending("daily")
        try FileManager.default.createDirectory(at: backupsFolder, withIntermediateDirectories: true)
        let clock = ManualClock(utc("2026-11-22T17:59:00Z"))
        // What `zaiko serve` wires: the same archive as `zaiko backup`.
        let (database, photos) = (data.database, data.photosURL)
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: backupsFolder, schedule: BackupSchedule(hour: 3, timeZone: tokyo)!), database: database,
            clock: clock.wall,
            makeArchive: { url in _ = try BackupArchive.write(database: database, photosDirectory: photos, to: url, zaikoVersion: "test") })
        try await running(backups) {
            for step in [0.0, 60] { // the thread reads the time before 03:00, then at 03:00
                clock.advance(step)
                let ticket = backups.wake()
                try await eventually("the backup thread handled the ring") { backups.hasHandled(ticket) }
            }
        }
        #expect(try BackupStatusStore(database: database).read().lastFailureReason == nil)
        let archive = backupsFolder.appendingPathComponent("zaiko-backup-2026-11-23.zip")
        #expect(listing(backupsFolder) == ["zaiko-backup-2026-11-23.zip"])
        let manifest = try BackupRestore.verify(archive: archive)
        #expect(manifest.rowCounts["item"] == 3)
        #expect(manifest.files.filter { $0.path.hasPrefix("photos/") }.count == 2)
    }

    @Test func stoppingSaysNoneAreScheduled() async throws {
        let folder = try TemporaryFolder("zaiko-schedule")
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: folder.url, schedule: BackupSchedule(hour: 3)!), database: database, makeArchive: { _ in })
        try await running(backups) {
            let ticket = backups.wake()
            try await eventually("first pass") { backups.hasHandled(ticket) }
            #expect(try BackupStatusStore(database: database).read().isScheduled)
        }
        #expect(try !BackupStatusStore(database: database).read().isScheduled)
    }
}
