import Foundation
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// Every route of the router, tried as every kind of reader. The expectations are written here,
/// apart from the routes' own declarations, so a route that forgets its check fails, and a new
/// route that is not in this table fails too.
@Suite("Authorisation matrix")
struct AuthorizationMatrixTests {
    enum Expected { case asset, open, signedIn, writer, owner, token }

    static let table: [String: Expected] = [
        "GET /healthz": .asset,
        "GET /static/{path...}": .asset,
        "GET /sw.js": .asset,
        "GET /offline/lists.json": .signedIn,
        "GET /events": .signedIn,
        "GET /setup": .open, "POST /setup": .open,
        "GET /login": .open, "POST /login": .open,
        "GET /join/{token}": .open, "POST /join/{token}": .open,
        "GET /reset/{token}": .open, "POST /reset/{token}": .open,
        "POST /logout": .signedIn,
        "GET /": .signedIn,
        "GET /account": .signedIn,
        "POST /account/profile": .signedIn,
        "POST /account/password": .signedIn,
        "POST /account/sessions/{id}/revoke": .signedIn,
        "POST /account/sessions/revoke-others": .signedIn,
        "GET /settings": .owner,
        "POST /settings/invitations": .owner,
        "POST /settings/invitations/{id}/cancel": .owner,
        "POST /settings/members/{id}/role": .owner,
        "POST /settings/members/{id}/remove": .owner,
        "POST /settings/household": .owner,
        "POST /settings/push": .owner,
        "POST /settings/push/delete": .owner,
        "POST /settings/push/test": .owner,
        "POST /settings/reminders/rebuild": .owner,
        "POST /settings/backups/now": .owner,
        "GET /settings/backups/latest": .owner,
        "GET /calendar/{token}.ics": .open,
        "POST /account/calendar-feed": .signedIn,
        "POST /account/calendar-feed/delete": .signedIn,
        "GET /folders/{id}": .signedIn,
        "GET /folders/edit": .writer,
        "POST /folders": .writer,
        "GET /folders/{id}/edit": .writer,
        "POST /folders/{id}": .writer,
        "POST /folders/{id}/move": .writer,
        "GET /folders/{id}/delete": .writer,
        "POST /folders/{id}/delete": .writer,
        "POST /folders/{id}/bulk": .writer, "POST /folders/{id}/add": .writer,
        "GET /folders/{id}/bought": .writer, "POST /folders/{id}/bought": .writer,
        "GET /items/new": .writer,
        "POST /items/new": .writer,
        "GET /items/{id}": .signedIn,
        "GET /items/{id}/edit": .writer,
        "POST /items/{id}": .writer,
        "POST /items/{id}/quantity": .writer,
        "POST /items/{id}/opened": .writer,
        "POST /items/{id}/keep": .writer,
        "POST /items/{id}/keep/stop": .writer,
        "POST /items/{id}/urgent": .writer,
        "POST /items/{id}/basket": .writer,
        "POST /items/{id}/delete": .writer,
        "POST /items/{id}/buy-again": .writer,
        "GET /items/{id}/empty": .writer,
        "GET /trash": .signedIn,
        "GET /soon": .signedIn,
        "POST /soon/bulk": .writer,
        "GET /calendar": .signedIn,
        "POST /trash/restore": .writer,
        "POST /trash/purge": .writer,
        "GET /photos/{key}/{size}": .signedIn,
        "POST /items/{id}/photo": .writer,
        "GET /products": .signedIn,
        "GET /household": .signedIn,
        // The meal plan: read by everyone, changed by writers.
        "POST /account/calendar-feed/meals": .signedIn,
        "GET /plan": .signedIn, "POST /plan/meals": .writer, "POST /plan/shopping": .writer,
        "POST /meals/{id}": .writer, "POST /meals/{id}/repeat": .writer, "POST /meals/{id}/skip": .writer,
        "POST /meals/{id}/plan-again": .writer, "POST /meals/{id}/delete": .writer,
        "GET /products/{id}": .writer,
        "POST /products/{id}": .writer,
        "POST /products/{id}/forget": .writer,
        "POST /settings/lookup": .owner,
        "POST /settings/home-network": .owner,
        "GET /tls": .open, "GET /tls/zaiko-ca.crt": .asset, "GET /tls/zaiko-ca.cer": .asset, "GET /tls/zaiko.mobileconfig": .asset,
        "GET /settings/export": .owner,
        "GET /import": .writer,
        "POST /import": .writer,
        "POST /import/confirm": .writer,
        "GET /recipes": .signedIn,
        "GET /recipes/{id}": .signedIn,
        // recipeeditor
        "GET /recipes/new": .writer, "POST /recipes": .writer,
        "GET /recipes/{id}/edit": .writer, "POST /recipes/{id}": .writer,
        "POST /recipes/{id}/delete": .writer, "POST /recipes/restore": .writer,
        "POST /trash/recipes/restore": .writer, "POST /trash/recipes/purge": .writer,
        "GET /recipes/import": .writer, "POST /recipes/import": .writer,
        // cookpages: cooking a recipe, its undo, what is missing to a list, the used-up choice.
        "GET /recipes/{id}/cook": .writer, "POST /recipes/{id}/cook": .writer,
        "POST /cooks/{id}/undo": .writer,
        "POST /recipes/{id}/shopping": .writer,
        "POST /settings/used-up": .owner,
        "POST /settings/keep": .owner,
        // Personal access tokens, each member their own.
        "POST /account/tokens": .signedIn, "POST /account/tokens/{id}/revoke": .signedIn,
        // The API's contract, public; its operations take a bearer token, never a session cookie
        // (APITests holds each against every role and scope).
        "GET /api/v1/openapi.json": .asset, "GET /api": .open,
        "GET /api/v1/household": .token, "GET /api/v1/folders": .token,
        "GET /api/v1/folders/{folderId}/items": .token, "POST /api/v1/folders/{folderId}/items": .token,
        "GET /api/v1/items/{itemId}": .token, "PATCH /api/v1/items/{itemId}": .token,
        "POST /api/v1/items/{itemId}/quantity": .token, "POST /api/v1/items/{itemId}/opened": .token,
        "PUT /api/v1/items/{itemId}/basket": .token, "GET /api/v1/changes": .token,
        "DELETE /api/v1/items/{itemId}": .token, "POST /api/v1/items/{itemId}/restore": .token, "GET /api/v1/summary": .token, "GET /api/v1/due": .token,
        "GET /api/v1/events": .token,
        "POST /api/v1/items/{itemId}/bought": .token, "POST /api/v1/items/{itemId}/buy-again": .token,
        "GET /api/v1/products/by-barcode/{barcode}": .token, "GET /api/v1/keep": .token, "GET /api/v1/use-soon": .token,
        "GET /api/v1/calendar": .token, "GET /api/v1/meals": .token, "GET /api/v1/recipes": .token, "GET /api/v1/recipes/{recipeId}": .token,
        "POST /api/v1/recipes/{recipeId}/cook": .token, "POST /api/v1/recipes/{recipeId}/missing": .token,
        "POST /api/v1/mcp": .token, "GET /api/v1/mcp": .token, "DELETE /api/v1/mcp": .token,
    ]

    enum Actor: String, CaseIterable { case anonymous, viewer, member, owner, otherHousehold }

    static func routes() async throws -> [String] {
        try await HouseholdFixture().app.router.routes.map { "\($0.method) \($0.pattern)" }
    }

    @Test func everyRouteIsInTheTable() async throws {
        let routes = try await Self.routes()
        let missing = routes.filter { Self.table[$0] == nil }
        #expect(missing.isEmpty, "routes without an expectation: \(missing)")
        let gone = Set(Self.table.keys).subtracting(routes)
        #expect(gone.isEmpty, "expectations for routes that do not exist: \(gone.sorted())")
    }

    /// The path to request: `{id}` is an object of Home, `{token}` a link that does not exist.
    func path(for pattern: String, _ fixture: HouseholdFixture) -> String {
        var path = pattern.replacingOccurrences(of: "{path...}", with: "css/app.css")
            .replacingOccurrences(of: "{token}", with: "no-such-token")
        if pattern.contains("/settings/members/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.memberId)") }
        if pattern.contains("/settings/invitations/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.invitationId)") }
        if pattern.contains("/account/sessions/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.ownerSecondSessionId)") }
        if pattern.hasPrefix("/folders/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.fridgeId)") }
        if pattern.hasPrefix("/items/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.itemId)") }
        if pattern.hasPrefix("/products/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.productId)") }
        if pattern.hasPrefix("/recipes/") { path = path.replacingOccurrences(of: "{id}", with: "\(fixture.recipeId)") }
        if pattern.hasPrefix("/photos/") { path = path.replacingOccurrences(of: "{key}/{size}", with: "\(fixture.photoKey)/128") }
        return path
    }

    func token(_ actor: Actor, _ fixture: HouseholdFixture) -> String? {
        switch actor {
        case .anonymous: return nil
        case .viewer: return fixture.viewer
        case .member: return fixture.member
        case .owner: return fixture.owner
        case .otherHousehold: return fixture.otherOwner
        }
    }

    @Test(arguments: Array(table.keys).sorted())
    func readersGetWhatTheirRoleAllows(route: String) async throws {
        let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
        let (method, pattern) = (parts[0], parts[1])
        let expected = try #require(Self.table[route])
        for actor in Actor.allCases {
            // A fresh household each time: allowed requests may change what the next one sees.
            let fixture = try await HouseholdFixture()
            let response = try fixture.send(method, path(for: pattern, fixture), as: token(actor, fixture))
            // Only a GET is sent to the login page; a refused POST gets 403 (logout itself ends on /login).
            let signInRedirect = method == "GET" && response.status == 303 && (response.header("Location") ?? "").hasPrefix("/login")
            let refused = response.status == 403 || signInRedirect
            let context = "\(actor) \(method) \(path(for: pattern, fixture)) → \(response.status) \(response.header("Location") ?? "")"

            switch (expected, actor) {
            case (.token, _):
                // A session cookie is no credential here (so no form token is needed either).
                #expect(response.status == 401, "\(context)")
            case (.asset, _), (.open, _):
                #expect(!refused, "\(context)")
            case (_, .anonymous):
                // Signed out: to the login page, whatever the method, and nothing changes.
                #expect(response.status == 303 && (response.header("Location") ?? "").hasPrefix("/login"), "\(context)")
            case (.writer, .viewer), (.owner, .viewer), (.owner, .member):
                #expect(response.status == 403, "\(context)")
            case (_, .otherHousehold) where pattern.contains("{id}") || pattern.contains("{key}"):
                // Another household's object answers exactly like one that does not exist.
                #expect(response.status == 404, "\(context)")
            default:
                #expect(!refused, "\(context)")
            }
        }
    }

    @Test func viewersAndMembersDoNotSeeTheOwnersSettingsLink() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/", as: fixture.owner).text.contains("href=\"/settings\""))
        #expect(!(try fixture.send("GET", "/", as: fixture.member).text.contains("href=\"/settings\"")))
        #expect(!(try fixture.send("GET", "/", as: fixture.viewer).text.contains("href=\"/settings\"")))
    }
}
