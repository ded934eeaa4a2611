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
