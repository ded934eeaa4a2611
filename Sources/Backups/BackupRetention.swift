import Foundation
import Inventory

/// How many automatic backups are kept: the newest archive of each of the last `daily` days that
/// have one, and before those, the newest archive of each of the `weekly` calendar weeks (Monday to
/// Sunday) that have one. Daily backups over a long time thus keep `daily + weekly` archives,
/// reaching back about `daily + 7 × weekly` days.
public struct BackupRetention: Sendable, Equatable, CustomStringConvertible {
    public let daily: Int
    public let weekly: Int

    public static let standard = BackupRetention(daily: 7, weekly: 4)!

    /// Today's archive is always kept: `daily` is at least 1.
    public init?(daily: Int, weekly: Int) {
        guard (1...366).contains(daily), (0...520).contains(weekly) else { return nil }
        self.daily = daily
        self.weekly = weekly
    }

    /// "7,4": daily, then weekly, as `--backup-keep` takes it.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let daily = Int(parts[0]), let weekly = Int(parts[1]) else { return nil }
        self.init(daily: daily, weekly: weekly)
    }

    /// The one sentence a wrong `--backup-keep` gets.
    public static let usage = "--backup-keep takes the number of daily and weekly backups to keep, like 7,4 (at least 1 daily, 0 to 520 weekly)."

    public var description: String { "\(daily),\(weekly)" }

    /// The days (each standing for its archive) to keep among `days`; the others are deleted.
    public func kept(_ days: [CalendarDay]) -> Set<CalendarDay> {
        let newestFirst = Set(days).sorted(by: >)
        var keep = Set(newestFirst.prefix(daily))
        var weeks = Set<Int>()
        for day in newestFirst.dropFirst(daily) where weeks.count < weekly {
            if weeks.insert(Self.week(of: day)).inserted { keep.insert(day) }
        }
        return keep
    }

    /// The Monday that starts `day`'s week, as a day number (weeks never straddle a year this way).
    static func week(of day: CalendarDay) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        // 1970-01-01 was a Thursday: shift so that Mondays fall on multiples of 7.
        return (days + 3) / 7
    }
}

/// The file name of the automatic backup made on a day: `zaiko-backup-2026-11-22.zip`. Only files
/// named so are ever pruned; anything else in the folder (a backup made by hand) is left alone.
public enum ArchiveName {
    static let prefix = "zaiko-backup-"
    static let suffix = ".zip"

    public static func file(for day: CalendarDay) -> String { prefix + day.description + suffix }

    public static func day(of file: String) -> CalendarDay? {
        guard file.hasPrefix(prefix), file.hasSuffix(suffix) else { return nil }
        let middle = file.dropFirst(prefix.count).dropLast(suffix.count)
        return CalendarDay(String(middle))
    }
}
