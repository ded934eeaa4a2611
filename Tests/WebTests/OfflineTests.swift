import Foundation
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

@Suite("What a phone keeps offline: the worker's script and the lists' index")
struct OfflineTests {
    @Test func theWorkerIsServedAtTheRootAndAskedForAgainEachTime() async throws {
        let fixture = try await HouseholdFixture()
        // No session needed (the browser fetches it for its registration), and none is looked up.
        let script = try fixture.send("GET", "/sw.js", as: nil)
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.header("Cache-Control") == "no-cache")
        #expect(script.headers.filter { $0.name == "Cache-Control" }.count == 1)
        #expect(script.text.contains("self.addEventListener(\"fetch\""))
        // Its validator makes the check a 304, which says no-cache too.
        let etag = try #require(script.header("ETag"))
        let again = try fixture.send("GET", "/sw.js", as: fixture.member, headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.header("Cache-Control") == "no-cache")
        // The copy under /static/ keeps the static files' caching (a worker registered from there
        // would only cover /static/).
        #expect(try fixture.send("GET", "/static/sw.js", as: nil).header("Cache-Control") == "public, no-cache")
    }

    @Test func theListsIndexNamesTheMemberAndEveryShoppingListOfTheirHouseholdOnly() async throws {
        let fixture = try await HouseholdFixture()
        let home = try #require(try fixture.accounts.session(token: fixture.member))
        let folders = Folders(database: fixture.app.database)
        let pharmacy = try folders.create(name: "Pharmacy", kind: .shopping, icon: "cart", in: home.household)
        let homeLists = try fixture.items.folders(in: home.household, kind: .shopping).map(\.id)
        #expect(homeLists.count == 2 && homeLists.contains(pharmacy))

        let answer = try fixture.send("GET", "/offline/lists.json", as: fixture.member)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Cache-Control") == "no-store")
        let index = try JSONDecoder().decode(OfflineIndex.self, from: Data(answer.text.utf8))
        #expect(index == OfflineIndex(member: home.memberId.rawValue, lists: homeLists.map { "/folders/\($0)" }))
        #expect(!index.lists.contains("/folders/\(fixture.fridgeId)"), "stock lists are kept when opened, not from the index")

        let grandparents = try #require(try fixture.accounts.session(token: fixture.otherOwner))
        let theirs = try JSONDecoder().decode(
            OfflineIndex.self, from: Data(try fixture.send("GET", "/offline/lists.json", as: fixture.otherOwner).text.utf8))
        let theirLists = try fixture.items.folders(in: grandparents.household, kind: .shopping).map { "/folders/\($0.id)" }
        #expect(theirs == OfflineIndex(member: grandparents.memberId.rawValue, lists: theirLists))
        #expect(Set(theirs.lists).isDisjoint(with: index.lists))

        let signedOut = try fixture.send("GET", "/offline/lists.json", as: nil)
        #expect(signedOut.status == 303)
        #expect(signedOut.header("Location")?.hasPrefix("/login") == true)
        #expect(!signedOut.text.contains("/folders/"))
    }

    @Test func theOfflineBannerIsInSignedInPagesHiddenWithItsWordsAndTheHouseholdsZone() async throws {
        let fixture = try await HouseholdFixture()
        let zone = try #require(try fixture.accounts.session(token: fixture.member)).timeZone
        let page = try fixture.send("GET", "/folders/\(fixture.fridgeId)", as: fixture.member, headers: [("Accept-Language", "ja")]).text
        #expect(page.contains(#"<p class="offline-banner" role="status" data-text="オフライン — {time} 時点の内容" data-time-zone="\#(zone)" hidden></p>"#))
        let login = try fixture.send("GET", "/login", as: nil).text
        #expect(!login.contains("offline-banner"))
    }
}
