import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

/// What rows and their notices say: how far a due date is ("in 2 days", 「あと2日」) on a list,
/// Use soon and a calendar day; a delete names the item; a stock list's bulk bar buys again.
@Suite struct RowWordsTests {
    static let japanese = [("Accept-Language", "ja")]

    struct Dated {
        let fixture: HouseholdFixture
        let today: CalendarDay
        let member: SignedIn

        init() async throws {
            fixture = try await HouseholdFixture()
            today = CalendarDay.today(in: .gmt, now: fixture.clock.now)
            member = try #require(try fixture.accounts.session(token: fixture.member))
            for (name, days) in [("Natto", 2), ("Tofu", 1), ("Rice", 0), ("Yogurt", -1), ("Cream", -2), ("Jam", 40)] {
                var input = ItemInput()
                input.name = name
                input.due = today.adding(days: days).description
                _ = try fixture.items.register([input], into: fixture.fridgeId, in: member.household, by: member.memberId, timeZone: .gmt)
            }
        }

        /// The row of `name` on `html`, from its `<li` to its `</li>`.
        func row(_ name: String, _ html: String) -> String {
            let rows = html.components(separatedBy: "<li class=\"item-row").dropFirst()
            return rows.first { $0.contains(">\(name)</a>") }.map { String($0) } ?? ""
        }
    }

    @Test func daysBetweenCalendarDaysCountAcrossMonthsAndYears() throws {
        let day = try #require(CalendarDay("2026-03-01"))
        #expect(day.days(since: try #require(CalendarDay("2026-02-27"))) == 2)
        #expect(try #require(CalendarDay("2027-01-01")).days(since: try #require(CalendarDay("2026-12-31"))) == 1)
        #expect(try #require(CalendarDay("2024-02-28")).days(since: try #require(CalendarDay("2024-03-01"))) == -2)
    }

    @Test func listRowsSayHowFarTheDueDateIsInBothLanguages() async throws {
        let dated = try await Dated()
        let list = "/folders/\(dated.fixture.fridgeId)"
        let english = try dated.fixture.send("GET", list, as: dated.fixture.member).text
        #expect(dated.row("Natto", english).contains("<span class=\"due-in\">in 2 days</span>"))
        #expect(dated.row("Tofu", english).contains("<span class=\"due-in\">tomorrow</span>"))
        #expect(dated.row("Yogurt", english).contains("<span class=\"due-in\">yesterday</span>"))
        #expect(dated.row("Cream", english).contains("<span class=\"due-in\">2 days ago</span>"))
        // Today is said by the row's tag; a date far away by itself.
        #expect(dated.row("Rice", english).contains("Due today") && !dated.row("Rice", english).contains("due-in"))
        #expect(!dated.row("Jam", english).contains("due-in"))

        let japanese = try dated.fixture.send("GET", list, as: dated.fixture.member, headers: Self.japanese).text
        #expect(dated.row("Natto", japanese).contains("<span class=\"due-in\">あと2日</span>"))
        #expect(dated.row("Tofu", japanese).contains("<span class=\"due-in\">明日</span>"))
        #expect(dated.row("Cream", japanese).contains("<span class=\"due-in\">2日前</span>"))
        #expect(dated.row("Yogurt", japanese).contains("<span class=\"due-in\">昨日</span>"))
    }

    @Test func useSoonAndTheCalendarDaySayItToo() async throws {
        let dated = try await Dated()
        let soon = try dated.fixture.send("GET", "/soon", as: dated.fixture.member, headers: Self.japanese).text
        #expect(dated.row("Natto", soon).contains("あと2日"))
        #expect(dated.row("Cream", soon).contains("2日前"))
        let day = dated.today.adding(days: 2).description
        let calendar = try dated.fixture.send("GET", "/calendar?day=\(day)", as: dated.fixture.member).text
        #expect(dated.row("Natto", calendar).contains("<span class=\"due-in\">in 2 days</span>"))
    }

    @Test func aDeleteFromARowNamesTheItem() async throws {
        let fixture = try await HouseholdFixture()
        let form = [("return", "/folders/\(fixture.fridgeId)"), ("fragment", "1")]
        let english = try fixture.send("POST", "/items/\(fixture.itemId)/delete", as: fixture.member, form: form)
        #expect(english.text.contains("Deleted “Milk”."))
        _ = try fixture.send("POST", "/trash/restore", as: fixture.member, form: [("undo", "\(fixture.itemId)")])
        let japanese = try fixture.send("POST", "/items/\(fixture.itemId)/delete", as: fixture.member, form: form, headers: Self.japanese)
        #expect(japanese.text.contains("「Milk」を削除しました。"))
    }

    @Test func aStockListsBulkBarBuysAgainAndTheSelectAllWaitsForJavaScript() async throws {
        let fixture = try await HouseholdFixture()
        let member = try #require(try fixture.accounts.session(token: fixture.member))
        let list = "/folders/\(fixture.fridgeId)"
        let page = try fixture.send("GET", list, as: fixture.member).text
        #expect(page.contains("<select id=\"bulk-shopping\" name=\"shopping\">"))
        #expect(page.contains("name=\"action\" value=\"buy_again\""))
        #expect(page.contains("<p class=\"select-all\" hidden>"))
        let shopping = try #require(try fixture.items.folders(in: member.household, kind: .shopping).first)
        let bought = try fixture.send(
            "POST", "\(list)/bulk", as: fixture.member,
            form: [("ids", "\(fixture.itemId)"), ("action", "buy_again"), ("shopping", "\(shopping.id!)"), ("return", list)])
        #expect(bought.status == 303)
        let onTheList = try fixture.items.page(of: shopping, filter: ListFilter(), page: 1)
        #expect(onTheList.items.map(\.name) == ["Milk"])
    }

    @Test func theFeedOffersThePlainAddressForHomeAssistant() async throws {
        let fixture = try await HouseholdFixture()
        let english = try fixture.send("POST", "/account/calendar-feed", as: fixture.member).text
        #expect(english.contains("Address for Home Assistant and other apps"))
        #expect(english.contains("value=\"http://zaiko.test/calendar/"))
        let japanese = try fixture.send("POST", "/account/calendar-feed", as: fixture.member, headers: Self.japanese).text
        #expect(japanese.contains("Home Assistant などのアプリ用のアドレス"))
    }
}
