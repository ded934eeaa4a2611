import Foundation
import GRDB
import HTTPServer
import Logging
import Testing

@testable import Inventory
@testable import Web

/// A photo sent while the server's disk cannot take it: the editor comes back with everything
/// typed and the reason beside the picture field, with the storage status, and the request's log
/// line says the status that was sent (issue 22, item 16).
@Suite("Photos on a disk that cannot take them")
struct PhotoDiskFailureTests {
    func form(_ fixture: HouseholdFixture) -> [(String, String)] {
        [
            ("folder", "\(fixture.fridgeId)"), ("d0.name", "Yoghurt typed with a photo"), ("d0.quantity", "2"), ("d0.unit", "pack"),
            ("d0.note", "Top shelf, behind the milk"), ("action", "save"),
        ]
    }

    /// A file part the HTTP core could not write to its temporary file (it marks it with the errno).
    func unwritten(_ code: Int32, field: String = "d0.photo_file") -> UploadedFile {
        UploadedFile(
            fieldName: field, clientFileName: "yoghurt.jpg", declaredContentType: "image/jpeg",
            temporaryURL: URL(fileURLWithPath: "/nonexistent/upload.part"), size: 0, writeError: code)
    }

    @Test(arguments: [(ENOSPC, 507, "storage_full"), (EROFS, 503, "storage_read_only"), (EACCES, 503, "storage_read_only")])
    func anUploadTheDiskRefusedKeepsTheEditor(code: Int32, status: Int, key: String) async throws {
        let lines = LogLines()
        let fixture = try await HouseholdFixture(logger: Logger(label: "capture") { _ in CapturingHandler(lines: lines) })
        for language in ["en", "ja"] {
            let catalog = fixture.app.renderer.localizations.catalogs[language]!
            let response = try fixture.send(
                "POST", "/items/new", as: fixture.member, form: form(fixture), headers: [("Accept-Language", language)], files: [unwritten(code)])
            #expect(response.status == status)
            let page = response.text
            #expect(page.contains("name=\"d0.name\""), "the editor, not an error page")
            #expect(page.contains("value=\"Yoghurt typed with a photo\""))
            #expect(page.contains("Top shelf, behind the milk"))
            #expect(page.contains("picture-error\""), "the reason is beside the picture field")
            #expect(page.contains(HTMLEscaped(catalog[named: key])))
        }
        let saved = try await fixture.app.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE name = 'Yoghurt typed with a photo'") ?? -1
        }
        #expect(saved == 0)
        // The request's log line names the status that was sent.
        #expect(lines.all.contains { $0.hasPrefix("POST /items/new \(status) ") })
        #expect(!lines.all.contains { $0.hasPrefix("POST /items/new 500 ") })
    }

    @Test func aPhotosFolderThatCannotBeWrittenKeepsTheItemEditor() async throws {
        let fixture = try await HouseholdFixture()
        // The photos folder is replaced by a plain file: every photo write fails there (as root
        // too, where permissions would not stop it).
        let photos = fixture.app.photos.directory
        try FileManager.default.removeItem(at: photos)
        try Data("not a folder".utf8).write(to: photos)
        defer { try? FileManager.default.removeItem(at: photos) }
        let jpeg = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-photo-\(UUID().uuidString).jpg")
        try Data(UploadFixtures.jpeg(64, 64)).write(to: jpeg)
        defer { try? FileManager.default.removeItem(at: jpeg) }
        let file = UploadedFile(
            fieldName: "d0.photo_file", clientFileName: "yoghurt.jpg", declaredContentType: "image/jpeg", temporaryURL: jpeg,
            size: UploadFixtures.jpeg(64, 64).count)
        let response = try fixture.send("POST", "/items/new", as: fixture.member, form: form(fixture), files: [file])
        #expect(response.status == 503)
        #expect(response.text.contains("value=\"Yoghurt typed with a photo\""))
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.storageFailing])))

        // The same on an item's own editor.
        let edit = try fixture.send(
            "POST", "/items/\(fixture.itemId)", as: fixture.member,
            form: [("folder", "\(fixture.fridgeId)"), ("d0.name", "Milk, renamed with a photo"), ("version", "1")],
            files: [UploadedFile(fieldName: "d0.photo_file", clientFileName: "m.jpg", declaredContentType: "image/jpeg", temporaryURL: jpeg, size: 1)])
        #expect(edit.status == 503)
        #expect(edit.text.contains("value=\"Milk, renamed with a photo\""))
    }
}
