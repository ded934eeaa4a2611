import Foundation
import GRDB
import HTTPServer
import Logging
import Synchronization
import Testing

@testable import Inventory
@testable import Web

/// A full or failing disk, a deleted database file: the member is told, nothing typed is lost.
@Suite("Storage failures over HTTP")
struct StorageFailureTests {
    func itemForm(_ fixture: HouseholdFixture, name: String, note: String) -> [(String, String)] {
        [
            ("folder", "\(fixture.fridgeId)"), ("d0.name", name), ("d0.quantity", "2"), ("d0.unit", "pack"), ("d0.kind", "dairy_eggs"),
            ("d0.note", note), ("d0.status", "unopened"), ("action", "save"),
        ]
    }

    func count(_ fixture: HouseholdFixture, _ table: String) throws -> Int {
        try fixture.app.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// Caps the database at its size now, then adds `draft` until the file can take no more: the
    /// next identical save meets the same full disk (a failed transaction leaves nothing behind).
    func fillTheDisk(_ fixture: HouseholdFixture, with draft: ItemInput) throws {
        let database = fixture.app.database
        try database.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        for _ in 0..<10_000 {
            do {
                _ = try fixture.items.register([draft], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                return
            }
        }
        Issue.record("the database never filled up")
    }

    @Test func aFullDiskKeepsTheEditorFormAndSaysWhy() async throws {
        let fixture = try await HouseholdFixture()
        let note = String(repeating: "Keep it on the top shelf. ", count: 30)
        var draft = ItemInput()
        draft.name = "Yoghurt typed before the disk filled"
        draft.quantity = "2"
        draft.unit = "pack"
        draft.kind = "dairy_eggs"
        draft.note = note
        draft.status = "unopened"
        try fillTheDisk(fixture, with: draft)
        let (items, events) = (try count(fixture, "item"), try count(fixture, "item_event"))

        let response = try fixture.send("POST", "/items/new", as: fixture.member, form: itemForm(fixture, name: draft.name, note: note))
        #expect(response.status == 507)
        let page = response.text
        let en = Localizations.embedded.fallback
        #expect(page.contains(HTMLEscaped(en[.storageFull])), "the banner says the server's disk is full")
        #expect(page.contains("value=\"\(draft.name)\""), "the typed name is kept")
        #expect(page.contains(note.trimmingCharacters(in: .whitespaces)), "the typed note is kept")
        #expect(page.contains("name=\"d0.name\""), "the editor is shown again, not an error page")
        // Nothing half-written.
        #expect(try count(fixture, "item") == items)
        #expect(try count(fixture, "item_event") == events)
    }

    @Test func aFullDiskKeepsTheItemEditorFormOnAnEdit() async throws {
        let fixture = try await HouseholdFixture()
        var filler = ItemInput()
        filler.name = String(repeating: "x", count: 100)
        filler.note = String(repeating: "y", count: 1000)
        try fillTheDisk(fixture, with: filler)
        let database = fixture.app.database
        let before = try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT note FROM item WHERE id = ?", arguments: [fixture.itemId]) }
        // The milk's row grows by 2 KB (note and its search text): its page has no such room left.
        let note = String(repeating: "Typed while the disk was full. ", count: 32)
        let form: [(String, String)] = [
            ("folder", "\(fixture.fridgeId)"), ("version", "1"), ("d0.name", "Milk, edited"), ("d0.quantity", "3"), ("d0.unit", "bottle"),
            ("d0.kind", "dairy_eggs"), ("d0.note", note), ("d0.status", "opened"), ("action", "save"),
        ]
        let response = try fixture.send("POST", "/items/\(fixture.itemId)", as: fixture.member, form: form)
        #expect(response.status == 507)
        let en = Localizations.embedded.fallback
        #expect(response.text.contains(HTMLEscaped(en[.storageFull])))
        #expect(response.text.contains("value=\"Milk, edited\""))
        #expect(response.text.contains(note.trimmingCharacters(in: .whitespaces)))
        let after = try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT note FROM item WHERE id = ?", arguments: [fixture.itemId]) }
        #expect(after == before)
    }

    @Test func aFullDiskIsToldInTheMembersLanguage() async throws {
        let fixture = try await HouseholdFixture()
        var draft = ItemInput()
        draft.name = "牛乳"
        draft.note = String(repeating: "冷蔵庫の奥", count: 60)
        try fillTheDisk(fixture, with: draft)
        let response = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: itemForm(fixture, name: draft.name, note: draft.note)
                .map { $0.0 == "d0.unit" ? ("d0.unit", "piece") : $0.0 == "d0.kind" ? ("d0.kind", "other") : $0 }, headers: [("Accept-Language", "ja")])
        let ja = Localizations.embedded.catalogs["ja"]!
        // The member chose no language: the browser's is used.
        #expect(response.status == 507)
        #expect(response.text.contains(ja[.storageFull]))
    }

    @Test func aFullDiskElsewhereAnswersAPageThatSaysSo() async throws {
        let fixture = try await HouseholdFixture()
        var draft = ItemInput()
        draft.name = String(repeating: "x", count: 100)
        draft.note = String(repeating: "y", count: 1000)
        try fillTheDisk(fixture, with: draft)
        // A new folder with a long name: its page has no form to keep, so the error page tells.
        var response = try fixture.send(
            "POST", "/folders", as: fixture.owner, form: [("name", String(repeating: "z", count: 100)), ("kind", "stock"), ("icon", "box")])
        for attempt in 0..<200 where response.status != 507 {
            response = try fixture.send(
                "POST", "/folders", as: fixture.owner,
                form: [("name", String(repeating: "z", count: 99) + "\(attempt % 10)"), ("kind", "stock"), ("icon", "box")])
        }
        #expect(response.status == 507)
        let en = Localizations.embedded.fallback
        #expect(response.text.contains(HTMLEscaped(en[.storageFullTitle])))
    }

    @Test func everyServerErrorIsLoggedWithItsCause() async throws {
        let lines = LogLines()
        let logger = Logger(label: "capture") { _ in CapturingHandler(lines: lines) }
        let app = try await App(database: try AppDatabase.inMemory(), resources: repositoryResources, logger: logger)
        let request = Request(method: "POST", path: "/items/new", headers: Headers([("Accept-Language", "ja")]))

        let full = app.failure(DatabaseError(resultCode: .SQLITE_FULL), request, member: nil)
        #expect(full.status == 507)
        #expect(full.text.contains(app.renderer.localizations.catalogs["ja"]![.storageFullTitle]))
        #expect(lines.all.contains { $0.contains("storage full") })

        let readOnly = app.failure(DatabaseError(resultCode: .SQLITE_READONLY), request, member: nil)
        #expect(readOnly.status == 503)
        #expect(lines.all.contains { $0.contains("storage readOnly") })

        // An upload the HTTP core could not write to its temporary file.
        let refused = app.respond(toRefused: request, status: 500)
        #expect(refused.status == 500)
        #expect(lines.all.contains { $0.contains("refused by the server core") })
    }

    @Test func healthzAnswers503WhenTheDatabaseFileIsDeleted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-healthz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zaiko.sqlite")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = try await App(
            database: try AppDatabase.open(at: file), resources: repositoryResources, logger: logger,
            options: AppOptions(photos: folder.appendingPathComponent("photos")))
        #expect(get(app, "/healthz").status == 200)
        try FileManager.default.removeItem(at: file)
        #expect(get(app, "/healthz").status == 503)
    }

    @Test func healthzAnswers503WhenAWriteCannotCommit() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let database = try AppDatabase.inMemory(healthWriteInterval: .zero)
        let app = try await App(database: database, resources: repositoryResources, logger: logger)
        #expect(get(app, "/healthz").status == 200)
        try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        #expect(get(app, "/healthz").status == 503)
    }

    @Test func photosAreDecodedOneAtATime() async throws {
        let fixture = try await HouseholdFixture()
        let photo = UploadFixtures.jpeg(2400, 1800)
        let senders = 4
        let statuses = Mutex<[Int]>([])
        // Worker threads, as libmicrohttpd's: each waits for the lane synchronously.
        let threads = try (0..<senders).map { _ in
            let file = try UploadFixtures.file("photo_file", photo)
            return Thread {
                let status = (try? fixture.send("POST", "/items/\(fixture.itemId)/photo", as: fixture.member, files: [file]).status) ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        for thread in threads { thread.start() }
        // Bounded wait for the event (all answered), not a time limit on the work.
        for _ in 0..<1200 where statuses.withLock({ $0.count }) < senders { try await Task.sleep(for: .milliseconds(100)) }
        #expect(statuses.withLock { $0 } == Array(repeating: 303, count: senders))
        #expect(fixture.app.decoding.finished.load(ordering: .sequentiallyConsistent) == senders)
        #expect(fixture.app.decoding.mostAtOnce.load(ordering: .sequentiallyConsistent) == 1)
    }
}
