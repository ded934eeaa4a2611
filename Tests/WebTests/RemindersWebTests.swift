import Foundation
import HTTPServer
import Inventory
import Logging
import Synchronization
import Testing

@testable import Web

@Suite("Calendar feed, push settings and rebuilding reminders over HTTP")
struct RemindersWebTests {
    /// Creates a feed for `session` and returns its token, read from the POST's answer.
    func createFeed(_ fixture: HouseholdFixture, as session: String) throws -> String {
        let response = try fixture.send("POST", "/account/calendar-feed", as: session)
        #expect(response.status == 200)
        let shown = try #require(response.text.components(separatedBy: "http://zaiko.test/calendar/").dropFirst().first)
        return String(shown.prefix { $0 != "." })
    }

    func milkWithReminder(_ fixture: HouseholdFixture) throws {
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        var input = ItemInput()
        input.name = "Milk; 1L, \"fresh\""
        input.due = "2026-11-25"
        input.remindAt = "2026-11-24T09:30"
        _ = try fixture.items.register([input], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)
    }

    @Test func theFeedIsServedToItsTokenAndStopsWhenReplaced() async throws {
        let fixture = try await HouseholdFixture()
        try milkWithReminder(fixture)
        let token = try createFeed(fixture, as: fixture.member)

        // Shown once, in the answer to the POST that made it (see SessionTests), never again.
        #expect(!(try fixture.send("GET", "/account", as: fixture.member).text.contains(token)))
        #expect(!(try fixture.send("GET", "/account?feed=\(token)", as: fixture.member).text.contains(token)))

        // No session needed: the token is the key.
        let feed = try fixture.send("GET", "/calendar/\(token).ics", as: nil)
        #expect(feed.status == 200)
        #expect(feed.header("Content-Type") == "text/calendar; charset=utf-8")
        let text = feed.text
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(text.contains("SUMMARY:Milk\\; 1L\\, \"fresh\"\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20261125\r\n"))
        #expect(text.contains("DESCRIPTION:Fridge\r\n"))
        #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261124T093000Z\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "bare line feeds")
        // The milk of the fixture has no due date: no event.
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 2)

        let replaced = try createFeed(fixture, as: fixture.member)
        #expect(replaced != token)
        #expect(try fixture.send("GET", "/calendar/\(token).ics", as: nil).status == 404)
        #expect(try fixture.send("GET", "/calendar/\(replaced).ics", as: nil).status == 200)
        #expect(try fixture.send("POST", "/account/calendar-feed/delete", as: fixture.member).status == 303)
        #expect(try fixture.send("GET", "/calendar/\(replaced).ics", as: nil).status == 404)
        #expect(try fixture.send("GET", "/calendar/\(replaced)", as: nil).status == 404)
    }

    @Test func theAccountPageOffersToCreateThenToReplace() async throws {
        let fixture = try await HouseholdFixture()
        let before = try fixture.send("GET", "/account", as: fixture.viewer).text
        #expect(before.contains("action=\"/account/calendar-feed\""))
        #expect(before.contains("Create feed address"))
        _ = try createFeed(fixture, as: fixture.viewer)
        let after = try fixture.send("GET", "/account", as: fixture.viewer).text
        #expect(after.contains("Replace address"))
        #expect(after.contains("action=\"/account/calendar-feed/delete\""))
        #expect(!after.contains("webcal://"))
    }

    @Test func theLogShowsTheRouteNotTheFeedToken() async throws {
        let fixture = try await HouseholdFixture()
        let token = try createFeed(fixture, as: fixture.owner)
        let lines = LogLines()
        let logger = Logger(label: "capture") { _ in CapturingHandler(lines: lines) }
        let app = try await App(
            database: fixture.app.database, resources: repositoryResources, logger: logger,
            options: AppOptions(hasher: HouseholdFixture.hasher, clock: fixture.clock.wall))
        _ = app.respond(to: Request(method: "GET", path: "/calendar/\(token).ics"))
        _ = app.respond(to: Request(method: "GET", path: "/calendar/wrong-token.ics"))
        let logged = lines.all
        #expect(logged.contains { $0.hasPrefix("GET /calendar/{token}.ics 200") }, "\(logged)")
        #expect(logged.contains { $0.hasPrefix("GET /calendar/{token}.ics 404") }, "\(logged)")
        #expect(!logged.contains { $0.contains(token) || $0.contains("wrong-token") })
    }

    @Test func theOwnerSetsAPushChannelAndTheTokenNeverComesBack() async throws {
        let fixture = try await HouseholdFixture()
        let bad = try fixture.send(
            "POST", "/settings/push", as: fixture.owner,
            form: [("kind", "ntfy"), ("url", "ftp://nope"), ("topic", "bad topic"), ("access_token", "tk_typed"), ("digest_hour", "")])
        #expect(bad.status == 422)
        #expect(bad.text.contains("Enter an address starting with http:// or https://"))
        #expect(bad.text.contains("Use up to 64 letters, digits, - and _."))
        #expect(bad.text.contains("value=\"ftp://nope\""))
        #expect(bad.text.contains("value=\"bad topic\""))
        #expect(!bad.text.contains("tk_typed"))

        let good = try fixture.send(
            "POST", "/settings/push", as: fixture.owner,
            form: [("kind", "ntfy"), ("url", "http://127.0.0.1:9/"), ("topic", "home"), ("access_token", "tk_secret"), ("digest_hour", "7")])
        #expect(good.status == 303)
        let page = try fixture.send("GET", "/settings?saved=push", as: fixture.owner).text
        #expect(page.contains("Push channel saved."))
        #expect(page.contains("A token is set. Leave empty to keep it."))
        #expect(!page.contains("tk_secret"))
        #expect(page.contains("value=\"home\""))
        #expect(page.contains("<option value=\"7\" selected>7:00</option>"))
        #expect(page.contains("No message sent yet."))

        // Without an engine running, the test waits in the outbox and the page says so.
        let test = try fixture.send("POST", "/settings/push/test", as: fixture.owner)
        #expect(test.status == 303)
        let location = try #require(test.header("Location"))
        #expect(location.hasPrefix("/settings?test="))
        #expect(try fixture.send("GET", String(location.prefix { $0 != "#" }), as: fixture.owner).text.contains("The test is on its way."))
        // The Japanese page has the same form.
        let japanese = try fixture.send("GET", "/settings", as: fixture.owner, headers: [("Accept-Language", "ja")])
        #expect(japanese.status == 200)

        #expect(try fixture.send("POST", "/settings/push/delete", as: fixture.owner).status == 303)
        let removed = try fixture.send("POST", "/settings/push/test", as: fixture.owner)
        #expect(removed.status == 422)
        #expect(removed.text.contains("Save a push channel first."))
    }

    func saveChannel(_ fixture: HouseholdFixture, as session: String, url: String = "https://ntfy.example", token: String = "") throws {
        let saved = try fixture.send(
            "POST", "/settings/push", as: session,
            form: [("kind", "ntfy"), ("url", url), ("topic", "home"), ("access_token", token), ("digest_hour", "")])
        #expect(saved.status == 303)
    }

    /// The id in "/settings?test=<id>#push".
    func testId(_ response: Response) throws -> PushMessage.ID {
        let location = try #require(response.header("Location"))
        return try #require(PushMessage.ID(String(location.split(separator: "=").last?.prefix { $0 != "#" } ?? "")))
    }

    @Test func aFailedTestShowsOnlyTheStatusNeverTheAnswersBody() async throws {
        let fixture = try await HouseholdFixture()
        try saveChannel(fixture, as: fixture.owner)
        let outbox = Outbox(database: fixture.app.database, clock: fixture.clock.wall)
        let home = try #require(try fixture.accounts.session(token: fixture.owner)).household
        let first = try testId(try fixture.send("POST", "/settings/push/test", as: fixture.owner))
        try outbox.recordFailure(try #require(try outbox.message(first, in: home)), attempts: 1, failure: .status(500), retryAt: nil)
        var page = try fixture.send("GET", "/settings?test=\(first)", as: fixture.owner).text
        #expect(page.contains("The test could not be sent. The push server had a problem of its own."))
        #expect(page.contains("): The push server had a problem of its own."))
        #expect(page.contains("Detail: HTTP 500"))
        // Another reason, in the reader's language.
        let second = try testId(try fixture.send("POST", "/settings/push/test", as: fixture.owner))
        try outbox.recordFailure(try #require(try outbox.message(second, in: home)), attempts: 1, failure: .refusedAddress, retryAt: nil)
        page = try fixture.send("GET", "/settings?test=\(second)", as: fixture.owner).text
        #expect(
            page.contains("This address is on the server&#39;s own network") || page.contains("This address is on the server&#x27;s own network")
                || page.contains("This address is on the server's own network"))
        let japanese = try fixture.send("GET", "/settings?test=\(second)", as: fixture.owner, headers: [("Accept-Language", "ja")]).text
        #expect(japanese.contains("サーバーの管理者が許可していません"))
    }

    @Test func sendATestIsLimitedPerHouseholdWithAMessageBesideTheButton() async throws {
        let fixture = try await HouseholdFixture()
        try saveChannel(fixture, as: fixture.owner)
        try saveChannel(fixture, as: fixture.otherOwner)
        for _ in 0..<5 {
            #expect(try fixture.send("POST", "/settings/push/test", as: fixture.owner).status == 303)
            fixture.advance(30)
        }
        let limited = try fixture.send("POST", "/settings/push/test", as: fixture.owner)
        #expect(limited.status == 422)
        // Inside the test button's own form, tied to the button.
        let form = try #require(limited.text.range(of: "action=\"/settings/push/test#push\"")).upperBound
        let end = try #require(limited.text.range(of: "</form>", range: form..<limited.text.endIndex)).lowerBound
        let beside = String(limited.text[form..<end])
        #expect(beside.contains("Five tests in ten minutes is the limit."))
        #expect(beside.contains("aria-describedby=\"push-test-error\""))
        // Another household is not limited by this one.
        #expect(try fixture.send("POST", "/settings/push/test", as: fixture.otherOwner).status == 303)
        // Ten minutes after the first, one more may go.
        fixture.advance(600 - 5 * 30 + 1)
        #expect(try fixture.send("POST", "/settings/push/test", as: fixture.owner).status == 303)
    }

    @Test func changingTheAddressOverHTTPDropsTheStoredToken() async throws {
        let fixture = try await HouseholdFixture()
        try saveChannel(fixture, as: fixture.owner, url: "https://ntfy.example", token: "tk_owner")
        try saveChannel(fixture, as: fixture.owner, url: "https://elsewhere.example")
        let page = try fixture.send("GET", "/settings", as: fixture.owner).text
        #expect(!page.contains("A token is set."))
        let home = try fixture.accounts.session(token: fixture.owner)!.household
        #expect(try PushChannels(database: fixture.app.database).channel(in: home)?.accessToken == nil)
    }

    /// "Send a test" waits for the engine's answer, signalled by the commit that records it: with a
    /// wait of an hour, the answer arrives only because the attempt ended the wait.
    @Test func sendATestWaitsForTheAttemptNotForATimer() async throws {
        let fixture = try await HouseholdFixture()
        try saveChannel(fixture, as: fixture.owner)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = try await App(
            database: fixture.app.database, resources: repositoryResources, logger: logger,
            options: AppOptions(hasher: HouseholdFixture.hasher, clock: fixture.clock.wall, pushTestWait: .seconds(3600)))
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        let request = Request(
            method: "POST", path: "/settings/push/test",
            headers: Headers([("Host", "zaiko.test"), ("Cookie", "zaiko_csrf=c; zaiko_session=\(fixture.owner)")]),
            form: Parameters([("_csrf", owner.csrfToken)]), clientAddress: "192.168.1.30")
        let answer = Mutex<Response?>(nil)
        Thread.detachNewThread {
            let response = app.respond(to: request)
            answer.withLock { $0 = response }
        }
        let outbox = Outbox(database: fixture.app.database, clock: fixture.clock.wall)
        var queued: PushMessage?
        try await webEventually("the test is queued") {
            queued = try outbox.claimNext(in: owner.household, skipping: [], lease: 0)?.0
            return queued != nil
        }
        #expect(answer.withLock { $0 } == nil, "the page waits for the attempt")
        try outbox.recordSuccess(try #require(queued), attempts: 1)
        try await webEventually("the page answers once the attempt is recorded") { answer.withLock { $0 } != nil }
        let response = try #require(answer.withLock { $0 })
        #expect(response.status == 303)
        #expect(try fixture.send("GET", "/settings?test=\(try testId(response))", as: fixture.owner).text.contains("Test sent."))
    }

    @Test func rebuildReportsWhatItDid() async throws {
        let fixture = try await HouseholdFixture()
        try milkWithReminder(fixture)
        // The fixture's clock is now; the milk's reminder (2026-11-24 09:30 UTC) is compared to it.
        let response = try fixture.send("POST", "/settings/reminders/rebuild", as: fixture.owner)
        #expect(response.status == 303)
        let location = try #require(response.header("Location"))
        let page = try fixture.send("GET", String(location.prefix { $0 != "#" }), as: fixture.owner).text
        #expect(page.contains("Reminders rebuilt: 1 pending dropped"))
    }
}

/// Waits for an event (another thread's), giving up after a generous while.
func webEventually(_ what: String, _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(90)
    while ContinuousClock.now < deadline {
        if try condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("timed out waiting: \(what)")
}

/// Log lines captured by a test.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct CapturingHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.append("\(event.message)") }
}
