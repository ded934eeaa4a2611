import Backups
import Foundation
import Inventory
import TestSupport
import Testing

/// `--backup-keep 7,4`: the newest archive of each of the last 7 days, and before those the newest
/// archive of each of 4 calendar weeks (Monday to Sunday).
@Suite("Backup retention")
struct RetentionTests {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func keepIsTwoCountsDailyThenWeekly() {
        #expect(BackupRetention(parsing: "7,4") == BackupRetention.standard)
        #expect(BackupRetention(parsing: " 3 , 0 ") == BackupRetention(daily: 3, weekly: 0))
        for wrong in ["7", "0,4", "7,-1", "a,b", "7,4,1", "", "7;4"] {
            #expect(BackupRetention(parsing: wrong) == nil, "\(wrong)")
        }
    }

    /// One backup a day for 40 days (Monday 2026-11-02 to Friday 2026-12-11) at 03:00 in Tokyo,
    /// through the real runner and real files: after each, exactly the promised archives remain.
    @Test func fortyDaysKeepTheLastSevenDaysAndOneArchiveForEachOfTheFourWeeksBefore() throws {
        let folder = try TemporaryFolder("zaiko-retention")
        defer { folder.remove() }
        let clock = ManualClock(utc("2026-11-01T18:00:00Z")) // 2026-11-02 03:00 in Tokyo
        let schedule = BackupSchedule(hour: 3, timeZone: tokyo)!
        // Each archive holds the name of the day it was made for.
        let backups = AutomaticBackups(
            plan: BackupPlan(directory: folder.url, schedule: schedule), database: try AppDatabase.inMemory(),
            clock: clock.wall, makeArchive: { url in try Data(ArchiveName.file(for: schedule.day(of: clock.now)).utf8).write(to: url) })
        let first = CalendarDay("2026-11-02")
        func names(_ days: [String]) -> Set<String> { Set(days.map { "zaiko-backup-\($0).zip" }) }
        // Literal sets on the boundary days: a week's end, the first Monday and Tuesday after a full
        // week, the day the daily window leaves the first week, and the last day.
        let expected: [Int: Set<String>] = [
            6: names(["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08"]),
            7: names(["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08", "2026-11-09"]),
            // Tuesday: Monday 2 and Tuesday 3 are both older than the daily window; only the newer stays.
            8: names(["2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08", "2026-11-09", "2026-11-10"]),
            13: names(["2026-11-08", "2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-15"]),
            14: names(["2026-11-08", "2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16"]),
            20: names(["2026-11-08", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"]),
            39: names([
                "2026-11-15", "2026-11-22", "2026-11-29", "2026-12-04",
                "2026-12-05", "2026-12-06", "2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11",
            ]),
        ]
        for n in 0..<40 {
            let today = first.adding(days: n)
            #expect(backups.backUp() == .made(file: "zaiko-backup-\(today).zip"))
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
            if let literal = expected[n] { #expect(files == literal, "day \(n) (\(today))") }
            // Every day: the last 7 days are all there, at most 4 older ones, each the newest of its own week.
            let days = files.compactMap { ArchiveName.day(of: $0) }
            #expect(days.count == files.count, "only archives in the folder")
            for back in 0..<min(7, n + 1) { #expect(days.contains(today.adding(days: -back)), "day \(n): \(today.adding(days: -back)) kept") }
            let older = days.filter { $0 < today.adding(days: -6) }
            #expect(older.count == min(4, weeksBefore(today.adding(days: -6), since: first)), "day \(n): \(older.map(\.description).sorted())")
            let mondays = older.map(monday(of:))
            #expect(Set(mondays).count == older.count, "day \(n): one per week")
            // Each archive kept is what it was written as: pruning only deletes.
            for file in files { #expect(try String(contentsOf: folder.appending(file), encoding: .utf8) == file) }
            clock.advance(86_400)
        }
    }

    /// Calendar weeks with at least one day in `first..<end`.
    func weeksBefore(_ end: CalendarDay, since first: CalendarDay) -> Int {
        guard first < end else { return 0 }
        var weeks = Set<CalendarDay>()
        var day = first
        while day < end {
            weeks.insert(monday(of: day))
            day = day.adding(days: 1)
        }
        return weeks.count
    }

    func monday(of day: CalendarDay) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let weekday = calendar.component(.weekday, from: day.start(in: .gmt)) // 1 = Sunday
        return day.adding(days: -((weekday + 5) % 7))
    }
}
