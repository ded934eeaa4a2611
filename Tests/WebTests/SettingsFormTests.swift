import Foundation
import GRDB
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// Settings never change what the owner did not touch, land on the form that answered, and tell
/// a push server's failure in the reader's words (issue 11).
@Suite("Settings forms")
struct SettingsFormTests {
    func homeId(_ fixture: HouseholdFixture) throws -> Household.ID {
        try #require(try fixture.accounts.session(token: fixture.owner)).household.householdId
    }

    func storedZone(_ fixture: HouseholdFixture) throws -> String? {
        let id = try homeId(fixture)
        return try fixture.app.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT time_zone FROM household WHERE id = ?", arguments: [id])
        }
    }

    func setZone(_ fixture: HouseholdFixture, _ zone: String) throws {
        let id = try homeId(fixture)
        try fixture.app.database.writer.write { db in
            try db.execute(sql: "UPDATE household SET time_zone = ? WHERE id = ?", arguments: [zone, id])
        }
    }

    @Test func aUTCHouseholdSeesUTCSelectedAndKeepsItWhenItsNameIsSaved() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try storedZone(fixture) == "UTC")
        let page = try fixture.send("GET", "/settings", as: fixture.owner).text
        #expect(page.contains("<option value=\"UTC\" selected>"))
        #expect(page.contains("<option value=\"Asia/Tokyo\">"))
        let saved = try fixture.send(
            "POST", "/settings/household", as: fixture.owner, form: [("household", "Tanaka family"), ("time_zone", "UTC"), ("due_soon_days", "3")])
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/settings?saved=household#household")
        #expect(try storedZone(fixture) == "UTC")
    }

    @Test func aStoredZoneThisSystemDoesNotKnowIsOfferedSelectedAndKept() async throws {
        let fixture = try await HouseholdFixture()
        try setZone(fixture, "Etc/Retired")
        let page = try fixture.send("GET", "/settings", as: fixture.owner).text
        #expect(page.contains("<option value=\"Etc/Retired\" selected>"))
        let saved = try fixture.send(
            "POST", "/settings/household", as: fixture.owner, form: [("household", "Home"), ("time_zone", "Etc/Retired"), ("due_soon_days", "3")])
        #expect(saved.status == 303)
        #expect(try storedZone(fixture) == "Etc/Retired")
        // Another unknown zone is still refused, and nothing changes.
        let refused = try fixture.send(
            "POST", "/settings/household", as: fixture.owner, form: [("household", "Renamed"), ("time_zone", "Etc/Other"), ("due_soon_days", "3")])
        #expect(refused.status == 422)
        #expect(try storedZone(fixture) == "Etc/Retired")
    }

    @Test func theChoicesHoldEveryKnownZoneUTCAndTheStoredOne() {
        let choices = HouseholdSettings.timeZoneChoices(keeping: "Etc/Retired")
        #expect(Set(choices).isSuperset(of: TimeZone.knownTimeZoneIdentifiers))
        #expect(choices.contains("UTC") && choices.contains("Etc/Retired"))
        #expect(choices == choices.sorted() && Set(choices).count == choices.count)
    }

    @Test func aFailingFormAnswersWithItsOwnAnchor() async throws {
        let fixture = try await HouseholdFixture()
        let household = try fixture.send(
            "POST", "/settings/household", as: fixture.owner, form: [("household", ""), ("time_zone", "UTC"), ("due_soon_days", "3")])
        #expect(household.status == 422)
        #expect(household.text.contains("action=\"/settings/household#household\""))
        #expect(household.text.contains("<section class=\"card\" id=\"household\""))
        let push = try fixture.send(
            "POST", "/settings/push", as: fixture.owner, form: [("kind", "ntfy"), ("url", "ftp://x"), ("topic", "home"), ("digest_hour", "")])
        #expect(push.status == 422)
        #expect(push.text.contains("action=\"/settings/push#push\""))
        let invite = try fixture.send("POST", "/settings/invitations", as: fixture.owner, form: [("role", "emperor")])
        #expect(invite.status == 422)
        // The message is inside the invitation's section, not at the top of the page.
        let section = try #require(invite.text.range(of: "id=\"invite\""))
        let message = try #require(invite.text.range(of: "Choose a role."))
        #expect(section.upperBound < message.lowerBound)
        // Members and Invite come first.
        let members = try #require(invite.text.range(of: "id=\"members\""))
        let household2 = try #require(invite.text.range(of: "id=\"household\""))
        #expect(members.lowerBound < section.lowerBound && section.lowerBound < household2.lowerBound)
    }

    @Test func everyPushFailureIsASentenceInBothLanguagesWithTheRawDetailApart() throws {
        let localizations = Localizations.embedded
        let failures: [PushFailure] = [
            .status(401), .status(404), .status(429), .status(503), .status(302), .timedOut, .refusedAddress, .unknownHost, .connectionFailed,
            .answerTooLarge, .invalidAddress, .noChannel,
        ]
        for code in ["en", "ja"] {
            let t = try #require(localizations.catalogs[code])
            var sentences = Set<String>()
            for failure in failures {
                let text = PushFailureText(failure, t)
                #expect(text.sentence != PushFailureText.key(failure), "\(code): no sentence for \(failure)")
                #expect(text.sentence.hasSuffix(".") || text.sentence.hasSuffix("。"), "\(code): \(text.sentence)")
                #expect(!text.sentence.contains(failure.stored))
                #expect(text.detail.contains(failure.stored))
                sentences.insert(text.sentence)
            }
            #expect(sentences.count == failures.count)
        }
        let en = try #require(localizations.catalogs["en"])
        #expect(PushFailureText(.connectionFailed, en).sentence.hasPrefix("Zaiko could not connect to the push server."))
        #expect(PushFailureText(.status(500), en, in: "push_test_failed").sentence.hasPrefix("The test could not be sent. The push server had a problem"))
        #expect(PushFailureText(.status(500), en).detail == "Detail: HTTP 500")
        let ja = try #require(localizations.catalogs["ja"])
        #expect(PushFailureText(.connectionFailed, ja).sentence.hasPrefix("プッシュ通知サーバーに接続できませんでした。"))
        #expect(PushFailureText(.unknownHost, ja).detail == "詳細：unknown_host")
    }
}
