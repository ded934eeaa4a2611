import Foundation
import HTTPServer
import Inventory
import Outbound
import RecipeImport
import Synchronization
import Testing

@testable import Web

/// A recipe site on loopback: the saved pages of Tests/Fixtures/recipes, a real JPEG for their
/// pictures, and pages that go wrong.
final class RecipeSiteOnLoopback: Responder, @unchecked Sendable {
    private let requests = Mutex<[String]>([])
    private var server: Server!
    let picture = UploadFixtures.jpeg(640, 480)
    var base: String { "http://127.0.0.1:\(server.port)" }
    var port: UInt16 { server.port }

    init() throws {
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-recipe-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: uploads), responder: self)
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    var received: [String] { requests.withLock { $0 } }

    static func page(_ name: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/recipes/\(name)"), encoding: .utf8)
    }

    func respond(to request: Request) -> Response {
        requests.withLock { $0.append(request.path) }
        let path = request.path
        if path.hasPrefix("/recipes/"), !path.contains(".."), let page = try? Self.page(String(path.dropFirst("/recipes/".count))) {
            return Response(status: 200, contentType: "text/html; charset=utf-8", text: page)
        }
        if path.hasSuffix(".jpg") { return Response(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture)) }
        switch path {
        case "/elsewhere": return Response(status: 302, headers: [("Location", "http://localhost:\(port)/recipes/graph.html")])
        case "/picture": return Response(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture))
        case "/huge": return Response(status: 200, contentType: "text/html", text: String(repeating: "<p>soup</p>", count: 300_000))
        default: return Response(status: 404, contentType: "text/plain", text: "no such page")
        }
    }

    func respond(toRefused request: Request, status: Int) -> Response { Response(status: status) }
}

/// Importing a recipe through a live server (port 0) from the fake site on loopback.
@Suite("Recipe import pages")
struct RecipeImportWebTests {
    /// The app behind a real listener, and a client that never follows redirects.
    final class Live: @unchecked Sendable {
        let fixture: HouseholdFixture
        let server: Server
        var base: String { "http://127.0.0.1:\(server.port)" }

        /// `ownerAllowsHomeNetwork`: the owner of Home lets members' imports reach the home network
        /// (the fake sites of these tests are on loopback).
        init(allowPrivateOutbound: Bool = true, ownerAllowsHomeNetwork: Bool = true) async throws {
            fixture = try await HouseholdFixture(allowPrivateOutbound: allowPrivateOutbound)
            if ownerAllowsHomeNetwork {
                let allowed = try fixture.send("POST", "/settings/home-network", as: fixture.owner, form: [("allowed", "1")])
                precondition(allowed.status == 303, "the owner could not allow the home network")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-recipe-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: folder), responder: fixture.app)
            try server.start()
        }

        deinit { server.shutdown(grace: .seconds(1)) }

        var en: Catalog { fixture.app.renderer.localizations.catalogs["en"]! }
        var ja: Catalog { fixture.app.renderer.localizations.catalogs["ja"]! }

        func post(_ form: [(String, String)], as session: String? = nil, language: String = "en") async throws -> OutboundResponse {
            let session = session ?? fixture.member
            let csrf = try fixture.accounts.session(token: session)!.csrfToken
            let body = (form + [("_csrf", csrf)]).map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
            return try await OutboundHTTP(policy: .anywhere).send(
                method: "POST", url: URL(string: base + "/recipes/import")!,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "zaiko_session=\(session)"), ("Accept-Language", language),
                ],
                body: Array(body.utf8), timeout: 60, maxResponseBytes: 4 * 1024 * 1024)
        }

        func get(_ path: String, as session: String? = nil, language: String = "en") async throws -> OutboundResponse {
            try await OutboundHTTP(policy: .anywhere).send(
                method: "GET", url: URL(string: base + path)!,
                headers: [("Cookie", "zaiko_session=\(session ?? fixture.member)"), ("Accept-Language", language)], body: [], timeout: 60,
                maxResponseBytes: 4 * 1024 * 1024)
        }

        static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
        }

        /// The member behind a session token.
        func member(_ session: String) throws -> SignedIn { try fixture.accounts.session(token: session)! }
    }

    static func token(_ response: OutboundResponse) throws -> String {
        let location = try #require(response.headers["location"])
        let match = try #require(location.firstMatch(of: /^\/recipes\/new\?draft=([A-Za-z0-9_-]+)$/), "answered \(location)")
        return String(match.1)
    }

    @Test func thePageOffersBothWaysInBothLanguages() async throws {
        let live = try await Live()
        let english = try await live.get("/recipes/import")
        #expect(english.status == 200)
        let page = String(decoding: english.body, as: UTF8.self)
        #expect(page.contains(HTMLEscaped(live.en[.recipeImportHeading])))
        #expect(page.contains(#"name="url""#) && page.contains(#"<textarea id="recipe-import-text" name="text""#))
        let japanese = String(decoding: try await live.get("/recipes/import", language: "ja").body, as: UTF8.self)
        #expect(japanese.contains(HTMLEscaped(live.ja[.recipeImportFromUrl])))
        #expect(try await live.get("/recipes/import", as: live.fixture.viewer).status == 403)
    }

    @Test func aRecipePageBecomesADraftWithItsPictureStored() async throws {
        let live = try await Live()
        let site = try RecipeSiteOnLoopback()
        let response = try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")])
        #expect(response.status == 303)
        let token = try Self.token(response)
        #expect(site.received == ["/recipes/graph.html", "/images/nikujaga.jpg"])
        let drafts = live.fixture.app.recipeDrafts
        // Another session of the same household does not get it, and does not use it up.
        #expect(drafts.take(token, for: try live.member(live.fixture.owner)) == nil)
        let draft = try #require(drafts.take(token, for: try live.member(live.fixture.member)))
        #expect(draft.name == "肉じゃが")
        #expect(draft.servings == "4")
        #expect(draft.tags == "主菜")
        #expect(draft.ingredients.count == 7)
        #expect(draft.ingredients.first == IngredientInput(name: "牛こま切れ肉", amount: "200", unit: "g"))
        #expect(draft.ingredients.last == IngredientInput(name: "サラダ油", amount: "", unit: "to_taste"))
        #expect(draft.steps.hasPrefix("じゃがいもは皮をむいて一口大に切る。\n\n鍋に油を熱し"))
        #expect(draft.sourceUrl == site.base + "/recipes/graph.html")
        guard case .photo(let key) = try #require(draft.picture) else {
            Issue.record("not a photo: \(String(describing: draft.picture))")
            return
        }
        let household = try live.member(live.fixture.member).household
        let stored = try live.fixture.app.photos.file(key: key, size: .small, in: household)
        #expect(FileManager.default.fileExists(atPath: stored.path), "the picture went through the photo pipeline")
        #expect(drafts.take(token, for: try live.member(live.fixture.member)) == nil, "a draft is given once")

        // The draft is what the editor saves as it stands: the foundation accepts every value.
        let member = try live.member(live.fixture.member)
        let recipes = Recipes(database: live.fixture.app.database, clock: live.fixture.clock.wall)
        let id = try recipes.save(draft, id: nil, in: member.household, by: member.memberId)
        let saved = try recipes.input(id, in: member.household)
        #expect(saved.name == "肉じゃが")
        #expect(saved.picture == .photo(key))
        #expect(saved.ingredients.count == 7)
        #expect(saved.tags == "主菜")
    }

    @Test func pastedTextBecomesADraft() async throws {
        let live = try await Live()
        let text = "Pancakes\nServes 4\n\n2 cups flour\n2 eggs\n\nMix.\nFry."
        let response = try await live.post([("source", "text"), ("text", text)])
        #expect(response.status == 303)
        let draft = try #require(live.fixture.app.recipeDrafts.take(try Self.token(response), for: try live.member(live.fixture.member)))
        #expect(draft.name == "Pancakes")
        #expect(draft.servings == "4")
        #expect(draft.ingredients == [IngredientInput(name: "flour", amount: "2", unit: "cup"), IngredientInput(name: "eggs", amount: "2", unit: "piece")])
        #expect(draft.steps == "Mix.\n\nFry.")
        #expect(draft.picture == nil)
        #expect(draft.sourceUrl == "")
    }

    @Test func aWholePastedPageIsLargerThanAFormButStillRead() async throws {
        let live = try await Live()
        let padded = try RecipeSiteOnLoopback.page("howtostep.html").replacingOccurrences(
            of: "<body>", with: "<body><!--" + String(repeating: "x", count: 200 * 1024) + "-->")
        let response = try await live.post([("source", "text"), ("text", padded)])
        #expect(response.status == 303)
    }

    /// Each way a site fails: 422, the message beside the address, the address kept.
    @Test(arguments: [
        ("/nowhere", "recipe_import_url_status"), ("/recipes/no-recipe.html", "recipe_import_url_no_recipe"),
        ("/picture", "recipe_import_url_not_page"), ("/huge", "recipe_import_url_too_large"), ("/elsewhere", "recipe_import_url_moved"),
    ])
    func aFailingSiteIsSaidSoAndTheAddressKept(path: String, key: String) async throws {
        let live = try await Live()
        let site = try RecipeSiteOnLoopback()
        let address = site.base + path
        for (language, catalog) in [("en", live.en), ("ja", live.ja)] {
            let response = try await live.post([("source", "url"), ("url", address)], language: language)
            #expect(response.status == 422)
            let page = String(decoding: response.body, as: UTF8.self)
            let message = catalog.format(
                named: key,
                [
                    "status": "404", "size": String(RecipeFetcher.maxPageBytes / 1024 / 1024),
                    "address": "http://localhost:\(site.port)/recipes/graph.html",
                ])
            #expect(page.contains(HTMLEscaped(message)), "\(language): \(message)")
            #expect(page.contains(#"id="recipe-import-url-error""#))
            #expect(page.contains("value=\"\(HTMLEscaped(address))\""))
        }
        #expect(live.fixture.app.recipeDrafts.count == 0)
    }

    @Test(arguments: [
        ("", "recipe_import_url_missing"), ("ftp://kitchen.example/x", "recipe_import_url_invalid"),
        ("http://127.0.0.1:9/closed", "recipe_import_url_unreachable"),
    ])
    func aWrongOrDeadAddressIsSaidSo(address: String, key: String) async throws {
        let live = try await Live()
        let response = try await live.post([("source", "url"), ("url", address)])
        #expect(response.status == 422)
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains(HTMLEscaped(live.en[named: key])))
        #expect(page.contains("value=\"\(HTMLEscaped(address))\""))
    }

    @Test func aSiteOnTheLocalNetworkIsNotReadUnlessTheOperatorAllowsIt() async throws {
        let live = try await Live(allowPrivateOutbound: false)
        let site = try RecipeSiteOnLoopback()
        let response = try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")])
        #expect(response.status == 422)
        #expect(String(decoding: response.body, as: UTF8.self).contains(HTMLEscaped(live.en[.recipeImportUrlRefused])))
        #expect(site.received.isEmpty)
    }

    @Test func aMembersImportReachesTheHomeNetworkOnlyOnceTheOwnerAllowsIt() async throws {
        // The operator allows private outbound (for push on the home network); the owner has not
        // allowed members' imports to go there.
        let live = try await Live(allowPrivateOutbound: true, ownerAllowsHomeNetwork: false)
        let site = try RecipeSiteOnLoopback()
        for (language, catalog) in [("en", live.en), ("ja", live.ja)] {
            let refused = try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")], language: language)
            #expect(refused.status == 422)
            #expect(String(decoding: refused.body, as: UTF8.self).contains(HTMLEscaped(catalog[.recipeImportUrlRefused])))
        }
        #expect(site.received.isEmpty, "nothing was sent to the loopback site")

        // Only the owner may allow it; then a member's import reads the page.
        #expect(try live.fixture.send("POST", "/settings/home-network", as: live.fixture.member, form: [("allowed", "1")]).status == 403)
        let settings = try live.fixture.send("GET", "/settings", as: live.fixture.owner)
        #expect(settings.text.contains(HTMLEscaped(live.en[.homeNetworkAllow])))
        #expect(!settings.text.contains(HTMLEscaped(live.en[.homeNetworkOperatorOff])))
        #expect(try live.fixture.send("POST", "/settings/home-network", as: live.fixture.owner, form: [("allowed", "1")]).status == 303)
        let allowed = try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")])
        #expect(allowed.status == 303)
        #expect(!site.received.isEmpty)

        // Another household's owner allowing it changes nothing for Home, and the reverse.
        #expect(try live.fixture.send("POST", "/settings/home-network", as: live.fixture.owner, form: []).status == 303)
        #expect(try live.fixture.send("POST", "/settings/home-network", as: live.fixture.otherOwner, form: [("allowed", "1")]).status == 303)
        #expect(try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")]).status == 422)
    }

    @Test func theOwnersSettingDoesNotOpenTheHomeNetworkWhenTheOperatorDoesNot() async throws {
        let live = try await Live(allowPrivateOutbound: false, ownerAllowsHomeNetwork: true)
        let site = try RecipeSiteOnLoopback()
        #expect(try await live.post([("source", "url"), ("url", site.base + "/recipes/graph.html")]).status == 422)
        #expect(site.received.isEmpty)
        let settings = try live.fixture.send("GET", "/settings", as: live.fixture.owner)
        #expect(settings.text.contains(HTMLEscaped(live.en[.homeNetworkOperatorOff])))
    }

    @Test(arguments: [("", "recipe_import_text_missing"), ("Just a title", "recipe_import_text_no_recipe")])
    func pastedTextWithoutARecipeIsSaidSoAndKept(text: String, key: String) async throws {
        let live = try await Live()
        for (language, catalog) in [("en", live.en), ("ja", live.ja)] {
            let response = try await live.post([("source", "text"), ("text", text)], language: language)
            #expect(response.status == 422)
            let page = String(decoding: response.body, as: UTF8.self)
            #expect(page.contains(HTMLEscaped(catalog[named: key])))
            #expect(page.contains("name=\"text\""))
            #expect(page.contains(">\(HTMLEscaped(text))</textarea>"))
        }
    }

    @Test func draftsAreBoundToTheirHouseholdAndSessionAndExpire() async throws {
        let fixture = try await HouseholdFixture()
        let drafts = fixture.app.recipeDrafts
        let member = try fixture.accounts.session(token: fixture.member)!
        let token = drafts.keep(RecipeInput(name: "Soup"), for: member)!
        #expect(drafts.take(token, for: try fixture.accounts.session(token: fixture.otherOwner)!) == nil)
        #expect(drafts.take("not-a-token", for: member) == nil)
        fixture.advance(31 * 60)
        #expect(drafts.take(token, for: member) == nil, "expired after 30 minutes")
        let first = drafts.keep(RecipeInput(name: "A"), for: member)!
        let second = drafts.keep(RecipeInput(name: "B"), for: member)!
        #expect(drafts.take(first, for: member) == nil, "a new import replaces the session's earlier one")
        #expect(drafts.take(second, for: member)?.name == "B")
    }

    @Test func amountsAreWrittenAsAPersonTypesThem() {
        let amounts: [Double] = [200, 1.5, 0.5, 0.25, 1.0 / 3, 2.0 / 3, 454, 0.125, 2.0 / 7]
        let written: [String] = ["200", "1.5", "0.5", "0.25", "1/3", "2/3", "454", "0.125", "0.286"]
        #expect(amounts.map(RecipeInput.typed) == written)
        let input = RecipeInput(imported: ImportedRecipe(name: "Tea", ingredients: [ParsedIngredient(name: "milk")]), picture: nil)
        #expect(input.servings == RecipeInput().servings, "no yield: the editor's own default")
        #expect(input.ingredients == [IngredientInput(name: "milk")])
    }

    /// Issue 22, items 1 and 2: pastes that stopped the server (a number past Int64) or held a thread
    /// (a value nested 60 deep) are answered like any other, and the server goes on answering.
    @Test func hostilePastesAreAnsweredAndTheServerGoesOn() async throws {
        let live = try await Live()
        let member = try live.member(live.fixture.member)
        let huge = try await live.post([("source", "text"), ("text", "Cake\n\n99999999999999999999 g flour\n2 eggs\n\nMix.")])
        #expect(huge.status == 303)
        let cake = try #require(live.fixture.app.recipeDrafts.take(try Self.token(huge), for: member))
        #expect(
            cake.ingredients == [
                IngredientInput(name: "flour", amount: "", unit: "", note: "99999999999999999999 g"), IngredientInput(name: "eggs", amount: "2", unit: "piece"),
            ])
        for yield in ["1e20", "-1e20", "1e308", "9223372036854775807"] {
            let page = try await live.post([("source", "text"), ("text", #"{"@type":"Recipe","name":"Soup","recipeYield":\#(yield)}"#)])
            #expect(page.status == 303, "\(yield)")
            let soup = try #require(live.fixture.app.recipeDrafts.take(try Self.token(page), for: member))
            #expect(soup.servings == RecipeInput().servings, "\(yield): the editor's own default")
        }
        for field in ["recipeYield", "image", "recipeInstructions", "recipeIngredient", "keywords"] {
            let nested = String(repeating: "[", count: 60) + #""4""# + String(repeating: "]", count: 60)
            let page = try await live.post([("source", "text"), ("text", #"{"@type":"Recipe","name":"Soup","\#(field)":\#(nested)}"#)])
            #expect(page.status == 303, "\(field)")
            let deeper = String(repeating: "[", count: 10_000) + #""4""# + String(repeating: "]", count: 10_000)
            let refused = try await live.post([("source", "text"), ("text", #"{"@type":"Recipe","name":"Soup","\#(field)":\#(deeper)}"#)])
            #expect(refused.status == 422, "\(field)")
            #expect(String(decoding: refused.body, as: UTF8.self).contains(HTMLEscaped(live.en[.recipeImportTextNoRecipe])))
        }
        #expect(try await live.get("/healthz").status == 200)
        #expect(try await live.get("/recipes/import").status == 200)
    }

    @Test func anyAmountIsWrittenWithoutATrap() {
        #expect(RecipeInput.typed(1e20) == "100000000000000000000")
        #expect(RecipeInput.typed(-1e20) == "-100000000000000000000")
        #expect(RecipeInput.typed(9_223_372_036_854_775_807) == "9223372036854775808")
        #expect([Double.nan, .infinity, -.infinity].map(RecipeInput.typed) == ["", "", ""])
        let input = RecipeInput(imported: ImportedRecipe(name: "Tea", ingredients: [ParsedIngredient(name: "milk", amount: 1e300, unit: "ml")]), picture: nil)
        #expect(input.ingredients.first?.amount.count == 301)
    }

    @Test func theImportKeepsAmountsWithinTheLargestQuantity() {
        #expect(ImportedRecipe.maxAmount == Quantity.maximum)
    }
}
