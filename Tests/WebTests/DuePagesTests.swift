import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// The use-soon page and the calendar over HTTP: grouping, folders named, quick actions that
/// come back, what viewers see, addresses that do not exist, and other households kept out.
@Suite("Use-soon page and calendar")
struct DuePagesTests {
    /// Home (UTC, window 3 days) with items across folders, and one of Grandparents' due today.
    struct Dated {
        let fixture: HouseholdFixture
        let today: CalendarDay
        var ids: [String: Int64] = [:]

        init() async throws {
            fixture = try await HouseholdFixture()
            today = CalendarDay.today(in: .gmt, now: fixture.clock.now)
            let home = try #require(try fixture.accounts.session(token: fixture.owner))
            let grandma = try #require(try fixture.accounts.session(token: fixture.otherOwner))
            ids["Old yogurt"] = try add("Old yogurt", days: -2, folder: "Fridge", home)
            ids["Tofu"] = try add("Tofu", days: 0, folder: "Pantry", home)
            ids["Natto"] = try add("Natto", days: 3, folder: "Freezer", home)
            ids["Butter"] = try add("Butter", days: 4, folder: "Fridge", home)
            ids["Their tofu"] = try add("Their tofu", days: 0, folder: nil, grandma)
        }

        func add(_ name: String, days: Int, folder: String?, _ member: SignedIn) throws -> Int64 {
            let folders = try fixture.items.folders(in: member.household, kind: .stock)
            let target = try #require(folder.map { name in folders.first { $0.name == name } } ?? folders.first)
            var input = ItemInput()
            input.name = name
            input.due = today.adding(days: days).description
            return try fixture.items.register([input], into: target.id!, in: member.household, by: member.memberId, timeZone: .gmt)[0]
        }

        var month: String { String(today.description.prefix(7)) }
    }

    func position(_ text: String, in html: String) -> Int {
        html.range(of: text).map { html.distance(from: html.startIndex, to: $0.lowerBound) } ?? -1
    }

    @Test func useSoonGroupsAcrossFoldersAndNamesEachFolder() async throws {
        let dated = try await Dated()
        let response = try dated.fixture.send("GET", "/soon", as: dated.fixture.member)
        #expect(response.status == 200)
        let html = response.text
        let expired = position(">Expired</span>", in: html), today = position(">Due today</span>", in: html),
            soon = position(">Due within 3 days</span>", in: html)
        #expect(expired > 0 && today > expired && soon > today, "groups in order: \(expired) \(today) \(soon)")
        #expect(position(">Old yogurt<", in: html) > expired && position(">Old yogurt<", in: html) < today)
        #expect(position(">Tofu<", in: html) > today && position(">Tofu<", in: html) < soon)
        #expect(position(">Natto<", in: html) > soon)
        #expect(!html.contains(">Butter<"), "due after the window")
        #expect(!html.contains("Their tofu"), "another household's item")
        for folder in ["Fridge", "Pantry", "Freezer"] {
            #expect(html.contains("<span class=\"visually-hidden\">Folder: </span>\(folder)</span>"), "\(folder) named")
        }
        // The stock list's quick actions, coming back here; checkboxes for the bulk bar.
        let tofu = try #require(dated.ids["Tofu"])
        #expect(html.contains("formaction=\"/items/\(tofu)/quantity\""))
        #expect(html.contains("formaction=\"/items/\(tofu)/opened\""))
        #expect(html.contains("formaction=\"/items/\(tofu)/buy-again\""))
        #expect(html.contains("formaction=\"/items/\(tofu)/delete\""))
        #expect(html.contains("href=\"/items/\(tofu)/edit?return=/soon\""))
        #expect(html.contains("<input type=\"hidden\" name=\"return\" value=\"/soon\">"))
        #expect(html.contains("row-check"))
    }

    @Test func aQuickActionComesBackToTheUseSoonPageWithUndo() async throws {
        let dated = try await Dated()
        let fixture = dated.fixture
        let tofu = try #require(dated.ids["Tofu"])
        let opened = try fixture.send("POST", "/items/\(tofu)/opened", as: fixture.member, form: [("return", "/soon")])
        #expect(opened.status == 303 && opened.header("Location") == "/soon?at=\(tofu)&opened=\(tofu)#item-\(tofu)")
        let deleted = try fixture.send("POST", "/items/\(tofu)/delete", as: fixture.member, form: [("return", "/soon")])
        #expect(deleted.status == 303 && deleted.header("Location") == "/soon?deleted=\(tofu)")
        let page = try fixture.send("GET", "/soon?deleted=\(tofu)", as: fixture.member).text
        #expect(page.contains("Moved 1 item to the trash."))
        #expect(page.contains("<input type=\"hidden\" name=\"ids\" value=\"\(tofu)\">"))
        #expect(!page.contains(">Tofu<"))
        // Reaching zero asks what to do, and the question comes back here too.
        let natto = try #require(dated.ids["Natto"])
        let zero = try fixture.send("POST", "/items/\(natto)/quantity", as: fixture.member, form: [("delta", "-1"), ("return", "/soon")])
        #expect(zero.header("Location") == "/items/\(natto)/empty?return=/soon%23item-\(natto)")
    }

    @Test func viewersSeeTheItemsWithoutWriteButtons() async throws {
        let dated = try await Dated()
        let soon = try dated.fixture.send("GET", "/soon", as: dated.fixture.viewer)
        let day = try dated.fixture.send("GET", "/calendar?day=\(dated.today)", as: dated.fixture.viewer)
        for response in [soon, day] {
            #expect(response.status == 200)
            #expect(response.text.contains(">Tofu<"))
            #expect(!response.text.contains("formaction"))
            #expect(!response.text.contains("/edit?return"))
            #expect(!response.text.contains("row-check"))
        }
    }

    @Test func anEmptyUseSoonPageSaysSoKindly() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("GET", "/soon", as: fixture.owner)
        #expect(response.status == 200)
        #expect(response.text.contains("All good: nothing has expired, and nothing is due in the next 3 days."))
        #expect(!response.text.contains("item-row"))
    }

    @Test func theFoldersPageLinksToUseSoonWithTheCount() async throws {
        let dated = try await Dated()
        let home = try dated.fixture.send("GET", "/", as: dated.fixture.viewer).text
        #expect(home.contains("href=\"/soon\""))
        #expect(home.contains("Use soon · 3"))
        #expect(home.contains("href=\"/calendar\""))
    }

    @Test func theCalendarCountsEachDayAndOpensADay() async throws {
        let dated = try await Dated()
        let fixture = dated.fixture
        let month = dated.month
        let response = try fixture.send("GET", "/calendar", as: fixture.member)
        #expect(response.status == 200)
        let html = response.text
        let todayLink = "href=\"/calendar?month=\(month)&amp;day=\(dated.today)\""
        #expect(html.contains(todayLink))
        #expect(html.contains("aria-current=\"date\""))
        // Today has Tofu only: Grandparents' tofu is not counted.
        let cell = try #require(html.range(of: todayLink).map { String(html[$0.upperBound...].prefix(400)) })
        #expect(cell.contains("<span class=\"cal-count\">1</span>"), "\(cell)")

        let day = try fixture.send("GET", "/calendar?month=\(month)&day=\(dated.today)", as: fixture.member).text
        #expect(day.contains(">Tofu<"))
        #expect(day.contains("Folder: </span>Pantry"))
        #expect(!day.contains("Their tofu"))
        #expect(!day.contains(">Natto<"))
        #expect(day.contains("<input type=\"hidden\" name=\"return\" value=\"/calendar?month=\(month)&amp;day=\(dated.today)\">"))
        // A day alone shows its own month.
        let alone = try fixture.send("GET", "/calendar?day=\(dated.today)", as: fixture.member)
        #expect(alone.status == 200 && alone.text.contains(">Tofu<"))
    }

    @Test func monthsStepBackAndForthInTheReadersLanguage() async throws {
        let fixture = try await HouseholdFixture()
        let january = try fixture.send("GET", "/calendar?month=2026-01", as: fixture.owner).text
        #expect(january.contains("January 2026"))
        #expect(january.contains("rel=\"prev\" href=\"/calendar?month=2025-12\""))
        #expect(january.contains("rel=\"next\" href=\"/calendar?month=2026-02\""))
        #expect(january.contains("<abbr title=\"Sunday\">Sun</abbr></th><th scope=\"col\"><abbr title=\"Monday\">Mon</abbr>"))
        // 1 January 2026 is a Thursday: four blank days before it in a Sunday-first week.
        #expect(
            january.contains(
                "<tr><td class=\"cal-day\"></td><td class=\"cal-day\"></td><td class=\"cal-day\"></td><td class=\"cal-day\"></td><td class=\"cal-day"))

        // The member's language (Aki chose English at setup; now Japanese).
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        try fixture.accounts.updateProfile(memberId: owner.memberId, name: "Aki", language: "ja")
        let ja = try fixture.send("GET", "/calendar?month=2026-01", as: fixture.owner).text
        #expect(ja.contains("2026年1月"))
        #expect(ja.contains("<abbr title=\"日曜日\">日</abbr>"))
        #expect(ja.contains("12月"))
    }

    @Test(arguments: ["month=2026-13", "month=26-01", "month=abc", "day=2026-02-30", "day=2026-11-1", "day=x&month=2026-11", "month=2026-11-01"])
    func malformedMonthsAndDaysAreNotFound(query: String) async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("GET", "/calendar?\(query)", as: fixture.owner)
        #expect(response.status == 404)
    }
}
