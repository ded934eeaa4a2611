import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Timestamps and days are stored as exactly the text Zaiko always stored, read back equal, and a
/// column holding anything else fails the read with an error instead of stopping the process.
@Suite struct TimestampColumnsTests {
    @Test func aTimestampIsStoredAsItsUTCTextToTheSecond() throws {
        let queue = try DatabaseQueue()
        let instant = Date(timeIntervalSince1970: 1_795_000_000.75) // 2026-11-18T11:06:40.75Z
        let (text, read) = try queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT ?", arguments: [Timestamp(instant)]),
                try Timestamp.fetchOne(db, sql: "SELECT ?", arguments: ["2026-11-18T11:06:40Z"])
            )
        }
        #expect(text == "2026-11-18T11:06:40Z")
        #expect(text == instant.formatted(.iso8601))
        #expect(read == Timestamp(instant))
        #expect(read?.date == Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test func aTimestampsTextIsSQLitesOwn() throws {
        let queue = try DatabaseQueue()
        for seconds: Int64 in [0, 951_782_400, 1_795_000_000, -86_401, 253_402_300_799] {
            let stamp = Timestamp(Date(timeIntervalSince1970: TimeInterval(seconds)))
            let sqlite = try queue.read { db in
                try String.fetchOne(db, sql: "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', ?, 'unixepoch')", arguments: [seconds])
            }
            #expect(stamp.description == sqlite)
            #expect(Timestamp(stamp.description) == stamp)
        }
    }

    /// The text is written and read digit by digit, without `Calendar`: the edges of days, months,
    /// leap years and the years a stored timestamp can have.
    @Test func aTimestampsTextAtTheEdgesOfTheCalendar() throws {
        let edges: [(Int64, String)] = [
            (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (-2_208_988_800, "1900-01-01T00:00:00Z"),
            (-2_203_891_200, "1900-03-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"), (1_709_210_096, "2024-02-29T12:34:56Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"), (4_107_542_399, "2100-02-28T23:59:59Z"), (4_107_542_400, "2100-03-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ]
        for (seconds, text) in edges {
            let stamp = Timestamp(Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(stamp.description == text)
            #expect(Timestamp(text)?.secondsSince1970 == seconds, "\(text)")
        }
        for text in [
            "1899-12-31T23:59:59Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-11-22T05:10:6aZ", "2026-11-22T05:60:00Z", "2026-11-22T05:10:00z",
        ] {
            #expect(Timestamp(text) == nil, "\(text)")
        }
    }

    @Test func aDaysTextAtTheEdgesOfTheCalendar() throws {
        for text in ["1900-01-01", "1970-01-01", "2000-02-29", "2024-02-29", "2099-12-31", "9999-12-31"] {
            #expect(CalendarDay(text)?.description == text)
        }
        #expect(CalendarDay(year: 2026, month: 3, day: 5).description == "2026-03-05")
        // Arithmetic can step past four-digit years; the text keeps the year as it is.
        #expect(CalendarDay(year: 10000, month: 1, day: 1).description == "10000-01-01")
        #expect(CalendarDay(year: 999, month: 12, day: 31).description == "0999-12-31")
        for text in ["1899-12-31", "2100-02-29", "2026-11-3a", "2026-00-10", "2026-11-00"] {
            #expect(CalendarDay(text) == nil, "\(text)")
        }
    }

    @Test func aDayIsStoredAsItsText() throws {
        let queue = try DatabaseQueue()
        let (text, read) = try queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT ?", arguments: [CalendarDay("2026-02-28")]),
                try CalendarDay.fetchOne(db, sql: "SELECT '2028-02-29'")
            )
        }
        #expect(text == "2026-02-28")
        #expect(read == CalendarDay(year: 2028, month: 2, day: 29))
    }

    @Test func anItemsTimestampsAndDayRoundTripAsTheirText() throws {
        let database = try AppDatabase.inMemory()
        let household = try database.writer.write { db in
            try Household.Draft(name: "Home", createdAt: "2026-11-01T00:00:00Z").insertAndFetch(db, as: Household.self)
        }
        let folder = try database.writer.write { db in
            try Folder.Draft(householdId: household.id, name: "Fridge", kind: .stock, createdAt: "2026-11-01T00:00:00Z").insertAndFetch(db, as: Folder.self)
        }
        let written = try database.writer.write { db in
            try Item.Draft(
                householdId: household.id, folderId: folder.id, name: "Milk", due: "2026-11-25", remindAt: "2026-11-24T23:30:00Z",
                createdAt: "2026-11-20T08:00:05Z", updatedAt: "2026-11-21T09:10:11Z", deletedAt: "2026-11-22T10:20:30Z"
            ).insertAndFetch(db, as: Item.self)
        }
        let (row, read) = try database.writer.read { db in
            (
                try Row.fetchOne(db, sql: "SELECT due, remind_at, created_at, updated_at, deleted_at FROM item")!,
                try Item.fetchOne(db, key: written.id)
            )
        }
        #expect(
            row == [
                "due": "2026-11-25", "remind_at": "2026-11-24T23:30:00Z", "created_at": "2026-11-20T08:00:05Z",
                "updated_at": "2026-11-21T09:10:11Z", "deleted_at": "2026-11-22T10:20:30Z",
            ])
        #expect(read == written)
    }

    @Test func unreadableTextFailsTheReadWithAnError() throws {
        let queue = try DatabaseQueue()
        for text in ["2026-11-22 05:10:00", "2026-11-22T05:10:00.5Z", "2026-11-22T24:00:00Z", "tomorrow", ""] {
            #expect(Timestamp(text) == nil)
            #expect(throws: RowDecodingError.self) {
                try queue.read { db in try Row.fetchOne(db, sql: "SELECT ? AS created_at", arguments: [text])!.decode(Timestamp.self, forColumn: "created_at") }
            }
        }
        for text in ["2026-02-30", "2026-1-05", "20261105", "2026-11-05T00:00:00Z"] {
            #expect(CalendarDay(text) == nil)
            #expect(throws: RowDecodingError.self) {
                try queue.read { db in try Row.fetchOne(db, sql: "SELECT ? AS due", arguments: [text])!.decode(CalendarDay.self, forColumn: "due") }
            }
        }
    }

    @Test func anUnreadableDueFailsTheItemsRead() throws {
        let database = try AppDatabase.inMemory()
        let item = try database.writer.write { db in
            let household = try Household.Draft(name: "Home").insertAndFetch(db, as: Household.self)
            let folder = try Folder.Draft(householdId: household.id, name: "Fridge", kind: .stock).insertAndFetch(db, as: Folder.self)
            return try Item.Draft(householdId: household.id, folderId: folder.id, name: "Milk").insertAndFetch(db, as: Item.self)
        }
        try database.writer.write { db in try db.execute(sql: "UPDATE item SET due = '2026-02-30'") }
        #expect(throws: RowDecodingError.self) { try database.writer.read { db in try Item.fetchOne(db, key: item.id) } }
    }

    @Test func documentsCarryTheText() throws {
        struct Stamped: Codable, Equatable { var at: Timestamp, due: CalendarDay? }
        let value = Stamped(at: "2026-11-22T05:10:00Z", due: "2026-11-25")
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(json.contains("\"2026-11-22T05:10:00Z\"") && json.contains("\"2026-11-25\""))
        #expect(try JSONDecoder().decode(Stamped.self, from: Data(json.utf8)) == value)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Stamped.self, from: Data(#"{"at":"2026-11-22"}"#.utf8)) }
    }
}
