import Foundation
import Inventory
import TestSupport
import Testing

@testable import Backups

/// Temporary files of backups and restores carry one prefix and the id of the process that made
/// them; a sweep removes those of processes that have ended, and nothing else.
@Suite("Leftovers of killed backups and restores")
struct WorkFilesTests {
    /// The id of a process that has ended.
    func endedProcess() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// Leaves, in `folder`, what a killed process left: a snapshot folder with a file, a partial archive.
    func leaveLeftovers(in folder: URL, by pid: pid_t) throws -> [String] {
        let names = ["\(WorkFiles.prefix)\(pid)-1a2b-snapshot", "\(WorkFiles.prefix)\(pid)-3c4d-archive"]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(names[0]).appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data("password hashes".utf8).write(to: folder.appendingPathComponent(names[0]).appendingPathComponent("zaiko.sqlite"))
        try Data("PK partial".utf8).write(to: folder.appendingPathComponent(names[1]))
        return names
    }

    @Test func theSweepRemovesOnlyWorkFilesOfEndedProcessesAndItsOwnWhenAsked() throws {
        let folder = try TemporaryFolder("zaiko-sweep")
        defer { folder.remove() }
        let ended = try leaveLeftovers(in: folder.url, by: try endedProcess())
        let own = try leaveLeftovers(in: folder.url, by: getpid())
        // A process still running (pid 1 always is), and files that are not work files.
        let running = try leaveLeftovers(in: folder.url, by: 1)
        let others = ["zaiko-backup-2026-11-22.zip", ".zaiko-tmp-", ".zaiko-tmp-x-1-archive", ".hidden", "notes.txt"]
        for name in others { try Data("keep".utf8).write(to: folder.appending(name)) }

        #expect(WorkFiles.sweep(folder.url, includingOwn: false) == ended.sorted())
        #expect(listing(folder.url) == (own + running + others).sorted())
        #expect(WorkFiles.sweep(folder.url, includingOwn: true) == own.sorted())
        #expect(listing(folder.url) == (running + others).sorted())
    }

    @Test func aBackupARestoreAndTheScheduleEachSweepWhereTheyWrite() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(2, photos: 1)
        let dead = try endedProcess()
        let backups = server.folder.appending("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        _ = try leaveLeftovers(in: backups, by: dead)
        let (archive, _) = try server.backup()
        #expect(listing(backups) == ["backup.zip"])

        _ = try leaveLeftovers(in: server.folder.url, by: dead)
        _ = try BackupRestore.restore(archive: archive, into: server.folder.appending("restored"), replace: false)
        #expect(listing(server.folder.url).allSatisfy { !$0.hasPrefix(WorkFiles.prefix) })

        let automatic = server.folder.appending("automatic")
        try FileManager.default.createDirectory(at: automatic, withIntermediateDirectories: true)
        _ = try leaveLeftovers(in: automatic, by: dead)
        let schedule = AutomaticBackups(
            plan: BackupPlan(directory: automatic, schedule: BackupSchedule(hour: 3, timeZone: .gmt)!), database: server.database,
            clock: ManualClock(utc("2026-11-22T12:00:00Z")).wall, makeArchive: { url in try Data("archive".utf8).write(to: url) })
        schedule.removeLeftovers()
        #expect(listing(automatic) == [])
        _ = try leaveLeftovers(in: automatic, by: dead)
        #expect(schedule.backUp() == .made(file: "zaiko-backup-2026-11-22.zip"))
        #expect(listing(automatic) == ["zaiko-backup-2026-11-22.zip"])
    }
}
