import Foundation
import GRDB
import HTTPServer
import Inventory
import TestSupport
import Testing

@testable import Web

/// After the database file is deleted or replaced under the running server, no write is
/// acknowledged: each gets the storage page, never a 303 (issue 22, item 11).
@Suite("Writes after the database file changed")
struct DatabaseFileGoneTests {
    @Test(arguments: [false, true])
    func registrationQuantityAndSignInAreRefused(replaced: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Checked on every write, so the test needs no clock to move.
        let database = try AppDatabase.open(at: folder.databaseURL, fileCheck: FileCheck(interval: .zero))
        let fixture = try await HouseholdFixture(database: database)
        let before = try fixture.send("POST", "/items/\(fixture.itemId)/quantity", as: fixture.member, form: [("delta", "1")])
        #expect(before.status == 303, "acknowledged while the file is in place")
        if replaced {
            let copy = folder.appending("copy.sqlite")
            try FileManager.default.copyItem(at: folder.databaseURL, to: copy)
            // As `mv copy zaiko.sqlite` does: renamed over it.
            #expect(rename(copy.path, folder.databaseURL.path) == 0)
        } else {
            try FileManager.default.removeItem(at: folder.databaseURL)
        }
        let en = Localizations.embedded.fallback

        let registration = try fixture.send(
            "POST", "/items/new", as: fixture.member,
            form: [("folder", "\(fixture.fridgeId)"), ("d0.name", "Typed after the file went"), ("d0.quantity", "1"), ("action", "save")])
        #expect(registration.status == 503)
        #expect(registration.text.contains(HTMLEscaped(en[.storageFileChanged])))
        #expect(registration.text.contains("value=\"Typed after the file went\""), "the editor keeps what was typed")

        let quantity = try fixture.send("POST", "/items/\(fixture.itemId)/quantity", as: fixture.member, form: [("delta", "1")])
        #expect(quantity.status == 503)
        #expect(quantity.text.contains(HTMLEscaped(en[.storageFileChangedTitle])))

        let signIn = try fixture.send("POST", "/login", as: nil, form: [("login", "ken"), ("password", HouseholdFixture.password)])
        #expect(signIn.status == 503)
        #expect(signIn.cookie("zaiko_session") == nil)

        // The acknowledged change is in the open database, and so in what a stop saves beside it.
        let rescue = try database.saveBeside()
        let saved = try await DatabaseQueue(path: rescue.path).read { db in
            try (
                Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE name = 'Typed after the file went'") ?? -1,
                Double.fetchOne(db, sql: "SELECT quantity FROM item WHERE id = ?", arguments: [fixture.itemId])
            )
        }
        #expect(saved.0 == 0)
        #expect(saved.1 == 2, "the quantity change acknowledged before is kept")
    }
}
