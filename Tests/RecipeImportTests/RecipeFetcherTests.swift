import Foundation
import Outbound
import Testing

@testable import RecipeImport

/// The real outbound path (URLSession through `OutboundHTTP`) against the fake recipe site on loopback.
@Suite("Recipe fetcher")
struct RecipeFetcherTests {
    /// Patient deadlines: on two loaded cores a loopback answer can take longer than the real 8 s, and
    /// these tests are about what is fetched, not how fast (the budget has its own test below).
    let fetcher = RecipeFetcher(client: OutboundHTTP(policy: .anywhere), timeout: 300, budget: .seconds(600))

    func failure(_ address: String, with fetcher: RecipeFetcher? = nil) async -> RecipeFetchError? {
        do {
            _ = try await (fetcher ?? self.fetcher).fetch(address)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPageAndItsPicture() async throws {
        let site = try FakeRecipeSite()
        let fetched = try await fetcher.fetch(site.base + "/recipes/graph.html")
        #expect(fetched.recipe.name == "肉じゃが")
        #expect(fetched.recipe.sourceURL?.absoluteString == site.base + "/recipes/graph.html")
        #expect(fetched.recipe.imageURL?.absoluteString == site.base + "/images/nikujaga.jpg")
        #expect(fetched.image == site.picture)
        #expect(site.received == ["/recipes/graph.html", "/images/nikujaga.jpg"])
    }

    @Test func aRedirectOnTheSameHostIsFollowed() async throws {
        let site = try FakeRecipeSite()
        let fetched = try await fetcher.fetch(site.base + "/moved")
        #expect(fetched.recipe.name == "Fluffy Pancakes")
        #expect(fetched.recipe.sourceURL?.absoluteString == site.base + "/recipes/howtostep.html")
    }

    @Test func aRedirectToAnotherHostIsReportedNotFollowed() async throws {
        let site = try FakeRecipeSite()
        let error = await failure(site.base + "/elsewhere")
        #expect(error == .movedElsewhere(URL(string: "http://localhost:\(site.port)/recipes/howtostep.html")!))
        #expect(site.received == ["/elsewhere"])
    }

    @Test func endlessRedirectsStop() async throws {
        let site = try FakeRecipeSite()
        #expect(await failure(site.base + "/loop") == .unreachable)
        #expect(site.received.count == RecipeFetcher.maxRedirects + 1)
    }

    @Test func eachFailureHasItsReason() async throws {
        let site = try FakeRecipeSite()
        #expect(await failure(site.base + "/nowhere") == .status(404))
        #expect(await failure(site.base + "/picture") == .notAPage)
        #expect(await failure(site.base + "/huge") == .tooLarge)
        #expect(await failure(site.base + "/recipes/no-recipe.html") == .noRecipe)
        #expect(await failure("http://127.0.0.1:9/recipe") == .unreachable)
        #expect(await failure("ftp://kitchen.example/recipe") == .badAddress)
        #expect(await failure("http://") == .badAddress)
        #expect(await failure("two words") == .badAddress)
    }

    /// The whole fetch has a deadline of its own: a site that never answers is given up when the
    /// budget is spent, although one request alone would be allowed an hour.
    @Test func aSiteThatNeverAnswersIsGivenUpAtTheBudget() async throws {
        let site = try FakeRecipeSite()
        defer { site.release() }
        let patient = RecipeFetcher(client: OutboundHTTP(policy: .anywhere), timeout: 3600, budget: .seconds(1))
        // Whether the site saw the request before the fetch gave up depends on the machine's load: not asserted.
        #expect(await failure(site.base + "/slow", with: patient) == .unreachable)
    }

    @Test func aLoopbackSiteIsNotAskedUnlessTheOperatorAllowsIt() async throws {
        let site = try FakeRecipeSite()
        let strict = RecipeFetcher(client: OutboundHTTP(policy: .publicOnly))
        #expect(await failure(site.base + "/recipes/graph.html", with: strict) == .refusedAddress)
        #expect(site.received.isEmpty)
    }

    @Test func aPictureThatFailsLeavesTheRecipe() async throws {
        let site = try FakeRecipeSite()
        let fetched = try await fetcher.fetch(site.base + "/broken-image")
        #expect(fetched.recipe.name == "Toast")
        #expect(fetched.image == nil)
        #expect(site.received == ["/broken-image", "/images/missing.jpg"])
    }

    @Test func aSiteAnsweringWithItsJSONLDAlone() async throws {
        let site = try FakeRecipeSite()
        let fetched = try await fetcher.fetch(site.base + "/json-ld")
        #expect(fetched.recipe.name == "Plain rice")
        #expect(fetched.recipe.ingredients == [ParsedIngredient(name: "米", note: "2合")])
    }

    @Test func aPageInShiftJIS() async throws {
        let site = try FakeRecipeSite()
        let fetched = try await fetcher.fetch(site.base + "/shift-jis")
        #expect(fetched.recipe.name == "肉じゃが")
        #expect(fetched.recipe.ingredients == [ParsedIngredient(name: "醤油", amount: 3, unit: "tbsp")])
    }

    @Test func typedAddresses() throws {
        #expect(try RecipeFetcher.webAddress(" kitchen.example/nikujaga ").absoluteString == "https://kitchen.example/nikujaga")
        #expect(RecipeFetcher.sameHost(URL(string: "https://a.example/x")!, URL(string: "http://a.example/y")!))
        #expect(!RecipeFetcher.sameHost(URL(string: "http://a.example/x")!, URL(string: "https://a.example/y")!), "never down to http")
        #expect(!RecipeFetcher.sameHost(URL(string: "http://a.example:8080/x")!, URL(string: "http://a.example/y")!))
        #expect(!RecipeFetcher.sameHost(URL(string: "http://b.example/x")!, URL(string: "http://a.example/y")!))
    }
}
