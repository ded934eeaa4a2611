import Foundation
import GRDB
import HTTPServer
import Synchronization
import Testing

@testable import Inventory
@testable import Web

/// The CSV import pages: preview with counts and line errors, nothing written before the
/// confirmation, updates by id only within the household, writers only, CSRF.
@Suite struct CSVImportTests {
    func csv(_ text: String, bom: Bool = false) throws -> UploadedFile {
        try UploadFixtures.file("file", (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8), name: "items.csv", type: "text/csv")
    }

    func upload(_ fixture: HouseholdFixture, _ file: UploadedFile?, as session: String, folder: Int64? = nil, csrf: HouseholdFixture.Token = .valid)
        throws -> Response
    {
        try fixture.send(
            "POST", "/import", as: session, form: [("folder", "\(folder ?? fixture.fridgeId)")], csrf: csrf, files: file.map { [$0] } ?? [])
    }

    func token(in page: String) throws -> String {
        let match = try #require(page.firstMatch(of: try Regex(#"name="token" value="([^"]+)""#)))
        return String(try #require(match.output[1].substring))
    }

    func itemNames(_ fixture: HouseholdFixture, household: HouseholdScope? = nil) throws -> [String] {
        let home = try fixture.accounts.session(token: fixture.owner)!.household
        return try fixture.app.database.writer.read {
            try String.fetchAll($0, sql: "SELECT name FROM item WHERE household_id = ? ORDER BY id", arguments: [(household ?? home).householdId])
        }
    }

    @Test func aPreviewTheServerHasNoRoomToKeepIsRefusedWithASentence() async throws {
        // Room for 100 bytes on the whole server: household B's waiting preview fills it.
        let fixture = try await HouseholdFixture(pendingLimits: PendingStoreLimits(perHousehold: 8, householdBytes: 100, totalBytes: 100))
        let text = "name,quantity\nRice,1\n"
        let grandma = try #require(try fixture.accounts.session(token: fixture.otherOwner))
        let theirFridge = try #require(try fixture.items.folders(in: grandma.household).first?.id)
        let grandparents = try upload(fixture, try csv(text + String(repeating: "Tea,1\n", count: 10)), as: fixture.otherOwner, folder: theirFridge)
        #expect(grandparents.status == 200)
        for language in ["en", "ja"] {
            let response = try fixture.send(
                "POST", "/import", as: fixture.member, form: [("folder", "\(fixture.fridgeId)")], headers: [("Accept-Language", language)],
                files: [try csv(text)])
            #expect(response.status == 503)
            #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs[language]![.pendingStoreFull])))
            #expect(!response.text.contains("name=\"token\""), "nothing to confirm")
        }
        // B's preview was not pushed out to make room.
        let confirmed = try fixture.send("POST", "/import/confirm", as: fixture.otherOwner, form: [("token", try token(in: grandparents.text))])
        #expect(confirmed.status == 303)
    }

    @Test func previewCountsNewAndUpdatedAndWritesNothing() async throws {
        let fixture = try await HouseholdFixture()
        let file = try csv("id,name,quantity,unit\n\(fixture.itemId),Milk,2,本\n,Eggs,10,pcs\n,Rice,1,kg\n", bom: true)
        let response = try upload(fixture, file, as: fixture.member)
        #expect(response.status == 200)
        #expect(response.text.contains("2 new, 1 updated"))
        #expect(response.text.contains("Eggs"))
        #expect(try itemNames(fixture) == ["Milk"])
        #expect(try fixture.items.item(fixture.itemId, in: fixture.accounts.session(token: fixture.owner)!.household).quantity == 1)
    }

    @Test func lineErrorsNameTheLineAndColumnInTheReadersLanguageAndOfferNoConfirmation() async throws {
        let fixture = try await HouseholdFixture()
        let file = try csv("name,quantity,due\nEggs,10,\nBread,lots,2026-13-40\n")
        let response = try upload(fixture, file, as: fixture.member)
        #expect(response.status == 422)
        #expect(response.text.contains("Line 3, column quantity"))
        #expect(response.text.contains("Enter a number of 0 or more"))
        #expect(response.text.contains("Line 3, column due"))
        #expect(!response.text.contains("name=\"token\""))
        // The form to upload a corrected file is on the same page, with the folder kept.
        #expect(response.text.contains("name=\"file\""))
        #expect(response.text.contains("<option value=\"\(fixture.fridgeId)\" selected>"))
        #expect(try itemNames(fixture) == ["Milk"])

        let japanese = try fixture.send(
            "POST", "/import", as: fixture.member, form: [("folder", "\(fixture.fridgeId)")], headers: [("Accept-Language", "ja")],
            files: [try csv("name,quantity\nEggs,lots\n")])
        #expect(japanese.text.contains("2行目・quantity列"))
        #expect(japanese.text.contains("0以上の数を入力してください"))
    }

    @Test func confirmingImportsInOneGoAndGoesToTheFolderWithANotice() async throws {
        let fixture = try await HouseholdFixture()
        let preview = try upload(fixture, try csv("id,name,quantity\n\(fixture.itemId),Milk,3\n,Eggs,10\n"), as: fixture.member)
        let token = try token(in: preview.text)
        let done = try fixture.send("POST", "/import/confirm", as: fixture.member, form: [("token", token)])
        #expect(done.status == 303)
        let location = try #require(done.header("Location"))
        #expect(location == "/folders/\(fixture.fridgeId)?imported=1&updated=1")
        #expect(try itemNames(fixture) == ["Milk", "Eggs"])
        let page = try fixture.send("GET", location, as: fixture.member)
        #expect(page.text.contains("Imported: 1 new, 1 updated."))
        // A token works once.
        let again = try fixture.send("POST", "/import/confirm", as: fixture.member, form: [("token", token)])
        #expect(again.status == 422)
        #expect(try itemNames(fixture) == ["Milk", "Eggs"])
    }

    @Test func aPreviewBelongsToItsSessionAndHousehold() async throws {
        let fixture = try await HouseholdFixture()
        let preview = try upload(fixture, try csv("name\nEggs\n"), as: fixture.member)
        let token = try token(in: preview.text)
        for other in [fixture.owner, fixture.otherOwner] {
            let response = try fixture.send("POST", "/import/confirm", as: other, form: [("token", token)])
            #expect(response.status == 422)
        }
        #expect(try itemNames(fixture) == ["Milk"])
    }

    @Test func anIdOfAnotherHouseholdIsAnErrorNeverAnUpdate() async throws {
        let fixture = try await HouseholdFixture()
        let otherHousehold = try fixture.accounts.session(token: fixture.otherOwner)!.household
        let otherFolder = try #require(try fixture.items.folders(in: otherHousehold, kind: .stock).first?.id)
        let otherMember = try fixture.accounts.session(token: fixture.otherOwner)!.memberId
        var theirs = ItemInput()
        theirs.name = "Theirs"
        let foreign = try fixture.items.register([theirs], into: otherFolder, in: otherHousehold, by: otherMember, timeZone: .gmt)[0]

        let response = try upload(fixture, try csv("id,name\n\(foreign),Stolen\n"), as: fixture.owner)
        #expect(response.status == 422)
        #expect(response.text.contains("Line 2, column id"))
        #expect(try itemNames(fixture, household: otherHousehold) == ["Theirs"])
    }

    @Test func badFilesAreRefusedBesideTheFileFieldKeepingTheFolder() async throws {
        let fixture = try await HouseholdFixture()
        let shopping = try #require(
            try fixture.items.folders(in: fixture.accounts.session(token: fixture.owner)!.household, kind: .shopping).first?.id)
        let cases: [(UploadedFile?, String)] = [
            (nil, "Choose a CSV file."),
            (try csv(""), "This file is empty."),
            (try UploadFixtures.file("file", [0x50, 0x4B, 0x03, 0x04, 0, 0, 0], name: "items.xlsx", type: nil), "This is not a CSV file."),
            (try csv("title,amount\nMilk,1\n"), "one of them must be called name"),
            (try csv("name\n" + String(repeating: "x", count: 4 * 1024 * 1024)), "This file is larger than 4 MB."),
            (try UploadFixtures.file("file", Array("name\n".utf8) + [0xFF, 0xFD, 0xFF, 0xA0, 0x80], name: "x.csv", type: nil), "“CSV UTF-8”"),
        ]
        for (file, message) in cases {
            let response = try upload(fixture, file, as: fixture.member, folder: shopping)
            #expect(response.status == 422, "\(message)")
            #expect(response.text.contains("id=\"import-file-error\""), "\(message)")
            #expect(response.text.contains(message), "\(message)")
            #expect(response.text.contains("<option value=\"\(shopping)\" selected>"), "\(message)")
        }
    }

    @Test func viewersMayNotImportAndTheFormNeedsItsToken() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/import", as: fixture.viewer).status == 403)
        #expect(try upload(fixture, try csv("name\nEggs\n"), as: fixture.viewer).status == 403)
        #expect(try upload(fixture, try csv("name\nEggs\n"), as: fixture.member, csrf: .none).status == 403)
        #expect(try upload(fixture, try csv("name\nEggs\n"), as: fixture.member, csrf: .wrong).status == 403)
        let preview = try upload(fixture, try csv("name\nEggs\n"), as: fixture.member)
        let token = try token(in: preview.text)
        #expect(try fixture.send("POST", "/import/confirm", as: fixture.member, form: [("token", token)], csrf: .none).status == 403)
        #expect(try itemNames(fixture) == ["Milk"])
    }

    @Test func aShiftJISFileFromExcelIsPreviewedInJapanese() async throws {
        let fixture = try await HouseholdFixture()
        let bytes = try #require("name,unit\r\n牛乳,本\r\n".data(using: .shiftJIS))
        let file = try UploadFixtures.file("file", Array(bytes), name: "items.csv", type: "text/csv")
        let response = try upload(fixture, file, as: fixture.member)
        #expect(response.status == 200)
        #expect(response.text.contains("牛乳"))
        #expect(response.text.contains("1 new, 0 updated"))
    }

    @Test func aConfirmationSentTwiceAtOnceImportsOnce() async throws {
        let fixture = try await HouseholdFixture()
        let preview = try upload(fixture, try csv("name\nEggs\n"), as: fixture.member)
        let token = try token(in: preview.text)
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let status = (try? fixture.send("POST", "/import/confirm", as: fixture.member, form: [("token", token)]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.sorted() } == [303, 422, 422, 422])
        #expect(try itemNames(fixture) == ["Milk", "Eggs"])
    }

    @Test func aPreviewExpiresAfterHalfAnHour() async throws {
        let fixture = try await HouseholdFixture()
        let preview = try upload(fixture, try csv("name\nEggs\n"), as: fixture.member)
        let token = try token(in: preview.text)
        fixture.advance(31 * 60)
        let response = try fixture.send("POST", "/import/confirm", as: fixture.member, form: [("token", token)])
        #expect(response.status == 422)
        #expect(response.text.contains("This preview has expired"))
        #expect(try itemNames(fixture) == ["Milk"])
    }

    @Test func settingsAndFolderPagesLinkToTheImport() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/settings", as: fixture.owner).text.contains("href=\"/import\""))
        #expect(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.member).text.contains("href=\"/import?folder=\(fixture.fridgeId)\""))
        #expect(!(try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.viewer).text.contains("/import")))
    }
}
