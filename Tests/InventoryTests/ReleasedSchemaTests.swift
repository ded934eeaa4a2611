import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// Databases made by released versions open in this build with every row they held. Each released
/// schema's database is kept as its SQL dump (`Tests/Fixtures/released-schemas/vN.sql`, text that a
/// review can read, not a binary in git). A new release adds its dump with
/// `ZAIKO_WRITE_RELEASED_SCHEMA=<path>.sqlite swift test --filter ReleasedSchemaFixture` and then
/// `sqlite3 <path>.sqlite .dump > Tests/Fixtures/released-schemas/vN.sql`.
@Suite struct ReleasedSchemaTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/released-schemas")

    static var releasedFiles: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "sql" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func thereIsAFileForTodaysSchema() {
        #expect(Self.releasedFiles.map(\.lastPathComponent).contains("v9.sql"))
    }

    @Test(arguments: releasedFiles)
    func aReleasedDatabaseUpgradesWithItsDataIntact(_ file: URL) throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let before = temporary.url.appendingPathComponent("before.sqlite")
        let upgraded = temporary.url.appendingPathComponent("upgraded.sqlite")
        // The released database, made twice from its dump: one kept as it was, one upgraded.
        let dump = try String(contentsOf: file, encoding: .utf8)
        for copy in [before, upgraded] {
            let queue = try DatabaseQueue(path: copy.path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: dump) }
            try queue.close()
        }

        var readOnly = Configuration()
        readOnly.readonly = true
        let original = try DatabaseQueue(path: before.path, configuration: readOnly)
        let tables = try original.read { db in try Self.contents(db, columns: nil) }
        #expect(tables["item"]?.rows ?? 0 > 0, "the fixture holds items")

        let database = try AppDatabase.open(at: upgraded)
        try database.writer.read { db in
            let applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
            #expect(applied == Set(Schema.migrator.migrations))
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            let after = try Self.contents(db, columns: tables.mapValues(\.columns))
            for (table, content) in tables where !Self.changing.contains(table) {
                #expect(after[table]?.rows == content.rows, "\(table): row count")
                #expect(after[table]?.digest == content.digest, "\(table): the rows' values")
            }
        }
        // The domain reads what it finds.
        let household = try #require(
            try database.writer.read { db in try Household.ID.fetchOne(db, sql: "SELECT min(id) FROM household").map(HouseholdScope.init) })
        let items = Items(database: database)
        for folder in try items.folders(in: household) {
            _ = try items.page(of: folder, filter: ListFilter(), page: 1)
        }
        try database.close()
    }

    /// Tables whose rows change by themselves when the server opens (migration bookkeeping, the health probe).
    static let changing: Set<String> = ["grdb_migrations", "health_check"]

    /// Each table's columns, row count and a digest of every value (over `columns` when given, so
    /// columns added later are left out).
    static func contents(_ db: Database, columns wanted: [String: [String]]?) throws -> [String: (columns: [String], rows: Int, digest: String)] {
        var result: [String: (columns: [String], rows: Int, digest: String)] = [:]
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for table in tables {
            let columns = try wanted?[table] ?? db.columns(in: table).map(\.name)
            guard !columns.isEmpty else { continue }
            let values = columns.map { "quote(\"\($0)\")" }.joined(separator: " || ',' || ")
            let rows = try String.fetchAll(db, sql: "SELECT \(values) AS v FROM \"\(table)\" ORDER BY v")
            result[table] = (columns, rows.count, Crypto.hex(Crypto.sha256(Array(rows.joined(separator: "\n").utf8))))
        }
        return result
    }
}

/// Writes the database a release ships with, full of what a household makes: members of each role,
/// items with photos, illustrations, barcodes, due dates and reminders, history, the trash, a
/// shopping list, products, a calendar feed, a push channel, a pending invitation.
@Suite struct ReleasedSchemaFixture {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ZAIKO_WRITE_RELEASED_SCHEMA"] != nil))
    func write() throws {
        let destination = URL(fileURLWithPath: ProcessInfo.processInfo.environment["ZAIKO_WRITE_RELEASED_SCHEMA"]!)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("zaiko.sqlite")
        let clock = ManualClock(utc("2026-11-20T08:00:00Z"))
        let fixture = try Fixture(language: "ja", database: try AppDatabase.open(at: file), clock: clock, folderNames: ["fridge": "冷蔵庫"])
        let owner = try fixture.owner
        _ = try fixture.join("ken", role: .member)
        _ = try fixture.join("mio", role: .viewer)
        _ = try fixture.accounts.invite(in: owner.household, role: .member)
        let items = fixture.items
        let photos = try PhotoStore(directory: temporary.url.appendingPathComponent("photos"), database: fixture.database, clock: clock.wall)
        let fridge = try fixture.firstFolder(.stock)
        let shopping = try fixture.firstFolder(.shopping)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!

        func draft(_ name: String, _ configure: (inout ItemInput) -> Void = { _ in }) -> ItemInput {
            var input = ItemInput()
            input.name = name
            configure(&input)
            return input
        }
        let photo = try photos.save(large: [0xFF, 0xD8, 1, 2, 3], small: [0xFF, 0xD8, 4], format: "jpeg", in: owner.household)
        let ids = try items.register(
            [
                draft("牛乳") {
                    $0.quantity = "1"
                    $0.unit = "L"
                    $0.kind = "dairy_eggs"
                    $0.due = "2026-11-25"
                    $0.remindAt = "2026-11-24T09:00"
                    $0.barcode = "4006381333931"
                    $0.picture = "photo:\(photo)"
                },
                draft("卵") {
                    $0.quantity = "6"
                    $0.kind = "dairy_eggs"
                    $0.due = "2026-11-18"
                    $0.status = "opened"
                    $0.urgent = true
                },
                draft("Spinach, \"fresh\"") {
                    $0.quantity = "200"
                    $0.unit = "g"
                    $0.kind = "vegetables"
                    $0.note = "two lines\nof note"
                    $0.picture = "illustration:vegetables"
                },
            ], into: fridge, in: owner.household, by: owner.memberId, timeZone: tokyo)
        clock.advance(3600)
        _ = try items.adjustQuantity(ids[1], by: -2, in: owner.household, by: owner.memberId)
        try items.markOpened(ids[0], in: owner.household, by: owner.memberId)
        _ = try items.buyAgain(ids[0], onto: shopping, in: owner.household, by: owner.memberId)
        try items.trash([ids[2]], in: owner.household, by: owner.memberId)
        _ = try CalendarFeeds(database: fixture.database, clock: clock.wall).create(memberId: owner.memberId)
        try PushChannels(database: fixture.database, clock: clock.wall).save(
            PushChannelInput(url: "https://ntfy.example", topic: "zaiko-home", digestHour: "8"), in: owner.household)
        try fixture.database.close()
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: file, to: destination)
    }
}
