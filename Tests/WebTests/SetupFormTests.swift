import Foundation
import HTTPServer
import Logging
import Testing

@testable import Inventory
@testable import Web

/// First-run setup over HTTP: the code as people type it, and the household's time zone.
@Suite struct SetupFormTests {
    static let code = "ABCD-EFGH-JKMN"
    static let hasher = Argon2id(opsLimit: 1, memLimit: 8192)

    struct Setup {
        let app: App
        let database: AppDatabase
        let clock: ManualClock

        init(clock: ManualClock = ManualClock()) async throws {
            database = try AppDatabase.inMemory()
            self.clock = clock
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            app = try await App(
                database: database, resources: repositoryResources, logger: logger,
                options: AppOptions(setupCode: SetupFormTests.code, hasher: SetupFormTests.hasher, clock: clock.wall))
        }

        func get(_ path: String, session: String? = nil, language: String = "en") -> Response {
            var cookies = "zaiko_csrf=anonymous-token"
            if let session { cookies += "; zaiko_session=\(session)" }
            return app.respond(
                to: Request(
                    method: "GET", path: path,
                    headers: Headers([("Host", "zaiko.test"), ("Accept-Language", language), ("Cookie", cookies)]),
                    clientAddress: "192.168.1.30"))
        }

        /// Posts the setup form with `changes` over a valid form (without a time zone unless given).
        func post(_ changes: [String: String], language: String = "en") -> Response {
            var fields = [
                "household": "Tanaka", "name": "Aki", "login": "aki", "password": "correct horse battery",
                "password_confirm": "correct horse battery", "setup_code": SetupFormTests.code,
            ]
            fields.merge(changes) { $1 }
            return app.respond(
                to: Request(
                    method: "POST", path: "/setup",
                    headers: Headers([("Host", "zaiko.test"), ("Accept-Language", language), ("Cookie", "zaiko_csrf=anonymous-token")]),
                    form: Parameters(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + [("_csrf", "anonymous-token")]),
                    clientAddress: "192.168.1.30"))
        }

        var household: Household? {
            get throws { try database.writer.read { db in try Household.fetchOne(db) } }
        }
    }

    @Test(arguments: ["abcdefghjkmn", "abcd efgh jkmn", " AbCd-eFgH-jKmN ", "ＡＢＣＤ－ＥＦＧＨ－ＪＫＭＮ", "abcdーefghーjkmn"])
    func theCodeIsReadAsPeopleTypeIt(_ typed: String) async throws {
        let setup = try await Setup()
        let response = setup.post(["setup_code": typed])
        #expect(response.status == 303)
        #expect(try setup.household?.name == "Tanaka")
    }

    @Test func aMalformedCodeSaysWhatIsWrongAndIsNotAGuess() async throws {
        let setup = try await Setup()
        // Far more malformed codes than the guesses an address has (10): none of them counts.
        for _ in 0..<15 {
            let short = setup.post(["setup_code": "ABCD-EFGH", "name": "Aki Tanaka"])
            #expect(short.status == 422)
            #expect(short.text.contains("the setup code has 12 letters and digits"))
            // Everything typed but the passwords comes back.
            #expect(short.text.contains(#"value="Aki Tanaka""#))
            #expect(short.text.contains(#"value="aki""#))
            #expect(short.text.contains(#"value="Tanaka""#))
            #expect(!short.text.contains("correct horse battery"))
        }
        let letters = setup.post(["setup_code": "ABCD-EFGH-JKM0"], language: "ja")
        #expect(letters.status == 422)
        #expect(letters.text.contains("0・1・I・L・O は使いません"))
        #expect(setup.post(["setup_code": ""]).text.contains("Enter the setup code the server printed."))
        #expect(try setup.household == nil)
        // A well-formed wrong code is a guess, and says so.
        let wrong = setup.post(["setup_code": "ABCD-EFGH-JKMP"])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("This is not the code the server printed."))
        #expect(setup.post([:]).status == 303)
    }

    @Test func theHouseholdTakesThePostedTimeZone() async throws {
        let setup = try await Setup()
        #expect(setup.post(["time_zone": "Asia/Tokyo"]).status == 303)
        #expect(try setup.household?.timeZone == "Asia/Tokyo")
    }

    @Test func anUnknownTimeZoneIsRefusedBesideItsField() async throws {
        let setup = try await Setup()
        let response = setup.post(["time_zone": "Mars/Olympus_Mons"])
        #expect(response.status == 422)
        #expect(response.text.contains("Choose a time zone."))
        #expect(try setup.household == nil)
    }

    @Test func withoutAPostedZoneTheServersOwnIsUsed() async throws {
        let setup = try await Setup()
        #expect(setup.post([:]).status == 303)
        #expect(try setup.household?.timeZone == HouseholdSettings.serverTimeZone)
        #expect(HouseholdSettings.isKnown(timeZone: HouseholdSettings.serverTimeZone))
    }

    @Test func theSetupPageOffersTheZoneForTheBrowserToFill() async throws {
        let setup = try await Setup()
        let page = setup.get("/setup").text
        #expect(page.contains(#"<select id="f-time_zone" name="time_zone" data-fill="time-zone""#))
        #expect(page.contains(#"<option value="Asia/Tokyo">Asia/Tokyo</option>"#))
        #expect(page.contains(#"<option value="\#(HouseholdSettings.serverTimeZone)" selected>"#))
        // Posted back with a problem, the zone chosen stays chosen and the browser leaves it alone.
        let again = setup.post(["time_zone": "Asia/Tokyo", "password_confirm": "other"]).text
        #expect(again.contains(#"<option value="Asia/Tokyo" selected>"#))
        #expect(!again.contains("data-fill"))
    }

    /// A reminder typed for 09:00 in a household in Tokyo is the instant 00:00 UTC, and is queued
    /// then, not at 09:00 UTC (nine hours late).
    @Test func aReminderTypedInTokyoIsDueAtItsInstantInUTC() async throws {
        let clock = ManualClock(try Date("2026-11-30T12:00:00Z", strategy: .iso8601))
        let setup = try await Setup(clock: clock)
        let created = setup.post(["time_zone": "Asia/Tokyo"])
        let session = try #require(created.cookie("zaiko_session"))
        let owner = try #require(try Accounts(database: setup.database, hasher: Self.hasher).session(token: session))
        let fridge = try #require(try Items(database: setup.database).folders(in: owner.household, kind: .stock).first?.id)

        let saved = setup.app.respond(
            to: Request(
                method: "POST", path: "/items/new",
                headers: Headers([("Host", "zaiko.test"), ("Cookie", "zaiko_session=\(session)")]),
                form: Parameters([
                    ("folder", "\(fridge)"), ("d0.name", "Tofu"), ("d0.quantity", "1"), ("d0.due", "2026-12-02"),
                    ("d0.remind_at", "2026-12-01T09:00"), ("action", "save"), ("_csrf", owner.csrfToken),
                ]),
                clientAddress: "192.168.1.30"))
        #expect(saved.status == 303)
        let tofu = try #require(try await setup.database.writer.read { db in try Item.fetchOne(db, sql: "SELECT * FROM item WHERE name = 'Tofu'") })
        #expect(tofu.remindAt?.date == (try Date("2026-12-01T00:00:00Z", strategy: .iso8601)))

        // The item page says 09:00, in the household's zone.
        #expect(setup.get("/items/\(tofu.id)", session: session).text.contains("9:00"))

        let queue = ReminderQueue(database: setup.database, clock: clock.wall)
        func sent() throws -> Bool {
            try setup.database.writer.read { db in
                try Bool.fetchOne(db, sql: "SELECT reminder_sent_for IS NOT NULL FROM item WHERE id = ?", arguments: [tofu.id]) ?? false
            }
        }
        clock.advance(try Date("2026-11-30T23:59:59Z", strategy: .iso8601).timeIntervalSince(clock.now))
        try queue.queueDueReminders { _, _ in ("", "") }
        #expect(try !sent())
        clock.advance(1)
        try queue.queueDueReminders { _, _ in ("", "") }
        #expect(try sent())
    }
}
