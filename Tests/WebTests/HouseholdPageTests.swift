import Foundation
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// The Household page over HTTP: what a member does on the lists shows on its charts and their
/// tables, only to its own household, in the reader's language, whatever the query asks.
@Suite("Household page")
struct HouseholdPageTests {
    /// Home with two yogurts registered due yesterday, used one at a time through the list's −
    /// button: the first is use, the last, used up after its due date, is wasted. (The clock stays:
    /// sessions end when it moves days on.)
    static func wastedYogurt() async throws -> HouseholdFixture {
        let fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        var yogurt = ItemInput()
        yogurt.name = "Yogurt"
        yogurt.quantity = "2"
        yogurt.due = CalendarDay.today(in: .gmt, now: fixture.clock.now).adding(days: -1).description
        let id = try fixture.items.register([yogurt], into: fixture.fridgeId, in: owner.household, by: owner.memberId, timeZone: .gmt)[0]
        for _ in 0..<2 {
            #expect(try fixture.send("POST", "/items/\(id)/quantity", as: fixture.member, form: [("delta", "-1")]).status == 303)
        }
        return fixture
    }

    @Test func anEmptyHouseholdSaysWhatWillAppear() async throws {
        let fixture = try await HouseholdFixture()
        let page = try fixture.send("GET", "/household", as: fixture.viewer)
        #expect(page.status == 200)
        #expect(page.text.contains("Nothing wasted yet."))
        #expect(page.text.contains("the products wasted most often will appear here"))
        #expect(page.text.contains("how many days the rest will last will appear here"))
        #expect(!page.text.contains("<svg class=\"chart\""))
    }

    @Test func somethingUsedUpAfterItsDueDateIsOnTheWasteChartsAndTables() async throws {
        let fixture = try await Self.wastedYogurt()
        let page = try fixture.send("GET", "/household", as: fixture.viewer).text
        // Three charts, each a picture named by its title and description, with a table behind it.
        #expect(page.components(separatedBy: "role=\"img\"").count == 4)
        #expect(page.contains("aria-labelledby=\"waste-month-title waste-month-desc\""))
        #expect(page.contains("<title id=\"top-wasted-title\">Wasted most often</title>"))
        #expect(page.contains("<text class=\"chart-name\" x=\"0\" y=\"14\">Yogurt</text>"))
        #expect(page.contains("<tr><th scope=\"row\">Yogurt</th><td class=\"number\">once</td><td class=\"number\">1 piece</td></tr>"))
        #expect(page.contains("1 item wasted in the last 12 months"))
        #expect(page.contains("<tr><th scope=\"row\">Other</th><td class=\"number\">1</td></tr>"))
        // The first one is use: a week's rate over the last 8 weeks.
        #expect(page.contains("<tr><th scope=\"row\">Yogurt</th><td class=\"number\">0.1 pieces</td>"))
    }

    @Test func anotherHouseholdSeesNoneOfIt() async throws {
        let fixture = try await Self.wastedYogurt()
        let theirs = try fixture.send("GET", "/household", as: fixture.otherOwner)
        #expect(theirs.status == 200)
        #expect(!theirs.text.contains("Yogurt"))
        #expect(theirs.text.contains("Nothing wasted yet."))
    }

    @Test func theJapanesePageSpeaksJapanese() async throws {
        let fixture = try await Self.wastedYogurt()
        let page = try fixture.send("GET", "/household", as: fixture.viewer, headers: [("Accept-Language", "ja")]).text
        #expect(page.contains("<h1>使ったもの・捨てたもの</h1>"))
        #expect(page.contains("直近12か月で1件を廃棄"))
        #expect(page.contains("<td class=\"number\">1回</td>"))
    }

    @Test(arguments: ["months=99999999999999999999", "months=-4", "weeks=abc", "weeks=100000&months=0", "months=%00"])
    func anyQueryIsBounded(_ query: String) async throws {
        let fixture = try await Self.wastedYogurt()
        let page = try fixture.send("GET", "/household?\(query)", as: fixture.member)
        #expect(page.status == 200)
        let columns = page.text.components(separatedBy: "class=\"chart-bar chart-bar-waste\" x=").count - 1
        // At most 24 months and the one top-wasted bar.
        #expect(columns >= 1 && columns <= 25)
    }

    @Test func theFoldersPageLinksToIt() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/", as: fixture.viewer).text.contains("<a href=\"/household\">Use and waste</a>"))
    }

    @Test func signedOutIsSentToSignIn() async throws {
        let fixture = try await HouseholdFixture()
        let answer = try fixture.send("GET", "/household", as: nil)
        #expect(answer.status == 303)
        #expect((answer.header("Location") ?? "").hasPrefix("/login"))
    }
}
